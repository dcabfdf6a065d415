/// What one reader's sightings mean, as card events: a pure value driven by the report
/// times, as `ButtonGestures` is by edges (tests feed it synthetic sightings).
///
/// Only presence counts. A presence reader repeats `.present` on every poll while the card
/// lies there: that is one placement. Its `.absent` is a lift at once (so the music can
/// pause at once), but the card only counts as gone after the grace period: back sooner,
/// it is a return (a card flickering at the edge of the field restarts nothing). A reader
/// that only reads (`.read`) may type the number again while the card lies there: the same
/// card read again within the grace period is the same placement.
public struct CardPresence: Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// A card was put on the reader (or read), not as a return.
        case placed(CardID)
        /// A presence reader's field went empty: the card was lifted (maybe for a moment).
        case lifted(CardID)
        /// The lifted card came back within the grace period.
        case returned(CardID)
        /// The lifted card stayed away for the grace period.
        case gone(CardID)
    }

    private enum Field: Sendable, Equatable {
        case empty
        case present(CardID)
        case lifted(CardID, at: UInt64)
        /// A reader that only reads: the card last read, and when.
        case read(CardID, at: UInt64)
    }

    /// In nanoseconds; a live reload may change it for a card lying on the reader.
    public var grace: UInt64
    private var field = Field.empty

    /// `graceMilliseconds`: `[cards] removal_grace_ms`.
    public init(graceMilliseconds: Int) {
        grace = Self.nanoseconds(graceMilliseconds)
    }

    static func nanoseconds(_ milliseconds: Int) -> UInt64 { UInt64(max(0, milliseconds)) * 1_000_000 }

    /// The next moment `advance(to:)` has something to do: a lifted card's grace ends.
    public var deadline: UInt64? {
        if case .lifted(_, let at) = field { return at &+ grace }
        return nil
    }

    /// The card on the reader now, or lifted within the grace period.
    public var card: CardID? {
        switch field {
        case .empty: nil
        case .present(let card), .lifted(let card, _), .read(let card, _): card
        }
    }

    public mutating func report(_ sighting: CardSighting, at now: UInt64) -> [Event] {
        var events = advance(to: now)
        switch (sighting, field) {
        case (.read(let card), .read(let last, let at)) where card == last && now &- at < grace:
            field = .read(card, at: now)
        case (.read(let card), _):
            field = .read(card, at: now)
            events.append(.placed(card))
        case (.present(let card), .present(let on)) where card == on:
            break
        case (.present(let card), .lifted(let lifted, _)) where card == lifted:
            field = .present(card)
            events.append(.returned(card))
        case (.present(let card), _):
            field = .present(card)
            events.append(.placed(card))
        case (.absent, .present(let card)):
            field = .lifted(card, at: now)
            events.append(.lifted(card))
        case (.absent, _):
            break
        }
        return events
    }

    /// The lifted card whose grace period has ended by `now` is gone.
    public mutating func advance(to now: UInt64) -> [Event] {
        guard case .lifted(let card, let at) = field, now &- at >= grace else { return [] }
        field = .empty
        return [.gone(card)]
    }
}
