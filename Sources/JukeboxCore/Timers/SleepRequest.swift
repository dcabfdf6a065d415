/// What asks for the sleep timer says one of these: a card, a button, the socket
/// (`sleep 30`, `sleep end-of-track`, `sleep end-of-chapter`, `sleep off`) or the screen.
public enum SleepRequest: Sendable, Equatable, CustomStringConvertible {
    /// Pause this many minutes from now, the volume fading out before.
    case minutes(Double)
    /// Pause when the playing track ends.
    case endOfTrack
    /// Pause when the playing chapter ends (the track's end where it has none).
    case endOfChapter
    case off

    /// The socket's and the cards file's words: minutes, `end-of-track`, `end-of-chapter`,
    /// `off`; nil for anything else (and for minutes outside 1 to 720).
    public init?(_ text: some StringProtocol) {
        switch text {
        case "end-of-track": self = .endOfTrack
        case "end-of-chapter": self = .endOfChapter
        case "off": self = .off
        default:
            guard let minutes = Double(String(text)), minutes.isFinite, (1...720).contains(minutes) else { return nil }
            self = .minutes(minutes)
        }
    }

    public var description: String {
        switch self {
        case .minutes(let minutes): minutes == minutes.rounded() ? "\(Int(minutes))" : "\(minutes)"
        case .endOfTrack: "end-of-track"
        case .endOfChapter: "end-of-chapter"
        case .off: "off"
        }
    }
}
