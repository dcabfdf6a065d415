/// A rotary encoder on two GPIO lines, with an optional push switch. Turning while the
/// switch is held does the encoder's second action, and the press itself then does nothing.
final class EncoderUnit: InputUnit {
    enum Line { case a, b, button }

    private let source: String
    private var a: Debouncer
    private var b: Debouncer
    private var decoder: QuadratureDecoder
    private var acceleration: Acceleration
    private let action: StepAction
    private let pressedAction: StepAction?
    private var button: Debouncer?
    private var press: PressLogic

    init(_ config: InputConfig.Encoder, a levelA: Bool = false, b levelB: Bool = false, button pressed: Bool = false) {
        source = "encoder \"\(config.name)\""
        let window = UInt64(config.debounceMilliseconds) * 1_000_000
        a = Debouncer(windowNanoseconds: window, initial: levelA)
        b = Debouncer(windowNanoseconds: window, initial: levelB)
        decoder = QuadratureDecoder(transitionsPerDetent: config.transitionsPerDetent, a: levelA, b: levelB)
        acceleration = config.acceleration
        action = config.action
        pressedAction = config.pressedAction
        if config.button != nil {
            button = Debouncer(windowNanoseconds: UInt64(config.buttonDebounceMilliseconds) * 1_000_000, initial: pressed)
        }
        var gestures = config.buttonGestures
        gestures.pressActsOnRelease = config.pressedAction != nil
        press = PressLogic(source: source, gestures: gestures)
    }

    var deadline: UInt64? {
        [a.deadline, b.deadline, button?.deadline, button?.pendingSince == nil ? press.gestures.deadline : nil].compactMap { $0 }.min()
    }

    func edge(_ line: Line, active: Bool, at: UInt64) -> [InputAction] {
        var actions = advance(to: at)
        switch line {
        case .a: if let change = a.edge(active: active, at: at) { actions += turned(change.at) }
        case .b: if let change = b.edge(active: active, at: at) { actions += turned(change.at) }
        case .button: if let change = button?.edge(active: active, at: at) { actions += press.change(active: change.active, at: change.at) }
        }
        return actions
    }

    func advance(to now: UInt64) -> [InputAction] {
        var actions: [InputAction] = []
        // Settle A and B in the order their bursts end, so the decoder sees the real sequence.
        let order: [Line] = (a.deadline ?? .max) <= (b.deadline ?? .max) ? [.a, .b] : [.b, .a]
        for line in order {
            if line == .a, let change = a.settle(now: now) { actions += turned(change.at) }
            if line == .b, let change = b.settle(now: now) { actions += turned(change.at) }
        }
        if let change = button?.settle(now: now) { actions += press.change(active: change.active, at: change.at) }
        let horizon = button?.pendingSince.map { min(now, $0) } ?? now
        actions += press.advance(to: horizon)
        return actions
    }

    func lost(at now: UInt64) -> [InputAction] { press.lost(at: now) }

    private func turned(_ at: UInt64) -> [InputAction] {
        let direction = decoder.update(a: a.level, b: b.level)
        guard direction != 0 else { return [] }
        var actions: [InputAction] = []
        var step = action
        if let pressedAction, button?.level == true {
            step = pressedAction
            actions += press.consume()
        }
        let steps = direction * acceleration.steps(direction: direction, at: at)
        return actions + step.commands(steps: steps).map {
            InputAction(source: source, gesture: direction > 0 ? "turn+" : "turn-", command: $0, edgeAt: at)
        }
    }
}

/// An evdev axis: REL_* movements or ABS_* positions, in steps.
final class AxisUnit: InputUnit {
    private let source: String
    private let config: InputConfig.Axis
    private var remainder = 0
    private var lastAbsolute: Int32?

    init(_ config: InputConfig.Axis) {
        self.config = config
        source = "axis \"\(config.name)\""
    }

    var deadline: UInt64? { nil }

    /// Resynchronises an absolute axis without moving (at start, after dropped events).
    func sync(absolute value: Int32?) { lastAbsolute = value; remainder = 0 }

    func value(_ value: Int32, at: UInt64) -> [InputAction] {
        var units = Int(value)
        if config.kind == .absolute {
            defer { lastAbsolute = value }
            guard let last = lastAbsolute else { return [] }
            units = Int(value) - Int(last)
        }
        remainder += units
        let steps = remainder / config.unitsPerStep
        remainder -= steps * config.unitsPerStep
        return config.action.commands(steps: steps).map {
            InputAction(source: source, gesture: steps > 0 ? "turn+" : "turn-", command: $0, edgeAt: at)
        }
    }

    func advance(to now: UInt64) -> [InputAction] { [] }
    func lost(at now: UInt64) -> [InputAction] { remainder = 0; lastAbsolute = nil; return [] }
}
