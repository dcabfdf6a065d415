import CJukeboxShim

/// What a USB card reader types, key press by key press: a card's number, then Enter.
/// Digits (top row or keypad) and A–F (readers that type hex) make the number; shift is
/// ignored, as card numbers have no case. Anything else, more than 32 characters, or a
/// number left without its Enter spoils the burst: it is dropped, and said once.
struct TypedCardNumber {
    enum Outcome: Equatable {
        case read(CardID)
        /// Why a burst was dropped, said once per burst.
        case dropped(String)
    }

    /// CardID's longest number.
    static let longest = 32
    /// A reader types a whole number in a few tens of milliseconds; this long a pause ends
    /// a burst that never got its Enter, so the next card starts clean.
    static let pause: UInt64 = 1_000_000_000

    private var typed: [UInt8] = []
    /// Set once the burst is spoiled; what follows is ignored until Enter or a pause.
    private var spoiled = false
    private var lastKeyAt: UInt64?

    /// When `advance` ends an unfinished burst.
    var deadline: UInt64? {
        guard let lastKeyAt, spoiled || !typed.isEmpty else { return nil }
        return lastKeyAt + Self.pause
    }

    /// A key went down (evdev value 1; repeats and releases are not passed).
    mutating func press(_ code: Int, at: UInt64) -> [Outcome] {
        var outcomes = advance(to: at)
        lastKeyAt = at
        if code == Int(KEY_LEFTSHIFT) || code == Int(KEY_RIGHTSHIFT) { return outcomes }
        if code == Int(KEY_ENTER) || code == Int(KEY_KPENTER) {
            if !spoiled, !typed.isEmpty, let id = CardID(String(decoding: typed, as: UTF8.self)) {
                outcomes.append(.read(id))
            }
            reset()
            return outcomes
        }
        guard !spoiled else { return outcomes }
        guard let character = Self.character(code) else {
            spoiled = true
            let name = jukebox_evdev_code_name(Int32(EV_KEY), Int32(code)).map { String(cString: $0) } ?? "key \(code)"
            return outcomes + [.dropped("typed \(name), which is not part of a card number")]
        }
        guard typed.count < Self.longest else {
            spoiled = true
            return outcomes + [.dropped("typed more than \(Self.longest) characters without Enter")]
        }
        typed.append(character)
        return outcomes
    }

    /// Time passed: a burst that paused without its Enter is dropped.
    mutating func advance(to now: UInt64) -> [Outcome] {
        guard let deadline, now >= deadline else { return [] }
        let outcome: [Outcome] = spoiled ? [] : [.dropped("typed \(typed.count) characters and no Enter")]
        reset()
        return outcome
    }

    /// The kernel dropped events: the number under way cannot be trusted.
    mutating func reset() {
        typed.removeAll(keepingCapacity: true)
        spoiled = false
    }

    /// The ASCII character a key types in a card number, if it is one.
    static func character(_ code: Int) -> UInt8? {
        let topRow = [KEY_0, KEY_1, KEY_2, KEY_3, KEY_4, KEY_5, KEY_6, KEY_7, KEY_8, KEY_9].map(Int.init)
        let keypad = [KEY_KP0, KEY_KP1, KEY_KP2, KEY_KP3, KEY_KP4, KEY_KP5, KEY_KP6, KEY_KP7, KEY_KP8, KEY_KP9].map(Int.init)
        let hex = [KEY_A, KEY_B, KEY_C, KEY_D, KEY_E, KEY_F].map(Int.init)
        if let digit = topRow.firstIndex(of: code) ?? keypad.firstIndex(of: code) { return UInt8(ascii: "0") + UInt8(digit) }
        if let letter = hex.firstIndex(of: code) { return UInt8(ascii: "A") + UInt8(letter) }
        return nil
    }
}
