/// The key lock's rules, apart from threads: the `key-lock` gesture locks the buttons and
/// knobs and the same gesture unlocks them; while locked every other input is dropped.
/// The end of a held fast-forward or rewind still passes, so a hold begun before the lock
/// cannot scan on for ever. Drops are told once per burst (a knob turned makes dozens).
public struct KeyLock: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        case pass
        /// The lock gesture: now locked (true) or unlocked.
        case toggled(locked: Bool)
        /// Dropped; `tell`: the first of a burst, worth a log line.
        case dropped(tell: Bool)
    }

    /// Cards still play while locked (`[key_lock] cards`).
    public var cardsWhileLocked = true
    public private(set) var isLocked = false
    private var lastDrop: UInt64?

    /// Quiet this long between drops ends a burst.
    static let burstGap: UInt64 = 2_000_000_000

    public init(cardsWhileLocked: Bool = true) { self.cardsWhileLocked = cardsWhileLocked }

    /// Whether a card read is acted on now.
    public var allowsCards: Bool { !isLocked || cardsWhileLocked }

    public mutating func route(_ command: InputCommand, at time: UInt64) -> Verdict {
        if command == .box(.keyLock) {
            isLocked.toggle()
            lastDrop = nil
            return .toggled(locked: isLocked)
        }
        guard isLocked, !Self.endsAHold(command) else { return .pass }
        defer { lastDrop = time }
        guard let last = lastDrop, time >= last, time - last < Self.burstGap else { return .dropped(tell: true) }
        return .dropped(tell: false)
    }

    private static func endsAHold(_ command: InputCommand) -> Bool {
        switch command {
        case .player(.fastForward(.end)), .player(.rewind(.end)): true
        default: false
        }
    }
}

/// The key lock shared between the input thread (which routes through it), the card
/// logic (`allowsCards`) and the screen: one locked value.
public final class KeyLockGate: Sendable {
    private let lock: ConditionLocked<KeyLock>

    public init(cardsWhileLocked: Bool = true) { lock = ConditionLocked(KeyLock(cardsWhileLocked: cardsWhileLocked)) }

    public var isLocked: Bool { lock.current.isLocked }
    /// Whether a card read is acted on now: unlocked, or `[key_lock] cards = true`.
    public var allowsCards: Bool { lock.current.allowsCards }

    public func route(_ command: InputCommand, at time: UInt64) -> KeyLock.Verdict {
        lock.withLock { $0.wholeValue.route(command, at: time) }
    }

    /// Locks or unlocks from elsewhere than a button (the page); says whether it changed.
    @discardableResult
    public func set(locked: Bool) -> Bool {
        lock.withLock { lock in
            guard lock.wholeValue.isLocked != locked else { return false }
            _ = lock.wholeValue.route(.box(.keyLock), at: MonotonicClock.now())
            return true
        }
    }

    /// `[key_lock] cards`, applied live.
    public func setCardsWhileLocked(_ allowed: Bool) { lock.withLock { $0.cardsWhileLocked = allowed } }
}
