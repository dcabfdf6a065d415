#if canImport(Glibc)
import Glibc
#endif

/// The queue a client made (MPD's queue), kept beside the state file so that it survives a
/// restart or a power cut: an M3U of absolute paths, replaced atomically whenever the
/// queue changes. Only the box writes it; an admin may read it. An entry a client gave a
/// priority (MPD's `prio`) follows a `#PRIO:N` line, a comment to other M3U readers; MPD's
/// own state file keeps priorities too.
public struct QueueFile: Sendable {
    public let path: String

    public init(beside state: StateFile) { path = state.path + ".queue.m3u" }

    /// Far beyond the longest queue (16,384 entries of 250 bytes is 4 MB).
    static let sizeLimit = 16 << 20

    /// Writes `paths`, one a line, each after its priority unless that is 0 (`priorities`
    /// is empty when all are). A path with a line break in its name cannot be an M3U line
    /// and is left out.
    public func write(_ paths: [String], priorities: [Int] = []) throws(StateFile.Problem) {
        var bytes = Array("#EXTM3U\n".utf8)
        for (at, path) in paths.enumerated() where !path.contains("\n" as Character) && !path.contains("\r" as Character) {
            let priority = at < priorities.count ? priorities[at] : 0
            if priority != 0 { bytes += Array("\(Self.priorityMark)\(priority)\n".utf8) }
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
        /// Each kept track's priority; empty when every one is 0.
        public var priorities: [Int] = []
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
        var priorities: [Int] = []
        for (line, entry, priority) in entries {
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
                priorities.append(priority)
            }
        }
        if priorities.contains(where: { $0 != 0 }) { checked.priorities = priorities }
        return checked
    }

    static let priorityMark = "#PRIO:"

    /// Each entry with its line number (from 1, the `#EXTM3U` line included) and its
    /// priority: the `#PRIO:` line just before it, held to MPD's 0...255.
    private func entries() throws(StateFile.Problem) -> [(line: Int, path: String, priority: Int)]? {
        let contents: [UInt8]?
        do {
            contents = try AtomicFile.contents(of: path, limit: Self.sizeLimit)
        } catch {
            throw .broken(path: path, reason: error.reason)
        }
        guard let contents else { return nil }
        var entries: [(line: Int, path: String, priority: Int)] = []
        var priority = 0
        let mark = Array(Self.priorityMark.utf8)
        for (index, line) in contents.split(separator: 0x0a, omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            if line.starts(with: mark) {
                let value = Int(String(decoding: line.dropFirst(mark.count), as: UTF8.self)) ?? 0
                priority = min(max(value, 0), 255)
            } else if line.first != UInt8(ascii: "#") {
                entries.append((index + 1, FilePath.decode(line), priority))
                priority = 0
            }
        }
        return entries
    }

    /// No client queue any more: the library's list is the queue.
    public func remove() {
        _ = FilePath.withCString(path) { unlink($0) }
    }
}
