#if canImport(Glibc)
import Glibc
#endif

/// The queue a client made (MPD's queue), kept beside the state file so that it survives a
/// restart or a power cut: an M3U of absolute paths, replaced atomically whenever the
/// queue changes. Only the box writes it; an admin may read it.
public struct QueueFile: Sendable {
    public let path: String

    public init(beside state: StateFile) { path = state.path + ".queue.m3u" }

    /// Far beyond the longest queue (16,384 entries of 250 bytes is 4 MB).
    static let sizeLimit = 16 << 20

    /// Writes `paths`, one a line. A path with a line break in its name cannot be an M3U
    /// line and is left out.
    public func write(_ paths: [String]) throws(StateFile.Problem) {
        var bytes = Array("#EXTM3U\n".utf8)
        for path in paths where !path.contains("\n" as Character) && !path.contains("\r" as Character) {
            bytes += FilePath.bytes(path)
            bytes.append(0x0a)
        }
        do {
            try AtomicFile.replace(path, with: bytes)
        } catch {
            throw .cannotWrite(path: error.path, step: error.step, error.errno)
        }
    }

    /// The saved queue; nil when there is no file.
    public func load() throws(StateFile.Problem) -> [String]? {
        let contents: [UInt8]?
        do {
            contents = try AtomicFile.contents(of: path, limit: Self.sizeLimit)
        } catch {
            throw .broken(path: path, reason: error.reason)
        }
        guard let contents else { return nil }
        return contents.split(separator: 0x0a).compactMap { line in
            line.first == UInt8(ascii: "#") ? nil : FilePath.decode(line)
        }
    }

    /// No client queue any more: the library's list is the queue.
    public func remove() {
        _ = FilePath.withCString(path) { unlink($0) }
    }
}
