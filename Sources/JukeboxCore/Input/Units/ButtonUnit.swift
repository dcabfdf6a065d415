/// A GPIO button: a debounced line and its gestures.
final class ButtonUnit: InputUnit {
    private var debouncer: Debouncer
    private var logic: PressLogic

    init(source: String, debounceMilliseconds: Int, gestures: GestureSet<InputCommand>, initiallyActive: Bool = false) {
        debouncer = Debouncer(windowNanoseconds: UInt64(debounceMilliseconds) * 1_000_000, initial: initiallyActive)
        logic = PressLogic(source: source, gestures: gestures)
    }

    var deadline: UInt64? {
        // While a bounce burst is unsettled the button may have been released already, so a
        // long-press deadline waits for it.
        [debouncer.deadline, debouncer.pendingSince == nil ? logic.gestures.deadline : nil].compactMap { $0 }.min()
    }

    func edge(active: Bool, at: UInt64) -> [InputAction] {
        var actions = advance(to: at)
        if let change = debouncer.edge(active: active, at: at) { actions += logic.change(active: change.active, at: change.at) }
        return actions
    }

    func advance(to now: UInt64) -> [InputAction] {
        var actions: [InputAction] = []
        if let change = debouncer.settle(now: now) { actions += logic.change(active: change.active, at: change.at) }
        let horizon = debouncer.pendingSince.map { min(now, $0) } ?? now
        actions += logic.advance(to: horizon)
        return actions
    }

    func lost(at now: UInt64) -> [InputAction] { logic.lost(at: now) }
}

/// A level input: interrupted while active.
final class InterruptionUnit: InputUnit {
    private let source: String
    private var debouncer: Debouncer

    init(source: String, debounceMilliseconds: Int) {
        self.source = source
        debouncer = Debouncer(windowNanoseconds: UInt64(debounceMilliseconds) * 1_000_000)
    }

    var deadline: UInt64? { debouncer.deadline }

    /// The level at start: an input already active interrupts at once.
    func start(active: Bool, at: UInt64) -> [InputAction] {
        debouncer = Debouncer(windowNanoseconds: debouncer.window, initial: active)
        return active ? [action(active: true, at: at)] : []
    }

    func edge(active: Bool, at: UInt64) -> [InputAction] {
        var actions = advance(to: at)
        if let change = debouncer.edge(active: active, at: at) { actions.append(action(active: change.active, at: change.at)) }
        return actions
    }

    func advance(to now: UInt64) -> [InputAction] {
        debouncer.settle(now: now).map { [action(active: $0.active, at: $0.at)] } ?? []
    }

    /// A vanished input no longer holds the player.
    func lost(at now: UInt64) -> [InputAction] { debouncer.level ? [action(active: false, at: now)] : [] }

    private func action(active: Bool, at: UInt64) -> InputAction {
        InputAction(source: source, gesture: active ? .interruptionBegan : .interruptionEnded,
                    command: .player(active ? .interruptionBegan : .interruptionEnded), edgeAt: at)
    }
}

/// An evdev key: the kernel (gpio-keys) has debounced it already.
final class KeyUnit: InputUnit {
    private var logic: PressLogic
    private(set) var isDown = false

    init(source: String, gestures: GestureSet<InputCommand>) { logic = PressLogic(source: source, gestures: gestures) }

    var deadline: UInt64? { logic.gestures.deadline }

    /// value 1: down, 0: up, 2: the kernel's auto-repeat (ignored: gestures repeat by themselves).
    func key(value: Int32, at: UInt64) -> [InputAction] {
        guard value == 0 || value == 1 else { return [] }
        let down = value == 1
        guard down != isDown else { return [] }
        isDown = down
        return advance(to: at) + logic.change(active: down, at: at)
    }

    func advance(to now: UInt64) -> [InputAction] { logic.advance(to: now) }

    func lost(at now: UInt64) -> [InputAction] {
        isDown = false
        return logic.lost(at: now)
    }
}
