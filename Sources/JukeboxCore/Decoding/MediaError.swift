/// Why a media file could not be read. Every case names the file and a reason a person
/// can act on; `description` is what probe, the log and the screen show.
public enum MediaError: Error, Equatable, CustomStringConvertible {
    case unreadable(String, String)
    case empty(String)
    case unrecognised(String, String)
    case unsupported(String, String)
    case truncated(String, String)
    case corrupt(String, String)
    case seekFailed(String, String)
    /// A URL that could not be fetched: the reason names what the network or server did.
    case network(String, String)

    /// The bytes themselves are not audio that decodes (rather than a file or a network
    /// that could not be read).
    public var isBadContent: Bool {
        switch self {
        case .empty, .unrecognised, .truncated, .corrupt: true
        default: false
        }
    }

    public var path: String {
        switch self {
        case .unreadable(let p, _), .empty(let p), .unrecognised(let p, _), .unsupported(let p, _),
             .truncated(let p, _), .corrupt(let p, _), .seekFailed(let p, _), .network(let p, _):
            p
        }
    }

    /// The reason without the path, for reports that show the path separately.
    public var reason: String {
        switch self {
        case .unreadable(_, let why): "cannot read file: \(why)"
        case .empty: "empty file"
        case .unrecognised(_, let why): "not a supported audio file: \(why)"
        case .unsupported(_, let why): "unsupported: \(why)"
        case .truncated(_, let why): "truncated: \(why)"
        case .corrupt(_, let why): "corrupt: \(why)"
        case .seekFailed(_, let why): "seek failed: \(why)"
        case .network(_, let why): why
        }
    }

    public var description: String { "\(path): \(reason)" }

    /// Any error from opening or decoding `path` as a MediaError (decoders throw these;
    /// anything else is reported as unreadable, with its own words).
    init(_ error: any Error, path: String) {
        self = error as? MediaError ?? .unreadable(path, "\(error)")
    }
}
