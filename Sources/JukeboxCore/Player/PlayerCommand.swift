/// Every way to control playback, whoever asks: a button, the encoder, the keyboard or a
/// socket client. Inputs translate their events into these and nothing else.
public enum PlayerCommand: Sendable, Equatable {
    public enum Phase: Sendable, Equatable { case begin, end }

    case play
    /// Play the queue entry at this position (0-based).
    case playPosition(Int)
    case pause
    case toggle
    case stop
    case next
    case previous
    case seek(seconds: Double)
    /// Relative seek, e.g. +10 or -10 seconds.
    case skip(seconds: Double)
    /// Seek to a fraction (0–1) of the track.
    case seekFraction(Double)
    case setVolume(Int)
    /// Volume up (+1) or down (-1) by the configured step, or by several steps.
    case volumeStep(Int)
    case setMode(PlayMode)
    case cycleMode
    /// Held fast-forward / rewind: skips repeatedly from begin to end.
    case fastForward(Phase)
    case rewind(Phase)
    /// Something else needs the audio (an alarm, a lost device): pause and remember.
    case interruptionBegan
    case interruptionEnded
}
