/// What the queue was made from: the whole library, or the playlist `[library] playlist`
/// names (a stored playlist's name, or a station's URL). The state file keeps it as one
/// string, `library` or the playlist as configured, as it always has.
public enum QueueSource: Sendable, Hashable, Codable, CustomStringConvertible {
    case library
    case playlist(String)

    static let libraryText = "library"

    /// From the config's `[library] playlist`: empty means the whole library.
    public init(configured playlist: String) {
        self = playlist.isEmpty ? .library : .playlist(playlist)
    }

    /// From the state file's text.
    public init(text: String) {
        self = text == Self.libraryText ? .library : .playlist(text)
    }

    /// As the state file writes it.
    public var text: String {
        switch self {
        case .library: Self.libraryText
        case .playlist(let name): name
        }
    }

    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        self.init(text: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
