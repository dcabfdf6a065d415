import Logging

/// What the engine reports that the admin should read in the log, one line each.
struct EngineEventLog: Sendable {
    let logger: Logger
    let actions: InputActionLog

    func handle(_ event: EngineEvent) {
        switch event {
        case .damaged(let error): logger.notice("\(error)")
        case .decoderNote(let path, let note): logger.notice("\(path): \(note)")
        case .streamNews(_, .title(let title)): logger.info("♪ \(title)")
        case .streamNews(_, .problem(let error)): logger.warning("\(error); retrying")
        case .outputConfigured(let negotiated): logger.notice("output: \(negotiated)")
        case .mixerChanged(let mixer, let note): logger.notice("mixer: \(note ?? mixer)")
        case .volumeChangedOutside(let volume): logger.info("mixer: set to \(volume) from outside")
        case .outputLost(let error):
            logger.warning("output: \(error.isGone ? "lost" : "cannot play"): \(error); paused until a device is back")
        case .outputReturned(let device):
            logger.notice("output: \(device) is back")
        case .outputFailed(let error):
            logger.error("output: \(error)")
        case .underrun(let total):
            logger.warning("output: underrun: the device ran dry and the sound dropped out (\(total) since start)")
        case .commandApplied(let command, let postedAt, let audibleAt):
            logger.debug("\(command) took effect on the output \(InputActionLog.milliseconds(audibleAt - postedAt)) ms after it was asked for")
            actions.applied(command, postedAt: postedAt, audibleAt: audibleAt)
        default: break
        }
    }
}
