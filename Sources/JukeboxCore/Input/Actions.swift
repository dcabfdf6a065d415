/// What an input asks for: a command for the player, or one for the box itself.
public enum InputCommand: Sendable, Equatable, CustomStringConvertible {
    case player(PlayerCommand)
    case box(BoxAction)

    public var description: String {
        switch self {
        case .player(let command): command.description
        case .box(let action): action.rawValue
        }
    }

    /// The end of a held command (fast-forward, rewind); the command itself otherwise.
    public var ended: InputCommand {
        if case .player(let command) = self { return .player(command.ended) }
        return self
    }
}

/// What a button can ask of the box rather than of the player.
public enum BoxAction: String, Sendable, Equatable, CaseIterable {
    /// Lock the buttons and knobs, or unlock them (the same gesture both ways).
    case keyLock = "key-lock"
    /// Start the sleep timer, or step it on (see `[timers]`).
    case sleepTimer = "sleep-timer"
    /// Link the unknown card on the reader to what is playing.
    case linkCard = "link-card"

    public var help: String {
        switch self {
        case .keyLock: "lock or unlock the buttons and knobs"
        case .sleepTimer: "start the sleep timer, or step it on"
        case .linkCard: "link the unknown card on the reader to what is playing"
        }
    }
}

/// The names the configuration uses for actions, and the commands they stand for.
public enum ButtonAction {
    /// Names for `press`, `long` and `repeat`, with what each does.
    public static let names: [(name: String, help: String)] = [
        ("play-pause", "play or pause"), ("play", "play"), ("pause", "pause"), ("stop", "stop"),
        ("next", "next track"), ("previous", "previous track (or the start of this one)"),
        ("skip-forward", "skip ahead skip_seconds"), ("skip-back", "skip back skip_seconds"),
        ("volume-up", "volume up one step"), ("volume-down", "volume down one step"),
        ("mode", "next play mode"),
        ("mode-once", "play mode once"), ("mode-repeat-all", "play mode repeat-all"),
        ("mode-repeat-one", "play mode repeat-one"), ("mode-shuffle", "play mode shuffle"),
        ("first-track", "the first track of the queue"),
        ("speed-up", "play 0.05x faster, pitch kept"), ("speed-down", "play 0.05x slower, pitch kept"),
        ("speed-reset", "play at normal speed"),
    ] + BoxAction.allCases.map { ($0.rawValue, $0.help) }
    /// Names for `hold`: they run from the long-press threshold until release.
    public static let holdNames = ["fast-forward", "rewind"]

    /// `skip+30` and `skip-30` skip by a number of seconds of their own.
    public static func command(named name: String, skipSeconds: Double) -> InputCommand? {
        if let action = BoxAction(rawValue: name) { return .box(action) }
        return playerCommand(named: name, skipSeconds: skipSeconds).map(InputCommand.player)
    }

    private static func playerCommand(named name: String, skipSeconds: Double) -> PlayerCommand? {
        switch name {
        case "play-pause": return .toggle
        case "play": return .play
        case "pause": return .pause
        case "stop": return .stop
        case "next": return .next
        case "previous": return .previous
        case "skip-forward": return .skip(seconds: skipSeconds)
        case "skip-back": return .skip(seconds: -skipSeconds)
        case "volume-up": return .volumeStep(1)
        case "volume-down": return .volumeStep(-1)
        case "mode": return .cycleMode
        case "mode-once": return .setMode(.once)
        case "mode-repeat-all": return .setMode(.repeatAll)
        case "mode-repeat-one": return .setMode(.repeatOne)
        case "mode-shuffle": return .setMode(.shuffle)
        case "first-track": return .playPosition(0)
        case "speed-up": return .speedStep(1)
        case "speed-down": return .speedStep(-1)
        case "speed-reset": return .setSpeed(1)
        default:
            guard name.hasPrefix("skip"), name.count > 5, let seconds = Double(name.dropFirst(4)),
                  seconds != 0, abs(seconds) <= 3600 else { return nil }
            return .skip(seconds: seconds)
        }
    }

    public static func holdCommand(named name: String) -> InputCommand? {
        switch name {
        case "fast-forward": return .player(.fastForward(.begin))
        case "rewind": return .player(.rewind(.begin))
        default: return nil
        }
    }
}

extension PlayerCommand {
    /// The end of a held command (fast-forward, rewind); the command itself otherwise.
    public var ended: PlayerCommand {
        switch self {
        case .fastForward(.begin): return .fastForward(.end)
        case .rewind(.begin): return .rewind(.end)
        default: return self
        }
    }
}

/// What one detent of an encoder (or one unit of an evdev axis) does.
public enum StepAction: Sendable, Equatable {
    case volume
    /// Seek by this many seconds per detent.
    case seek(seconds: Double)
    case track
    /// Playback speed, 0.05x per detent.
    case speed
    case none

    public static let names = ["volume", "seek", "track", "speed", "none"]

    public init?(name: String, seekSeconds: Double) {
        switch name {
        case "volume": self = .volume
        case "seek": self = .seek(seconds: seekSeconds)
        case "track": self = .track
        case "speed": self = .speed
        case "none": self = .none
        default: return nil
        }
    }

    /// The commands for `steps` detents (negative: counter-clockwise).
    public func commands(steps: Int) -> [PlayerCommand] {
        guard steps != 0 else { return [] }
        switch self {
        case .volume: return [.volumeStep(steps)]
        case .seek(let seconds): return [.skip(seconds: Double(steps) * seconds)]
        case .track: return Array(repeating: steps > 0 ? .next : .previous, count: abs(steps))
        case .speed: return [.speedStep(steps)]
        case .none: return []
        }
    }
}
