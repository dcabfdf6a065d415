/// What a press means, from how long the button is held.
///
/// - `press` alone acts at once, when the press settles.
/// - With `long` or `hold` as well, a press acts on release if released before the
///   long-press threshold; held past it, `long` acts once, or `hold` begins and ends on release.
/// - repeating acts at once and again every interval while held, after a first delay.
public struct GestureSet<Action: Sendable & Equatable>: Sendable, Equatable {
    public var press: Action?
    public var long: Action?
    /// Begun at the threshold, ended at release (fast-forward, rewind).
    public var hold: Action?
    public var repeating: Action?
    public var longPress: UInt64 = 600_000_000
    public var repeatDelay: UInt64 = 400_000_000
    public var repeatInterval: UInt64 = 150_000_000
    /// Act on release even with no long action: the press may yet be used as a modifier.
    public var pressActsOnRelease = false

    public init(press: Action? = nil, long: Action? = nil, hold: Action? = nil, repeating: Action? = nil) {
        self.press = press
        self.long = long
        self.hold = hold
        self.repeating = repeating
    }

    public var isEmpty: Bool { press == nil && long == nil && hold == nil && repeating == nil }
}

public enum Gesture: String, Sendable, Equatable {
    case press, long, repeating = "repeat", holdBegin = "hold", holdEnd = "release"
}

/// One button's gesture recogniser, fed settled presses and releases and the passing time.
public struct ButtonGestures<Action: Sendable & Equatable>: Sendable {
    public struct Fired: Sendable, Equatable {
        public var action: Action
        public var gesture: Gesture
        /// The edge that caused it (for a timed gesture, the press), kernel ns.
        public var cause: UInt64
    }

    public let gestures: GestureSet<Action>
    private var pressedAt: UInt64?
    private var thresholdPassed = false
    private var nextRepeat: UInt64?
    /// Set when the press was used for something else (turning an encoder while pressed).
    private var consumed = false

    public init(_ gestures: GestureSet<Action>) { self.gestures = gestures }

    public var isPressed: Bool { pressedAt != nil }

    /// Whether a press acts on release rather than at once.
    private var waitsForRelease: Bool { gestures.long != nil || gestures.hold != nil || gestures.pressActsOnRelease }

    /// The next moment `advance(to:)` has something to do.
    public var deadline: UInt64? {
        guard let pressedAt, !consumed else { return nil }
        if gestures.repeating != nil { return nextRepeat }
        if waitsForRelease, !thresholdPassed { return pressedAt + gestures.longPress }
        return nil
    }

    public mutating func pressed(at time: UInt64) -> [Fired] {
        pressedAt = time
        thresholdPassed = false
        consumed = false
        if let action = gestures.repeating {
            nextRepeat = time + gestures.repeatDelay
            return [Fired(action: action, gesture: .repeating, cause: time)]
        }
        if !waitsForRelease, let action = gestures.press { return [Fired(action: action, gesture: .press, cause: time)] }
        return []
    }

    public mutating func released(at time: UInt64) -> [Fired] {
        guard let start = pressedAt else { return [] }
        var fired = advance(to: time)
        pressedAt = nil
        nextRepeat = nil
        if consumed { return fired }
        if thresholdPassed {
            if let hold = gestures.hold { fired.append(Fired(action: hold, gesture: .holdEnd, cause: time)) }
        } else if waitsForRelease, let action = gestures.press, time - start < gestures.longPress {
            fired.append(Fired(action: action, gesture: .press, cause: time))
        }
        return fired
    }

    /// Fires what is due by `now` while the button is held.
    public mutating func advance(to now: UInt64) -> [Fired] {
        guard let start = pressedAt, !consumed else { return [] }
        var fired: [Fired] = []
        if let action = gestures.repeating {
            while let due = nextRepeat, due <= now {
                fired.append(Fired(action: action, gesture: .repeating, cause: start))
                nextRepeat = due + gestures.repeatInterval
            }
        } else if waitsForRelease, !thresholdPassed, now >= start + gestures.longPress {
            thresholdPassed = true
            if let action = gestures.long { fired.append(Fired(action: action, gesture: .long, cause: start)) }
            if let action = gestures.hold { fired.append(Fired(action: action, gesture: .holdBegin, cause: start)) }
        }
        return fired
    }

    /// The press became a modifier (the knob turned while pressed): nothing more fires for
    /// it, except the end of a hold already begun.
    public mutating func consume() -> [Fired] {
        guard pressedAt != nil, !consumed else { return [] }
        consumed = true
        if thresholdPassed, let hold = gestures.hold { return [Fired(action: hold, gesture: .holdEnd, cause: pressedAt!)] }
        return []
    }
}
