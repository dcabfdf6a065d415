/// Where a track lives: a file on this box, or a URL on a web server (http or https,
/// downloaded when it plays).
///
/// Told apart where a string comes in: a client's `add`, a playlist's line, the saved
/// queue, `[library] playlist`. The queue, stored playlists and state files keep a track
/// as the one string `entry` (the path, or the URL as given), as clients see it;
/// `TrackLocation(entry)` reads such a string back where the kind matters (the engine's
/// `TrackRef`, the status).
public enum TrackLocation: Sendable, Hashable, CustomStringConvertible {
    case file(String)
    case url(String)

    /// An http or https URL (the scheme in any case) is a URL; anything else names a file.
    public init(_ entry: String) {
        let scheme = entry.prefix(8).lowercased()
        self = scheme.hasPrefix("http://") || scheme.hasPrefix("https://") ? .url(entry) : .file(entry)
    }

    /// The string the queue, playlists and state files keep.
    public var entry: String {
        switch self {
        case .file(let path): path
        case .url(let url): url
        }
    }

    public var description: String { entry }
}
