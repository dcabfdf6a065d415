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

    /// The saved queue as written, every entry; nil when there is no file.
    public func load() throws(StateFile.Problem) -> [String]? {
        try entries()?.map(\.path)
    }

    /// What reading the queue back kept, and what it left out.
    public struct Checked: Sendable, Equatable {
        public var tracks: [TrackLocation]
        /// `PATH:LINE: reason`, for the first few entries left out.
        public var dropped: [String]
        /// How many were left out in all.
        public var droppedCount: Int
    }

    /// The first entries left out are named one by one; the rest are counted.
    static let droppedNamed = 20

    /// The saved queue, taken as a client's `add` would take it: a file in the music folder
    /// named plainly (nothing outside it, no `..`), or a URL; and no more entries than a
    /// queue holds. The file is the box's own, but anyone who could write it must not get
    /// more than a client could. Nil when there is no file.
    public func load(musicDirectory: String) throws(StateFile.Problem) -> Checked? {
        guard let entries = try entries() else { return nil }
        let library = LibraryPaths(musicDirectory: musicDirectory)
        var checked = Checked(tracks: [], dropped: [], droppedCount: 0)
        func drop(_ line: Int, _ reason: String) {
            if checked.dropped.count < Self.droppedNamed { checked.dropped.append("\(path):\(line): \(reason)") }
        }
        for (line, entry) in entries {
            if checked.tracks.count == QueueDraft.maximumLength {
                drop(line, "this entry and every one after it left out: a queue holds at most \(QueueDraft.maximumLength)")
                checked.droppedCount += entries.count - checked.tracks.count - checked.droppedCount
                break
            }
            let track = TrackLocation(entry)
            let refusal: String? = switch track {
            case .url(let url): NetworkPlayback.isQueueable(url) ? nil : "not a URL a client may add"
            case .file(let path): library.holds(path) ? nil : "not a file in \(musicDirectory)"
            }
            if let refusal {
                drop(line, "\(FilePath.displayed(String(entry.prefix(256)))) left out: \(refusal)")
                checked.droppedCount += 1
            } else {
                checked.tracks.append(track)
            }
        }
        return checked
    }

    /// Each entry with its line number (from 1, the `#EXTM3U` line included).
    private func entries() throws(StateFile.Problem) -> [(line: Int, path: String)]? {
        let contents: [UInt8]?
        do {
            contents = try AtomicFile.contents(of: path, limit: Self.sizeLimit)
        } catch {
            throw .broken(path: path, reason: error.reason)
        }
        guard let contents else { return nil }
        var entries: [(line: Int, path: String)] = []
        for (index, line) in contents.split(separator: 0x0a, omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && line.first != UInt8(ascii: "#") {
            entries.append((index + 1, FilePath.decode(line)))
        }
        return entries
    }

    /// No client queue any more: the library's list is the queue.
    public func remove() {
        _ = FilePath.withCString(path) { unlink($0) }
    }
}
