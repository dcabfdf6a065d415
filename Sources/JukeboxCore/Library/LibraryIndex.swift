#if canImport(Glibc)
import Glibc
#endif

/// The library as the last scan left it, kept in the state folder so that a start plays
/// at once instead of scanning: the sorted tracks, the playlists, what was skipped, and a
/// record of each folder for the next scan to skip what did not change.
///
/// The file is lines of text an admin can read, one record each, with the name or path
/// last on its line (names holding a newline are never in a library), each track's tags
/// on a line after its record, and a checksum line at the end: a file cut short or
/// damaged is ignored and the library scanned afresh.
public struct LibraryIndex: Sendable, Equatable {
    public var musicDirectory: String
    public var playlistsDirectory: String
    public var scan: LibraryScan
    var folders: [String: FolderRecord]

    /// 3: files with chapters (an index from before would never list them).
    static let header = "jukebox library index 4"
    static let checksumPrefix = "# checksum "
    /// Far beyond a real library (10,000 tracks were about 2 MB before the tags, which
    /// add a line of some 100-200 bytes twice per track: an estimate, not measured).
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

    /// The index at `path`; nil when there is none yet. Read line by line: the file is
    /// never whole in memory beside the index it makes.
    public static func load(_ path: String) throws(Problem) -> LibraryIndex? {
        var st = stat()
        do {
            try systemCall { FilePath.withCString(path) { stat($0, &st) } }
        } catch where error == .noEntry {
            return nil
        } catch {
            throw .broken(path: path, reason: "cannot read it: \(error)")
        }
        guard Int64(st.st_size) <= Int64(sizeLimit) else {
            throw .broken(path: path, reason: "file is \(st.st_size) bytes, larger than the \(sizeLimit)-byte limit")
        }
        var lines: FileLines
        do {
            lines = try FileLines(path: path)
        } catch {
            throw .broken(path: path, reason: (error as? MediaError)?.reason ?? "\(error)")
        }
        return try decode(&lines, path: path)
    }

    public func save(_ path: String) throws(Problem) {
        // The state folder, if the state saver has not made it yet (a box run by hand).
        _ = FilePath.withCString(AtomicFile.folder(of: path)) { mkdir($0, 0o755) }
        do {
            // Written as it is encoded, a piece at a time: never a copy of the whole file.
            try AtomicFile.replace(path) { writer in
                var hash = FNV1a()
                encode { piece in
                    hash.add(piece.utf8)
                    writer.write(piece.utf8)
                }
                writer.write(Self.checksumLine(hash.value).utf8)
            }
        } catch {
            throw .cannotWrite(path: error.path, step: error.step, error.errno)
        }
    }

    // MARK: Encoding

    /// Record tags, one letter each, first on their line.
    private enum Tag {
        static let music = "music", playlists = "playlists"
        static let track = "t", tags = "g", playlist = "p", playlistEntry = "e", skipped = "s"
        static let folder = "d", subfolder = "c", link = "l", file = "f"
    }

    /// The whole file, for tests.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        encode { bytes += $0.utf8 }
        bytes += Self.checksumLine(FNV1a.hash(bytes)).utf8
        return bytes
    }

    private static func checksumLine(_ sum: UInt64) -> String { "\(checksumPrefix)\(String(sum, radix: 16))\n" }

    /// The file before its checksum line, given to `emit` a line or two at a time.
    private func encode(_ emit: (String) -> Void) {
        emit(Self.header + "\n")
        emit("\(Tag.music) \(musicDirectory)\n\(Tag.playlists) \(playlistsDirectory)\n")
        for track in scan.tracks {
            emit("\(Tag.track) \(Self.number(track.discNumber)) \(Self.number(track.trackNumber)) \(track.path)\n")
            emit(Self.tagsLine(track.tags))
        }
        for playlist in scan.playlists {
            emit("\(Tag.playlist) \(playlist.name.count) \(playlist.name)\(playlist.path)\n")
        }
        for skipped in scan.skipped { emit("\(Tag.skipped) \(Self.oneLine(skipped))\n") }
        for path in folders.keys.sorted() {
            guard let folder = folders[path] else { continue }
            emit("\(Tag.folder) \(Int64(bitPattern: folder.id.device)) \(Int64(bitPattern: folder.id.inode)) \(folder.modified) \(path)\n")
            for entry in folder.entries {
                switch entry.kind {
                case .folder: emit("\(Tag.subfolder) \(entry.name)\n")
                case .link: emit("\(Tag.link) \(entry.name)\n")
                case .file(let id, let identity, let outcome):
                    emit("\(Tag.file) \(Int64(bitPattern: id.device)) \(Int64(bitPattern: id.inode)) \(identity.size) \(identity.modified) \(Self.outcome(outcome)) \(entry.name)\n")
                    if case .track(let tags) = outcome { emit(Self.tagsLine(tags)) }
                    if case .chapters(let chapters) = outcome { for tags in chapters { emit(Self.tagsLine(tags)) } }
                    if case .problem(let reason) = outcome { emit("\(Tag.skipped) \(Self.oneLine(reason))\n") }
                }
            }
        }
    }

    private static func number(_ value: Int?) -> String { value.map(String.init) ?? "-" }

    private static func outcome(_ outcome: FileOutcome) -> String {
        switch outcome {
        case .track(let tags): "T\(number(tags.disc)):\(number(tags.track))"
        case .chapters(let chapters): "C\(chapters.count)"
        case .playlist: "P"
        case .passedOver: "-"
        case .problem: "X"
        }
    }

    /// A track's tags on the line after it: its length in ms, the file's time in seconds,
    /// then each value as `Name=value`, separated by tabs (tabs and line breaks in a value
    /// become spaces).
    private static func tagsLine(_ tags: SongTags) -> String {
        let fields = tags.indexed.map { value -> String in
            value.contains(where: { $0 == "\t" || $0.isNewline }) ? String(value.map { $0 == "\t" || $0.isNewline ? " " : $0 }) : value
        }
        return "\(Tag.tags) \(Int((tags.seconds * 1000).rounded())) \(number(tags.modified)) " + fields.joined(separator: "\t") + "\n"
    }

    private static func oneLine(_ text: String) -> String {
        text.contains("\n" as Character) ? text.split(separator: "\n").joined(separator: " ") : text
    }

    // MARK: Decoding

    static func decode(_ bytes: [UInt8], path: String) throws(Problem) -> LibraryIndex {
        var lines = ByteLines(bytes: bytes[...])
        return try decode(&lines, path: path)
    }

    /// Reads lines up to the checksum line, which must be the last and match the hash of
    /// all before it: a file cut short or damaged is refused.
    static func decode(_ lines: inout some LineSource, path: String) throws(Problem) -> LibraryIndex {
        var hash = FNV1a()
        var reader = Reader(path: path)
        var started = false
        func next() throws(Problem) -> ArraySlice<UInt8>? {
            do { return try lines.next() } catch { throw .broken(path: path, reason: ((error as any Error) as? MediaError)?.reason ?? "\(error)") }
        }
        while let line = try next() {
            if started, line.starts(with: checksumPrefix.utf8) {
                let sum = UInt64(String(decoding: line.dropFirst(checksumPrefix.utf8.count), as: UTF8.self), radix: 16)
                guard lines.lineEnded, try next() == nil else { throw .broken(path: path, reason: "no checksum line (cut short?)") }
                guard sum == hash.value else { throw .broken(path: path, reason: "checksum does not match (damaged)") }
                return try reader.finished()
            }
            guard lines.lineEnded else { break }
            hash.add(line)
            hash.add(CollectionOfOne(0x0A))
            if !started {
                guard line.elementsEqual(header.utf8) else {
                    throw .broken(path: path, reason: "not a jukebox library index, or from another version")
                }
                started = true
            } else if !line.isEmpty {
                try reader.take(line)
            }
        }
        throw .broken(path: path, reason: started ? "no checksum line (cut short?)" : "empty")
    }

    /// Builds the index line by line, checking each record's shape. Works on the bytes:
    /// a start with 10,000 tracks reads this before its first sound.
    private struct Reader {
        typealias Bytes = ArraySlice<UInt8>
        let path: String
        var music: String?
        var playlists: String?
        var scan = LibraryScan()
        var folders: [String: FolderRecord] = [:]
        var folder: (path: String, record: FolderRecord)?
        /// The tracks read, by path, once the folders start.
        var trackPaths = PathIndex([])
        var line = 1
        /// The record on the line before (tags belong to it).
        var previousTag = ""
        /// Chapter tag lines still due for the file on the line before them.
        var pendingChapters: Int?

        init(path: String) { self.path = path }

        mutating func take(_ text: Bytes) throws(Problem) {
            line += 1
            let space = text.firstIndex(of: 0x20) ?? text.endIndex
            let tag = String(decoding: text[..<space], as: UTF8.self)
            defer { previousTag = tag }
            if tag != Tag.tags, let due = pendingChapters, due > 0 { throw bad("chapters (\(due) missing)") }
            let rest = space == text.endIndex ? text[space...] : text[(space + 1)...]
            switch tag {
            case Tag.music: music = string(rest)
            case Tag.playlists: playlists = string(rest)
            case Tag.track:
                let (fields, path) = try split(rest, count: 2)
                scan.tracks.append(LibraryTrack(path: string(path), discNumber: try optional(fields[0]), trackNumber: try optional(fields[1])))
            case Tag.tags:
                // The tags of the track or file on the line before.
                let (fields, values) = try split(rest, count: 2)
                var tags = SongTags()
                tags.seconds = Double(try number(fields[0])) / 1000
                tags.modified = try optional(fields[1])
                tags.readIndexed(values)
                if previousTag == Tag.track, !scan.tracks.isEmpty {
                    let last = scan.tracks.count - 1
                    (tags.disc, tags.track) = (scan.tracks[last].discNumber, scan.tracks[last].trackNumber)
                    scan.tracks[last].tags = tags
                } else if previousTag == Tag.file || previousTag == Tag.tags, let folder, let last = folder.record.entries.indices.last,
                          case .file(let id, let identity, .chapters(var chapters)) = folder.record.entries[last].kind {
                    // A chapter's tags, one line each after its file's (`C` and their count).
                    guard let expected = pendingChapters, expected > 0 else { throw bad("chapter tags") }
                    tags.track = chapters.count + 1
                    chapters.append(tags)
                    pendingChapters = expected - 1
                    self.folder?.record.entries[last].kind = .file(id, identity, .chapters(chapters))
                } else if previousTag == Tag.file, let folder, let last = folder.record.entries.indices.last,
                          case .file(let id, let identity, .track(let numbers)) = folder.record.entries[last].kind {
                    (tags.disc, tags.track) = (numbers.disc, numbers.track)
                    // The track's own tags when they are the same: one copy for both.
                    let path = folder.path + "/" + folder.record.entries[last].name
                    if let at = trackPaths.position(of: path, in: scan.tracks), scan.tracks[at].tags == tags { tags = scan.tracks[at].tags }
                    self.folder?.record.entries[last].kind = .file(id, identity, .track(tags))
                } else {
                    throw bad("tags")
                }
            case Tag.playlist:
                let (fields, tail) = try split(rest, count: 1)
                let text = string(tail)
                guard let nameLength = Int(exactly: try number(fields[0])), nameLength >= 0, nameLength <= text.count else { throw bad("playlist") }
                let cut = text.index(text.startIndex, offsetBy: nameLength)
                scan.playlists.append(LibraryPlaylist(name: String(text[..<cut]), path: String(text[cut...])))
            case Tag.playlistEntry:
                // A playlist's line, in an index from before playlists were read when used.
                guard !scan.playlists.isEmpty else { throw bad("playlist entry") }
            case Tag.skipped:
                // A problem's reason follows its file's line; the others are the scan's.
                let reason = string(rest)
                if let last = folder?.record.entries.indices.last,
                   case .file(let id, let identity, .problem) = folder?.record.entries[last].kind {
                    folder?.record.entries[last].kind = .file(id, identity, .problem(reason))
                } else if folder == nil {
                    scan.skipped.append(reason)
                }
            case Tag.folder:
                closeFolder()
                if folders.isEmpty { trackPaths = PathIndex(scan.tracks) }  // the tracks come first
                let (fields, path) = try split(rest, count: 3)
                let id = FileID(device: UInt64(bitPattern: try number(fields[0])), inode: UInt64(bitPattern: try number(fields[1])))
                let record = FolderRecord(id: id, modified: try number(fields[2]), entries: [])
                folder = (string(path), record)
                scan.folderTimes[string(path)] = Int(record.modified / 1_000_000_000)
            case Tag.subfolder, Tag.link:
                guard folder != nil else { throw bad("folder entry") }
                let entry = FolderEntry(name: string(rest), kind: tag == Tag.link ? .link : .folder)
                folder?.record.entries.append(entry)
            case Tag.file:
                guard folder != nil else { throw bad("file") }
                let (fields, name) = try split(rest, count: 5)
                let id = FileID(device: UInt64(bitPattern: try number(fields[0])), inode: UInt64(bitPattern: try number(fields[1])))
                let identity = FileIdentity(size: try number(fields[2]), modified: try number(fields[3]))
                let entry = FolderEntry(name: string(name), kind: .file(id, identity, try outcome(fields[4])))
                folder?.record.entries.append(entry)
            default:
                throw bad("record \"\(tag)\"")
            }
        }

        mutating func finished() throws(Problem) -> LibraryIndex {
            if let due = pendingChapters, due > 0 { throw bad("chapters (\(due) missing)") }
            closeFolder()
            guard let music, let playlists else { throw .broken(path: path, reason: "no music folder named") }
            return LibraryIndex(musicDirectory: music, playlistsDirectory: playlists, scan: scan, folders: folders)
        }

        private mutating func closeFolder() {
            // Without the room left from appending one by one.
            if let folder { folders[folder.path] = FolderRecord(id: folder.record.id, modified: folder.record.modified,
                                                                entries: folder.record.entries.withUnsafeBufferPointer { Array($0) }) }
            folder = nil
        }

        private func string(_ bytes: Bytes) -> String { String(decoding: bytes, as: UTF8.self) }

        /// `count` space-separated fields, then the rest of the line (a name or path).
        private func split(_ text: Bytes, count: Int) throws(Problem) -> ([Bytes], Bytes) {
            var fields: [Bytes] = []
            var start = text.startIndex
            while fields.count < count {
                guard let space = text[start...].firstIndex(of: 0x20) else { throw bad("line") }
                fields.append(text[start..<space])
                start = space + 1
            }
            return (fields, text[start...])
        }

        /// A decimal number, signed (times and devices are written as Int64).
        private func number(_ field: Bytes) throws(Problem) -> Int64 {
            var digits = field[...]
            let negative = digits.first == UInt8(ascii: "-")
            if negative { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.count <= 19 else { throw bad("number") }
            var value: Int64 = 0
            for byte in digits {
                guard byte >= 0x30, byte <= 0x39 else { throw bad("number") }
                let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = times.addingReportingOverflow(Int64(byte - 0x30))
                guard !overflowA, !overflowB else { throw bad("number") }
                value = sum
            }
            return negative ? -value : value
        }

        private func optional(_ field: Bytes) throws(Problem) -> Int? {
            field.elementsEqual([UInt8(ascii: "-")]) ? nil : Int(try number(field))
        }

        private mutating func outcome(_ field: Bytes) throws(Problem) -> FileOutcome {
            switch field.first {
            case UInt8(ascii: "P"): return .playlist
            case UInt8(ascii: "-"): return .passedOver
            case UInt8(ascii: "X"): return .problem("")
            case UInt8(ascii: "C"):
                guard let count = Int(String(decoding: field.dropFirst(), as: UTF8.self)), count > 0, count <= TagLimits.maximumChapters else {
                    throw bad("chapters")
                }
                pendingChapters = count
                return .chapters([])
            case UInt8(ascii: "T"):
                let parts = field.dropFirst().split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
                guard parts.count == 2 else { throw bad("track") }
                var tags = SongTags()
                (tags.disc, tags.track) = (try optional(parts[0]), try optional(parts[1]))
                return .track(tags)
            default: throw bad("file kind")
            }
        }

        private func bad(_ what: String) -> Problem {
            .broken(path: path, reason: "line \(line): unreadable \(what)")
        }
    }
}
