/// The short sounds that say what a card did, played over the music through the same
/// output (`[jingles]`).
public enum Jingle: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A card was read and its action taken.
    case accepted
    /// A card was read and could not be played (its folder is gone, the keys are locked).
    case refused
    /// A card the cards file does not know.
    case unknown

    public var description: String { rawValue }
}
