#if canImport(Glibc)
import Glibc
#endif

/// A file's size and modification time: enough to notice that the file saved as "the
/// current track" was replaced or edited since, so its saved frame means nothing now.
public struct FileIdentity: Sendable, Equatable, Codable {
    public var size: Int64
    /// Nanoseconds since the epoch.
    public var modified: Int64

    public init(size: Int64, modified: Int64) {
        self.size = size
        self.modified = modified
    }

    /// The identity of the regular file at `path`, or nil when there is none.
    public init?(path: String) {
        var st = stat()
        guard (try? systemCall({ FilePath.withCString(path) { stat($0, &st) } })) != nil,
              (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        size = Int64(st.st_size)
        modified = Int64(st.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(st.st_mtim.tv_nsec)
    }
}
