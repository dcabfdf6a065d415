/// What paused the music without the listener asking for it: an interruption (a call, a
/// doorbell), or the audio device going away; and whether the music resumes when that is
/// over. A pause or a stop the listener asks for cancels the resume.
struct Interruptions {
    private var interrupted = false
    private var wasPlayingBeforeInterruption = false
    /// The device that went away, while waiting for one.
    private(set) var lostOutput: OutputError?
    private var resumeWhenOutputReturns = false

    /// The listener paused or stopped: a device coming back does not resume.
    mutating func listenerPaused() { resumeWhenOutputReturns = false }

    /// An interruption began: whether to pause (it was playing, and none was on already).
    mutating func began(playing: Bool) -> Bool {
        guard !interrupted else { return false }
        interrupted = true
        wasPlayingBeforeInterruption = playing
        return playing
    }

    /// The interruption ended: whether the music was playing before it.
    mutating func ended() -> Bool {
        guard interrupted else { return false }
        interrupted = false
        return wasPlayingBeforeInterruption
    }

    /// The device went away (the engine has paused itself); the first loss decides
    /// whether to resume.
    mutating func outputLost(_ error: OutputError, playing: Bool) {
        if lostOutput == nil { resumeWhenOutputReturns = playing }
        lostOutput = error
    }

    /// The device is back: whether to resume.
    mutating func outputReturned() -> Bool {
        lostOutput = nil
        defer { resumeWhenOutputReturns = false }
        return resumeWhenOutputReturns
    }

    /// Another device plays now: nothing to wait for or resume.
    mutating func outputChanged() {
        lostOutput = nil
        resumeWhenOutputReturns = false
    }
}
