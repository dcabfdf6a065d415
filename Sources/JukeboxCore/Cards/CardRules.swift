/// What a card event asks of the box: the rules of `[cards] mode` and `again`, as a small
/// state machine over which card's music is in the queue. A pure value, tested alone;
/// `CardService` carries out its decisions.
public struct CardRules: Sendable, Equatable {
    /// How a reader that knows presence behaves (one that only reads always swipes).
    public enum Mode: String, Sendable, CaseIterable {
        /// The music plays while the card lies on the box; lifting it pauses.
        case place
        /// The card plays when put on; lifting it changes nothing.
        case swipe
    }

    /// A swipe of the card whose music is playing.
    public enum Again: String, Sendable, CaseIterable {
        /// Pause, or play on when paused.
        case pause
        /// Start its music again from the top.
        case restart
    }

    /// What the card's file entry says it is, as the rules need it.
    public enum Kind: Sendable, Equatable {
        case music
        case action
        case unknown
    }

    public enum Decision: Sendable, Equatable {
        /// Put this card's music in the queue and play it (from its own place if it keeps one).
        case start(CardID)
        /// Play on this card's music, which is still in the queue.
        case resume(CardID)
        case pause(CardID)
        /// Pause, or play on when paused (`again = "pause"`).
        case toggle(CardID)
        /// This card's music again from the top (`again = "restart"`).
        case restart(CardID)
        /// Carry out this card's action; the music's card stays.
        case act(CardID)
        /// A card the file does not know: offer to link it.
        case unknown(CardID)
        /// The unknown card went away.
        case forgetUnknown(CardID)
    }

    public var mode: Mode
    public var again: Again
    /// The card whose music the queue holds (nil: none, or something else took over).
    public private(set) var playing: CardID?

    public init(mode: Mode = .place, again: Again = .pause) {
        self.mode = mode
        self.again = again
    }

    /// Something else replaced the queue (a client, the library): no card's music is in it.
    public mutating func queueTakenOver() { playing = nil }

    /// The music in the queue is now `card`'s (it was just linked to it).
    public mutating func adopt(_ card: CardID) { playing = card }

    /// The decision for `event` from a reader (`presence`: one that reports `.present`
    /// and `.absent`), for a card of `kind`.
    public mutating func decide(_ event: CardPresence.Event, kind: Kind, presence: Bool) -> Decision? {
        let placing = presence && mode == .place
        switch (event, kind) {
        case (.placed(let card), .unknown): return .unknown(card)
        case (.gone(let card), .unknown): return .forgetUnknown(card)
        case (_, .unknown): return nil
        case (.placed(let card), .action): return .act(card)
        case (_, .action): return nil
        case (.placed(let card), .music):
            guard playing == card else {
                playing = card
                return .start(card)
            }
            // The queue is still this card's: on the box again, it plays on where it was.
            if placing { return .resume(card) }
            return again == .pause ? .toggle(card) : .restart(card)
        case (.lifted(let card), .music):
            return placing && playing == card ? .pause(card) : nil
        case (.returned(let card), .music):
            return placing && playing == card ? .resume(card) : nil
        case (.gone, .music):
            return nil
        }
    }
}
