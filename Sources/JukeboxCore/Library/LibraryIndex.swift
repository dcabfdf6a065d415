#if canImport(Glibc)
import Glibc
#endif

/// The library as the last scan left it, kept in the state folder so that a start plays
/// at once instead of scanning: the sorted tracks, the playlists, what was skipped, and a
/// record of each folder for the next scan to skip what did not change.
///
/// The file is lines of text an admin can read, one record each, with the name or path
/// last on its line (names holding a newline are never in a library), and a checksum line
/// at the end: a file cut short or damaged is ignored and the library scanned afresh.
public struct LibraryIndex: Sendable, Equatable {
    public var musicDirectory: String
    public var playlistsDirectory: String
    public var scan: LibraryScan
    var folders: [String: FolderRecord]

    static let header = "jukebox library index 1"
    static let checksumPrefix = "# checksum "
    /// Far beyond a real library (10,000 tracks are about 2 MB).
    static let sizeLimit = 256 << 20

    /// Whether this index describes these folders.
    func matches(musicDirectory: String, playlistsDirectory: String?) -> Bool {
        self.musicDirectory == musicDirectory && self.playlistsDirectory == (playlistsDirectory ?? "")
    }

    public enum Problem: Error, Sendable, CustomStringConvertible {
        case broken(path: String, reason: String)
        case cannotWrite(path: String, step: String, Errno)

        public var description: String {
            switch self {
            case .broken(let path, let reason): "\(path): \(reason)"
            case .cannotWrite(let path, let step, let errno): "\(path): cannot \(step): \(errno)"
            }
        }
    }

    /// The index at `path`; nil when there is none yet.
    public static func load(_ path: String) throws(Problem) -> LibraryIndex? {
        var st = stat()
        do {
            try systemCall { FilePath.withCString(path) { stat($0, &st) } }
        } catch where error == .noEntry {
            return nil
        } catch {
            throw .broken(path: path, reason: "cannot read it: \(error)")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileReader.contents(of: path, limit: sizeLimit)
        } catch {
            throw .broken(path: path, reason: (error as? MediaError)?.reason ?? "\(error)")
        }
        return try decode(bytes, path: path)
    }

    public func save(_ path: String) throws(Problem) {
        // The state folder, if the state saver has not made it yet (a box run by hand).
        _ = FilePath.withCString(AtomicFile.folder(of: path)) { mkdir($0, 0o755) }
        do {
            try AtomicFile.replace(path, with: encoded())
        } catch {
            throw .cannotWrite(path: error.path, step: error.step, error.errno)
        }
    }

    // MARK: Encoding

    /// Record tags, one letter each, first on their line.
    private enum Tag {
        static let music = "music", playlists = "playlists"
        static let track = "t", playlist = "p", playlistEntry = "e", skipped = "s"
        static let folder = "d", subfolder = "c", link = "l", file = "f"
    }

    func encoded() -> [UInt8] {
        var text = Self.header + "\n"
        text += "\(Tag.music) \(musicDirectory)\n\(Tag.playlists) \(playlistsDirectory)\n"
        for track in scan.tracks {
            text += "\(Tag.track) \(Self.number(track.discNumber)) \(Self.number(track.trackNumber)) \(track.path)\n"
        }
        for playlist in scan.playlists {
            text += "\(Tag.playlist) \(playlist.name.count) \(playlist.name)\(playlist.path)\n"
            for entry in playlist.entries { text += "\(Tag.playlistEntry) \(entry)\n" }
        }
        for skipped in scan.skipped { text += "\(Tag.skipped) \(Self.oneLine(skipped))\n" }
        for (path, folder) in folders.sorted(by: { $0.key < $1.key }) {
            text += "\(Tag.folder) \(folder.id.device) \(folder.id.inode) \(folder.modified) \(path)\n"
            for entry in folder.entries {
                switch entry.kind {
                case .folder: text += "\(Tag.subfolder) \(entry.name)\n"
                case .link: text += "\(Tag.link) \(entry.name)\n"
                case .file(let id, let identity, let outcome):
                    text += "\(Tag.file) \(id.device) \(id.inode) \(identity.size) \(identity.modified) \(Self.outcome(outcome)) \(entry.name)\n"
                    if case .problem(let reason) = outcome { text += "\(Tag.skipped) \(Self.oneLine(reason))\n" }
                }
            }
        }
        var bytes = Array(text.utf8)
        bytes += "\(Self.checksumPrefix)\(String(FNV1a.hash(bytes), radix: 16))\n".utf8
        return bytes
    }

    private static func number(_ value: Int?) -> String { value.map(String.init) ?? "-" }

    private static func outcome(_ outcome: FileOutcome) -> String {
        switch outcome {
        case .track(let disc, let track): "T\(number(disc)):\(number(track))"
        case .playlist: "P"
        case .passedOver: "-"
        case .problem: "X"
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.contains("\n") ? text.split(separator: "\n").joined(separator: " ") : text
    }

    // MARK: Decoding

    static func decode(_ bytes: [UInt8], path: String) throws(Problem) -> LibraryIndex {
        let body = withoutChecksum(bytes)
        guard let body else { throw .broken(path: path, reason: bytes.isEmpty ? "empty" : "no checksum line (cut short?)") }
        guard let sum = checksum(bytes[body.endIndex...]), sum == FNV1a.hash(bytes[body]) else {
            throw .broken(path: path, reason: "checksum does not match (damaged)")
        }
        var lines = bytes[body].split(separator: 0x0A, omittingEmptySubsequences: false).makeIterator()
        guard let first = lines.next(), String(decoding: first, as: UTF8.self) == header else {
            throw .broken(path: path, reason: "not a jukebox library index, or from another version")
        }
        var reader = Reader(path: path)
        while let line = lines.next() {
            if line.isEmpty { continue }
            try reader.take(String(decoding: line, as: UTF8.self))
        }
        return try reader.finished()
    }

    /// The range before the checksum line, or nil when the file does not end in one.
    private static func withoutChecksum(_ bytes: [UInt8]) -> Range<Int>? {
        guard bytes.last == 0x0A else { return nil }
        let end = bytes.index(before: bytes.endIndex)
        guard let start = bytes[..<end].lastIndex(of: 0x0A).map({ $0 + 1 }) else { return nil }
        return bytes.startIndex..<start
    }

    private static func checksum(_ line: ArraySlice<UInt8>) -> UInt64? {
        let text = String(decoding: line.dropLast(), as: UTF8.self)
        guard text.hasPrefix(checksumPrefix) else { return nil }
        return UInt64(text.dropFirst(checksumPrefix.count), radix: 16)
    }

    /// Builds the index line by line, checking each record's shape.
    private struct Reader {
        let path: String
        var music: String?
        var playlists: String?
        var scan = LibraryScan()
        var folders: [String: FolderRecord] = [:]
        var folder: (path: String, record: FolderRecord)?
        var line = 1

        init(path: String) { self.path = path }

        mutating func take(_ text: String) throws(Problem) {
            line += 1
            let space = text.firstIndex(of: " ") ?? text.endIndex
            let tag = text[..<space]
            let rest = space == text.endIndex ? "" : text[text.index(after: space)...]
            switch tag {
            case Tag.music: music = String(rest)
            case Tag.playlists: playlists = String(rest)
            case Tag.track:
                let (fields, path) = try split(rest, count: 2)
                scan.tracks.append(LibraryTrack(path: path, discNumber: try number(fields[0]), trackNumber: try number(fields[1])))
            case Tag.playlist:
                let (fields, tail) = try split(rest, count: 1)
                guard let nameLength = Int(fields[0]), nameLength >= 0, nameLength <= tail.count else { throw bad("playlist") }
                let cut = tail.index(tail.startIndex, offsetBy: nameLength)
                scan.playlists.append(M3UPlaylist(name: String(tail[..<cut]), path: String(tail[cut...]), entries: []))
            case Tag.playlistEntry:
                guard !scan.playlists.isEmpty else { throw bad("playlist entry") }
                scan.playlists[scan.playlists.count - 1].entries.append(String(rest))
            case Tag.skipped:
                if folder == nil { scan.skipped.append(String(rest)) }
            case Tag.folder:
                closeFolder()
                let (fields, path) = try split(rest, count: 3)
                guard let device = UInt64(fields[0]), let inode = UInt64(fields[1]), let modified = Int64(fields[2]) else { throw bad("folder") }
                folder = (path, FolderRecord(id: FileID(device: device, inode: inode), modified: modified, entries: []))
            case Tag.subfolder, Tag.link:
                guard folder != nil else { throw bad("folder entry") }
                folder?.record.entries.append(FolderEntry(name: String(rest), kind: tag == Tag.link ? .link : .folder))
            case Tag.file:
                guard folder != nil else { throw bad("file") }
                let (fields, name) = try split(rest, count: 5)
                guard let device = UInt64(fields[0]), let inode = UInt64(fields[1]),
                      let size = Int64(fields[2]), let modified = Int64(fields[3]) else { throw bad("file") }
                let outcome = try self.outcome(fields[4])
                folder?.record.entries.append(FolderEntry(name: name, kind: .file(
                    FileID(device: device, inode: inode), FileIdentity(size: size, modified: modified), outcome)))
            default:
                throw bad("record \"\(tag)\"")
            }
            // A problem's reason follows its file on the next line.
            if tag == Tag.skipped, let last = folder?.record.entries.indices.last,
               case .file(let id, let identity, .problem) = folder?.record.entries[last].kind {
                folder?.record.entries[last].kind = .file(id, identity, .problem(String(rest)))
            }
        }

        mutating func finished() throws(Problem) -> LibraryIndex {
            closeFolder()
            guard let music, let playlists else { throw .broken(path: path, reason: "no music folder named") }
            return LibraryIndex(musicDirectory: music, playlistsDirectory: playlists, scan: scan, folders: folders)
        }

        private mutating func closeFolder() {
            if let folder { folders[folder.path] = folder.record }
            folder = nil
        }

        /// `count` space-separated fields, then the rest of the line (a name or path).
        private func split(_ text: Substring, count: Int) throws(Problem) -> ([Substring], String) {
            let parts = text.split(separator: " ", maxSplits: count, omittingEmptySubsequences: false)
            guard parts.count == count + 1 else { throw bad("line") }
            return (Array(parts.prefix(count)), String(parts[count]))
        }

        private func number(_ field: Substring) throws(Problem) -> Int? {
            if field == "-" { return nil }
            guard let value = Int(field) else { throw bad("number \"\(field)\"") }
            return value
        }

        private func outcome(_ field: Substring) throws(Problem) -> FileOutcome {
            switch field.first {
            case "P": return .playlist
            case "-": return .passedOver
            case "X": return .problem("")
            case "T":
                let parts = field.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2 else { throw bad("track \"\(field)\"") }
                return .track(disc: try number(parts[0]), track: try number(parts[1]))
            default: throw bad("file kind \"\(field)\"")
            }
        }

        private func bad(_ what: String) -> Problem {
            .broken(path: path, reason: "line \(line): unreadable \(what)")
        }
    }
}
