/// How files are named to clients: relative to the music folder, as MPD's URIs are, so
/// a client never learns the machine's layout and can send a name back as it got it.
public struct LibraryPaths: Sendable, Equatable {
    /// The music folder with one trailing slash; empty when none is known.
    public let root: String

    public init(musicDirectory: String) {
        var folder = musicDirectory
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        root = folder.isEmpty ? "" : (folder == "/" ? "/" : folder + "/")
    }

    /// `path` as a client sees it: relative when inside the music folder, else unchanged
    /// (a playlist may name a file elsewhere; MPD shows those absolute too).
    public func uri(_ path: String) -> String {
        guard !root.isEmpty, path.hasPrefix(root), path.count > root.count else { return path }
        return String(path.dropFirst(root.count))
    }
}
