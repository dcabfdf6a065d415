/// A command an input asks for, with what asked and the kernel time of the edge that caused it.
public struct InputAction: Sendable, Equatable {
    /// `button "next"`, `encoder "volume"`, `key KEY_PLAYPAUSE`...
    public var source: String
    public var gesture: InputGesture
    public var command: InputCommand
    /// CLOCK_MONOTONIC nanoseconds.
    public var edgeAt: UInt64

    public init(source: String, gesture: InputGesture, command: InputCommand, edgeAt: UInt64) {
        self.source = source
        self.gesture = gesture
        self.command = command
        self.edgeAt = edgeAt
    }
}

/// One configured input's logic, fed timestamped edges and the passing time. The input
/// thread owns the hardware; units own only what the edges mean, so tests drive them with
/// synthetic edges.
protocol InputUnit: AnyObject {
    /// The next moment `advance(to:)` has something to do.
    var deadline: UInt64? { get }
    func advance(to now: UInt64) -> [InputAction]
    /// The device went away: end what is under way (a held fast-forward).
    func lost(at now: UInt64) -> [InputAction]
}

/// A pressable thing: gestures over presses and releases. Buttons, an encoder's push
/// switch and evdev keys share it.
struct PressLogic {
    let source: String
    var gestures: ButtonGestures<InputCommand>

    init(source: String, gestures: GestureSet<InputCommand>) {
        self.source = source
        self.gestures = ButtonGestures(gestures)
    }

    mutating func change(active: Bool, at: UInt64) -> [InputAction] {
        actions(active ? gestures.pressed(at: at) : gestures.released(at: at))
    }

    mutating func advance(to now: UInt64) -> [InputAction] { actions(gestures.advance(to: now)) }

    mutating func consume() -> [InputAction] { actions(gestures.consume()) }

    mutating func lost(at now: UInt64) -> [InputAction] {
        gestures.isPressed ? actions(gestures.consume()) + actions(gestures.released(at: now)) : []
    }

    private func actions(_ fired: [ButtonGestures<InputCommand>.Fired]) -> [InputAction] {
        fired.map {
            InputAction(source: source, gesture: .button($0.gesture),
                        command: $0.gesture == .holdEnd ? $0.action.ended : $0.action, edgeAt: $0.cause)
        }
    }
}
