import Logging

/// Says, once each, when the box became ready (its socket listening and its first queue
/// known: `READY=1` to systemd) and when it first sounded, both counted from the start of
/// the process, so the journal shows the boot timeline.
final class StartupReport: Sendable {
    private let startedAt: UInt64
    private let logger: Logger
    private let said = ConditionLocked(Said())
    private struct Said {
        var ready = false
        var sounded = false
    }

    init(startedAt: UInt64, logger: Logger) {
        self.startedAt = startedAt
        self.logger = logger
    }

    /// The first queue is known (or known to be empty); the control socket started before
    /// the library, so it listens by now.
    func ready(_ status: String) {
        guard said.withLock({ first(&$0.ready) }) else { return }
        logger.notice("ready \(milliseconds(since: startedAt)) ms after start: \(status)")
        Systemd.ready(status: status)
    }

    func engineEvent(_ event: EngineEvent) {
        guard case .commandApplied(let command, _, let audibleAt) = event, command == .start || command == .resume,
              said.withLock({ first(&$0.sounded) }) else { return }
        logger.notice("first sound \(InputActionLog.milliseconds(audibleAt &- startedAt)) ms after start")
    }

    private func first(_ flag: inout Bool) -> Bool {
        defer { flag = true }
        return !flag
    }

    private func milliseconds(since start: UInt64) -> String {
        InputActionLog.milliseconds(MonotonicClock.now() &- start)
    }
}
