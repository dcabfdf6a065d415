/// Every way to control playback, whoever asks: a button, the encoder, the keyboard or a
/// socket client. Inputs translate their events into these and nothing else.
public enum PlayerCommand: Sendable, Equatable {
    public enum Phase: Sendable, Equatable { case begin, end }

    case play
    /// Play the queue entry at this position (0-based).
    case playPosition(Int)
    /// Start the queue entry at `position` at `frame` (MPD's seek to another song); the
    /// box stays paused if it is.
    case playFrom(position: Int, frame: Int64)
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
    /// Playback speed, pitch kept: set (on the nearest 0.05 within 0.5–2), or moved by
    /// steps of 0.05.
    case setSpeed(Double)
    case speedStep(Int)
    case setMode(PlayMode)
    /// One of repeat, random, single and consume on its own (MPD's commands), set where
    /// it is applied: a button pressed meanwhile keeps what it did to the others.
    case setOption(PlayOptions.Switch)
    case cycleMode
    /// MPD's `replay_gain_mode`: until the config's mode is edited.
    case setReplayGainMode(ReplayGainMode)
    /// Held fast-forward / rewind: skips repeatedly from begin to end.
    case fastForward(Phase)
    case rewind(Phase)
    /// Something else needs the audio (an alarm, a lost device): pause and remember.
    case interruptionBegan
    case interruptionEnded
    /// Forget the last error the status reports (MPD's `clearerror`).
    case clearError
    /// A ceiling on the volume from quiet hours or a card (nil: lifted); a louder volume
    /// comes down to it at once.
    case capVolume(VolumeCaps.Source, Int?)
}

extension PlayerCommand: CustomStringConvertible {
    /// Short and readable, for the log: "play-pause", "skip +10 s", "fast-forward begin".
    public var description: String {
        switch self {
        case .play: return "play"
        case .playPosition(let p): return "play track \(p + 1)"
        case .playFrom(let p, let frame): return "play track \(p + 1) from frame \(frame)"
        case .pause: return "pause"
        case .toggle: return "play-pause"
        case .stop: return "stop"
        case .next: return "next"
        case .previous: return "previous"
        case .seek(let s): return "seek to \(s) s"
        case .skip(let s): return "skip \(s >= 0 ? "+" : "")\(s) s"
        case .seekFraction(let f): return "seek to \(Int(f * 100))%"
        case .setVolume(let v): return "volume \(v)"
        case .volumeStep(let n): return "volume \(n >= 0 ? "+" : "")\(n) step\(abs(n) == 1 ? "" : "s")"
        case .setSpeed(let s): return "speed \(PlaybackSpeed.text(s))"
        case .speedStep(let n): return "speed \(n >= 0 ? "+" : "")\(n) step\(abs(n) == 1 ? "" : "s")"
        case .setMode(let m): return "mode \(m.rawValue)"
        case .setOption(let change): return change.label
        case .cycleMode: return "next mode"
        case .setReplayGainMode(let mode): return "replay gain \(mode.rawValue)"
        case .fastForward(let phase): return "fast-forward \(phase == .begin ? "begin" : "end")"
        case .rewind(let phase): return "rewind \(phase == .begin ? "begin" : "end")"
        case .interruptionBegan: return "interruption began"
        case .interruptionEnded: return "interruption ended"
        case .clearError: return "clear the error"
        case .capVolume(let source, let cap): return "\(source.rawValue) volume cap \(cap.map(String.init) ?? "lifted")"
        }
    }
}
