/// What an input did to ask for a command, by the name the log gives it: a button's
/// gesture (`press`, `long`, `repeat`, `hold`, `release`, as the config's keys spell
/// them), an interruption switch closing or opening (`begin`, `end`), or a knob or axis
/// turned one way or the other (`turn+`, `turn-`).
public enum InputGesture: Sendable, Hashable, CustomStringConvertible {
    case button(Gesture)
    case interruptionBegan
    case interruptionEnded
    case turnUp
    case turnDown
    /// A card put on a reader, or lifted off it.
    case cardPlaced
    case cardLifted

    /// A turn of `steps` (positive: up).
    static func turn(_ steps: Int) -> InputGesture { steps > 0 ? .turnUp : .turnDown }

    /// The gesture the log names `text`, or nil.
    public init?(_ text: String) {
        if let gesture = Gesture(rawValue: text) {
            self = .button(gesture)
            return
        }
        switch text {
        case "begin": self = .interruptionBegan
        case "end": self = .interruptionEnded
        case "turn+": self = .turnUp
        case "turn-": self = .turnDown
        case "placed": self = .cardPlaced
        case "lifted": self = .cardLifted
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .button(let gesture): gesture.rawValue
        case .interruptionBegan: "begin"
        case .interruptionEnded: "end"
        case .turnUp: "turn+"
        case .turnDown: "turn-"
        case .cardPlaced: "placed"
        case .cardLifted: "lifted"
        }
    }
}
