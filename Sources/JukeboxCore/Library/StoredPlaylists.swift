#if canImport(Glibc)
import Glibc
#endif

/// The playlists clients keep (MPD's stored playlists): the M3U files of the playlists
/// folder (`[library] playlists_dir`), by name without `.m3u`/`.m3u8`. They are the files
/// the library reads and `[library] playlist` chooses; the disk is the only copy, read
/// afresh by each command, and every change replaces a file atomically.
public struct StoredPlaylists: Sendable {
    /// The playlists folder; empty when none is configured.
    public let folder: String
    /// The music folder, which a stored playlist's relative lines name files in (as MPD's).
    public let musicDirectory: String?

    public init(folder: String, musicDirectory: String? = nil) {
        func trimmed(_ path: String) -> String {
            var path = path
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            return path
        }
        self.folder = trimmed(folder)
        self.musicDirectory = musicDirectory.map(trimmed)
    }

    /// Where the relative lines of the playlist file at `path` name files, in turn: as in
    /// MPD, a stored playlist's are relative to the music folder, then to its own folder
    /// (where the box writes `../Artist/x.flac` for a playlists folder inside the music
    /// folder); a playlist anywhere else (one in the music folder) names files beside it.
    public func folders(for path: String) -> [String] {
        let own = M3UPlaylist.ownFolder(of: path)
        guard let musicDirectory, !folder.isEmpty, own == folder, musicDirectory != own else { return [own] }
        return [musicDirectory, own]
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noFolder
        case badName
        case notFound
        case exists
        /// A rename onto a playlist there is (MPD words it apart from `save`'s).
        case renameTargetExists
        /// A position or range outside the playlist.
        case badPosition
        /// A place to add at beyond the playlist's end.
        case badInsertion
        /// A move whose source or destination is outside the playlist (MPD's words for it).
        case badRange
        /// A file operation on `path` failed at `step`.
        case cannot(step: String, path: String, Errno)
        case unreadable(path: String, reason: String)

        public var description: String {
            switch self {
            case .noFolder: "no playlists folder is configured ([library] playlists_dir)"
            case .badName: "Bad playlist name"
            case .notFound: "No such playlist"
            case .exists: "Playlist already exists"
            case .renameTargetExists: "Playlist exists already"
            case .badPosition: "Bad song index"
            case .badInsertion: "Bad position"
            case .badRange: "Bad range"
            case .cannot(let step, let path, let errno): "cannot \(step) \(FilePath.displayed(path)): \(errno)"
            case .unreadable(let path, let reason): "\(FilePath.displayed(path)): \(reason)"
            }
        }
    }

    public struct Listed: Sendable, Equatable {
        public var name: String
        public var path: String
        /// Seconds since 1970.
        public var modified: Int
    }

    /// Every playlist in the folder, in natural order of name (none when there is no folder).
    public func list() -> [Listed] {
        guard !folder.isEmpty, let dir = FilePath.withCString(folder, { opendir($0) }) else { return [] }
        defer { closedir(dir) }
        var found: [Listed] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                FilePath.decode(raw.prefix { $0 != 0 })
            }
            guard !name.hasPrefix("."), let (base, _) = Self.split(name) else { continue }
            let path = "\(folder)/\(name)"
            var st = stat()
            guard FilePath.withCString(path, { stat($0, &st) }) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            // A name in both .m3u and .m3u8 is listed once, as `file(named:)` finds it.
            guard !found.contains(where: { $0.name == base }) else { continue }
            found.append(Listed(name: base, path: path, modified: Int(st.st_mtim.tv_sec)))
        }
        return found.sorted { NaturalOrder.less($0.name, $1.name) }
    }

    /// The tracks of playlist `name`, as absolute paths with `.` and `..` resolved.
    public func read(_ name: String) throws(Failure) -> [String] {
        try entries(of: file(name))
    }

    /// The file of playlist `name`.
    public func file(_ name: String) throws(Failure) -> String {
        guard let path = try existing(name) else { throw .notFound }
        return path
    }

    /// The tracks of the playlist file at `path`.
    public func entries(of path: String) throws(Failure) -> [String] {
        var tracks = try tracks(of: path)
        var entries: [String] = []
        while let track = try tracks.next() { entries.append(track) }
        return entries
    }

    /// The tracks of the playlist file at `path` one at a time, as absolute paths with `.`
    /// and `..` resolved: a long playlist is never whole in memory.
    public func tracks(of path: String) throws(Failure) -> Tracks {
        do {
            return Tracks(path: path, entries: try M3UPlaylist.entries(of: path, relativeTo: folders(for: path)))
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    public struct Tracks {
        let path: String
        var entries: M3UPlaylist.FileEntries

        public mutating func next() throws(Failure) -> String? {
            do {
                return try entries.next().map(LibraryScanner.canonical)
            } catch {
                throw .unreadable(path: path, reason: "\(error)")
            }
        }
    }

    /// Replaces (or makes) playlist `name` with `tracks`. `mustBeNew` refuses a name in use.
    public func write(_ name: String, _ tracks: [String], mustBeNew: Bool = false) throws(Failure) {
        let existing = try existing(name)
        if mustBeNew, existing != nil { throw .exists }
        let path = existing ?? "\(folder)/\(name).m3u"
        try makeFolder()
        var bytes = Array("#EXTM3U\n".utf8)
        for track in tracks where !track.contains("\n" as Character) && !track.contains("\r" as Character) {
            bytes += FilePath.bytes(Self.relative(TrackLocation(track), from: folder))
            bytes.append(0x0a)
        }
        do {
            try AtomicFile.replace(path, with: bytes)
        } catch {
            throw .cannot(step: error.step, path: error.path, error.errno)
        }
    }

    /// Changes playlist `name` through `edit`, which gets its tracks; nothing is written
    /// when `edit` throws. A playlist not there yet starts empty when `creating`.
    public func edit(_ name: String, creating: Bool = false, _ change: (inout [String]) throws(Failure) -> Void) throws(Failure) {
        var tracks: [String]
        if let path = try existing(name) {
            tracks = try entries(of: path)
        } else if creating {
            tracks = []
        } else {
            throw .notFound
        }
        try change(&tracks)
        try write(name, tracks)
    }

    public func remove(_ name: String) throws(Failure) {
        guard let path = try existing(name) else { throw .notFound }
        do {
            try systemCall { FilePath.withCString(path) { unlink($0) } }
        } catch {
            throw .cannot(step: "remove", path: path, error)
        }
    }

    public func rename(_ name: String, to newName: String) throws(Failure) {
        guard let path = try existing(name) else { throw .notFound }
        guard try existing(newName) == nil else { throw .renameTargetExists }
        let ext = Self.split(AtomicFile.name(of: path))?.ext ?? "m3u"
        let target = "\(folder)/\(newName).\(ext)"
        do {
            try systemCall { FilePath.withCString(path) { old in FilePath.withCString(target) { Glibc.rename(old, $0) } } }
        } catch {
            throw .cannot(step: "rename", path: path, error)
        }
    }

    /// The file of playlist `name`, if there is one; throws for a name no file may have.
    func existing(_ name: String) throws(Failure) -> String? {
        guard !folder.isEmpty else { throw .noFolder }
        guard Self.isValid(name) else { throw .badName }
        for ext in ["m3u", "m3u8", "pls"] {
            let path = "\(folder)/\(name).\(ext)"
            var st = stat()
            if FilePath.withCString(path, { stat($0, &st) }) == 0, (st.st_mode & S_IFMT) == S_IFREG { return path }
        }
        return nil
    }

    private func makeFolder() throws(Failure) {
        do {
            try systemCall { FilePath.withCString(folder) { mkdir($0, 0o755) } }
        } catch where error == .exists {
        } catch {
            throw .cannot(step: "create the folder", path: folder, error)
        }
    }

    /// A name that stays inside the folder and can be written in an M3U line: no slash,
    /// no line break or NUL, not hidden, and short enough for a file name.
    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && FilePath.bytes(name).count <= 250
            && !name.contains(where: { $0 == "/" || $0 == "\n" || $0 == "\r" || $0 == "\0" })
    }

    /// Whether a file name is a playlist's (by its extension).
    static func isPlaylistFile(_ name: String) -> Bool { split(name) != nil }

    /// A file name's base and playlist extension, or nil when it is not a playlist.
    private static func split(_ file: String) -> (base: String, ext: String)? {
        guard let dot = file.lastIndex(of: ".") else { return nil }
        let ext = String(file[file.index(after: dot)...])
        guard LibraryScanner.playlistExtensions.contains(ext.lowercased()), dot > file.startIndex else { return nil }
        return (String(file[..<dot]), ext)
    }

    /// `track` as an M3U line in `folder`: a file's path relative to it when they share
    /// more than the root (a playlists folder inside the music folder writes
    /// `../Artist/track.flac`, and the music can move with its playlists), else absolute.
    static func relative(_ track: TrackLocation, from folder: String) -> String {
        guard case .file(let path) = track else { return track.entry }  // a URL is written as it is
        let target = path.split(separator: "/")
        let base = folder.split(separator: "/")
        var common = 0
        while common < min(target.count - 1, base.count), target[common] == base[common] { common += 1 }
        guard common > 0 else { return path }
        return (Array(repeating: "..", count: base.count - common) + target[common...].map(String.init)).joined(separator: "/")
    }
}
