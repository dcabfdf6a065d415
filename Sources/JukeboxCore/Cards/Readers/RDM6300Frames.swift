/// The byte stream of an RDM6300 (125 kHz EM4100 reader, UART 9600 8N1): frames of STX
/// (0x02), ten ASCII hex digits (two of version or customer, eight of the tag), two ASCII
/// hex digits of checksum (the XOR of the five data bytes), ETX (0x03). Bytes outside a
/// frame are skipped; an STX inside a frame starts over, so a partial or garbled frame
/// costs only itself.
struct RDM6300Frames {
    enum Item: Equatable {
        /// A frame that checks: the ten digits.
        case card(CardID)
        case bad(String)
    }

    private static let start: UInt8 = 0x02, end: UInt8 = 0x03
    /// After STX: ten digits, two of checksum, ETX.
    private static let bodyLength = 13
    private var body: [UInt8] = []
    private var inFrame = false

    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if byte == Self.start {
                if inFrame { items.append(.bad("a frame cut short after \(body.count) bytes")) }
                inFrame = true
                body.removeAll(keepingCapacity: true)
                continue
            }
            guard inFrame else { continue }
            body.append(byte)
            if body.count == Self.bodyLength {
                items.append(Self.check(body))
                inFrame = false
            }
        }
        return items
    }

    private static func check(_ body: [UInt8]) -> Item {
        guard body[12] == end else { return .bad("a frame without its end byte") }
        let values = body[0..<12].map(hexValue)
        guard !values.contains(nil) else { return .bad("a frame with a character that is not a hex digit") }
        let nibbles = values.map { $0! }
        let bytes = stride(from: 0, to: 12, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
        let sum = bytes[0..<5].reduce(0, ^)
        guard sum == bytes[5] else { return .bad("a frame whose checksum does not match") }
        guard let id = CardID(String(decoding: body[0..<10], as: UTF8.self)) else { return .bad("a frame with no number") }
        return .card(id)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

/// Whether a card is in an RDM6300's field. The module says nothing when a card leaves:
/// it repeats the card's frame for as long as the card is there, about every 65 ms (the
/// interval the arduino12/rdm6300 library documents; a frame itself takes 15 ms at 9600
/// baud), and stops. So the field counts as empty once no frame has come for `timeout`:
/// 500 ms is seven frames missed, enough for a card held at the edge of the field, where
/// frames come and go, and still quick for a child taking the card away.
struct RDM6300Field {
    static let timeout: UInt64 = 500_000_000
    private var lastFrameAt: UInt64?

    var deadline: UInt64? { lastFrameAt.map { $0 + Self.timeout } }

    mutating func frame(at: UInt64) { lastFrameAt = at }

    /// True once, when the frames stopped.
    mutating func advance(to now: UInt64) -> Bool {
        guard let deadline, now >= deadline else { return false }
        lastFrameAt = nil
        return true
    }

    /// The reader went away: true if a card was in the field.
    mutating func lost() -> Bool {
        defer { lastFrameAt = nil }
        return lastFrameAt != nil
    }
}
