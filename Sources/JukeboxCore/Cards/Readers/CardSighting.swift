/// A card's number as its reader gives it: the hex digits of a PN532's UID or an
/// RDM6300's frame, or the digits a USB reader types; upper case, 1 to 32 of them.
public struct CardID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let text: String

    /// Nil for anything but 1 to 32 letters and digits (a reader typing garbage).
    public init?(_ raw: some StringProtocol) {
        guard (1...32).contains(raw.utf8.count),
              raw.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0 & ~0x20) })
        else { return nil }
        text = raw.uppercased()
    }

    public var description: String { text }
    public static func < (a: CardID, b: CardID) -> Bool { a.text < b.text }
}

/// What a reader saw.
public enum CardSighting: Sendable, Equatable {
    /// A reader that only reads (a USB reader typing the number): this card was read now.
    case read(CardID)
    /// A reader that knows presence (a PN532 polled, an RDM6300 repeating its frames):
    /// this card is in the field now. Sent on every poll or frame that finds it.
    case present(CardID)
    /// A reader that knows presence found its field empty: a poll came back empty, or an
    /// RDM6300's frames stopped.
    case absent
}

/// One sighting, from the reader named as the config names it, at a CLOCK_MONOTONIC time
/// in nanoseconds (the kernel's event time where there is one).
public struct ReaderReport: Sendable, Equatable {
    public var reader: String
    public var sighting: CardSighting
    public var at: UInt64

    public init(reader: String, sighting: CardSighting, at: UInt64) {
        self.reader = reader
        self.sighting = sighting
        self.at = at
    }
}
