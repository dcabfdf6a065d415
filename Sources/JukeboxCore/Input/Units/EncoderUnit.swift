/// A rotary encoder on two GPIO lines, with an optional push switch. Turning while the
/// switch is held does the encoder's second action, and the press itself then does nothing.
///
/// The kernel's edge events are not the whole story on a loaded board. Each line's events
/// come through its own kernel thread, so one line's edge can be read after a later edge
/// of the other, which the decoder would take for a turn the other way; and an edge that
/// comes while the kernel is still handling the one before on that line is dropped. So
/// at each edge the unit also reads the lines. A line that reads otherwise than its events
/// said is a sighting: its edge is still on its way, or was lost. The edges wait until
/// the line's next event tells which (at most `longestWait`), a lost one is put in at the
/// time it was seen, and all are applied in kernel-timestamp order.
final class EncoderUnit: InputUnit {
    enum Line { case a, b, button }

    /// The three lines' levels; `button` is false for an encoder without one.
    struct Levels: Equatable {
        var a: Bool
        var b: Bool
        var button: Bool

        subscript(line: Line) -> Bool {
            get {
                switch line {
                case .a: a
                case .b: b
                case .button: button
                }
            }
            set {
                switch line {
                case .a: a = newValue
                case .b: b = newValue
                case .button: button = newValue
                }
            }
        }
    }

    /// The lines as read, and when (CLOCK_MONOTONIC ns, the clock of the edges).
    struct Reading {
        var levels: Levels
        var at: UInt64
    }

    /// How long edges wait for a line seen to move. Past it, the move stands as seen.
    static let longestWait: UInt64 = 100_000_000

    private let source: String
    private var a: Debouncer
    private var b: Debouncer
    private var decoder: QuadratureDecoder
    private var acceleration: Acceleration
    private let action: StepAction
    private let pressedAction: StepAction?
    private var button: Debouncer?
    private var press: PressLogic
    /// Edges arrived and not yet applied, oldest first.
    private var held: [(line: Line, active: Bool, at: UInt64)] = []
    /// Each line's level as its latest event gave it.
    private var heard: Levels
    /// Lines read at a level their events had not given, and when.
    private var sightings: [Line: (active: Bool, at: UInt64)] = [:]
    /// The kernel time of the last edge applied.
    private var appliedUpTo: UInt64 = 0
    /// Reads the lines now; set by whoever holds them. Without it (or when it fails) edges
    /// are applied as they arrive.
    var readLines: (() -> Reading?)?

    private static let lines: [Line] = [.a, .b, .button]

    init(_ config: InputConfig.Encoder, a levelA: Bool = false, b levelB: Bool = false, button pressed: Bool = false) {
        source = "encoder \"\(config.name)\""
        let window = UInt64(config.debounceMilliseconds) * 1_000_000
        a = Debouncer(windowNanoseconds: window, initial: levelA)
        b = Debouncer(windowNanoseconds: window, initial: levelB)
        decoder = QuadratureDecoder(transitionsPerDetent: config.transitionsPerDetent, a: levelA, b: levelB)
        acceleration = config.acceleration
        action = config.action
        pressedAction = config.pressedAction
        heard = Levels(a: levelA, b: levelB, button: pressed)
        if config.button != nil {
            button = Debouncer(windowNanoseconds: UInt64(config.buttonDebounceMilliseconds) * 1_000_000, initial: pressed)
        }
        var gestures = config.buttonGestures
        gestures.pressActsOnRelease = config.pressedAction != nil
        press = PressLogic(source: source, gestures: gestures)
    }

    var deadline: UInt64? {
        [a.deadline, b.deadline, button?.deadline, button?.pendingSince == nil ? press.gestures.deadline : nil,
         waitingSince.map { $0 + Self.longestWait }].compactMap { $0 }.min()
    }

    func edge(_ line: Line, active: Bool, at: UInt64) -> [InputAction] {
        heard[line] = active
        if let seen = sightings[line] {
            if at >= seen.at {
                // A later edge of the line: the move seen came without an event of its own.
                sightings[line] = nil
                hold(line, seen.active, at: seen.at)
            } else if active == seen.active {
                sightings[line] = nil  // the event of the move seen
            }
        }
        hold(line, active, at: at)
        return look()
    }

    func advance(to now: UInt64) -> [InputAction] {
        var actions: [InputAction] = []
        if let since = waitingSince {
            actions += look()
            if !sightings.isEmpty, now >= since + Self.longestWait {
                // The events never came: the moves stand as seen.
                for (line, seen) in sightings { hold(line, seen.active, at: seen.at) }
                sightings.removeAll()
                actions += applyHeld()
            }
        }
        // While edges wait, time stands at the first of them.
        return actions + settle(to: held.first.map { min(now, $0.at) } ?? now)
    }

    func lost(at now: UInt64) -> [InputAction] { press.lost(at: now) }

    /// Since when edges or sightings wait, if they do. Asked at every turn of the input
    /// loop, so it builds no arrays.
    private var waitingSince: UInt64? {
        var since = held.first?.at
        for seen in sightings.values { since = min(since ?? seen.at, seen.at) }
        return since
    }

    /// Puts an edge among the held ones in time order. One older than what was applied
    /// came too late to be put in its place: the line has moved on since (its sighting
    /// stood for it, or it was one of a forward-and-back pair), so it is dropped.
    private func hold(_ line: Line, _ active: Bool, at: UInt64) {
        if readLines != nil, at < appliedUpTo { return }
        let spot = held.lastIndex { $0.at <= at }.map { $0 + 1 } ?? 0
        held.insert((line, active, at), at: spot)
    }

    /// Reads the lines, notes what they show that their events have not, and applies the
    /// held edges once nothing is awaited.
    private func look() -> [InputAction] {
        if let reading = readLines?() {
            for line in Self.lines where sightings[line] == nil && reading.levels[line] != heard[line] {
                sightings[line] = (reading.levels[line], reading.at)
            }
        }
        return sightings.isEmpty ? applyHeld() : []
    }

    private func applyHeld() -> [InputAction] {
        var actions: [InputAction] = []
        for edge in held {
            actions += settle(to: edge.at)
            appliedUpTo = edge.at
            switch edge.line {
            case .a: if let change = a.edge(active: edge.active, at: edge.at) { actions += turned(change.at) }
            case .b: if let change = b.edge(active: edge.active, at: edge.at) { actions += turned(change.at) }
            case .button:
                if let change = button?.edge(active: edge.active, at: edge.at) { actions += press.change(active: change.active, at: change.at) }
            }
        }
        held.removeAll()
        return actions
    }

    /// Settles the lines' debouncing and the switch's gestures up to `now`.
    private func settle(to now: UInt64) -> [InputAction] {
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
            InputAction(source: source, gesture: .turn(direction), command: .player($0), edgeAt: at)
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
            InputAction(source: source, gesture: .turn(steps), command: .player($0), edgeAt: at)
        }
    }

    func advance(to now: UInt64) -> [InputAction] { [] }
    func lost(at now: UInt64) -> [InputAction] { remainder = 0; lastAbsolute = nil; return [] }
}
