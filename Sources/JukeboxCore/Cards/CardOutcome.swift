/// What became of a card put on the box, for whoever makes it heard (a jingle).
public enum CardOutcome: Sendable, Equatable {
    /// It did what the cards file says.
    case accepted(CardID)
    /// It could not (its folder is gone, shutdown not allowed...); why, in a sentence.
    case refused(CardID, String)
    /// The cards file does not know it.
    case unknown(CardID)
}
