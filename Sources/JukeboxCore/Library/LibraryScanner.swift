#if canImport(Glibc)
import Glibc
#endif

/// One playable file found by the scan.
public struct LibraryTrack: Sendable, Equatable {
    /// Lossless even for names that are not UTF-8 (see `FilePath`); open it through `FilePath`.
    public var path: String
    /// The path for people: bytes that are not UTF-8 shown as U+FFFD.
    public var displayPath: String { FilePath.displayed(path) }
    public var tags: SongTags
    public var discNumber: Int? { tags.disc }
    public var trackNumber: Int? { tags.track }

    public init(path: String, tags: SongTags) {
        self.path = path
        self.tags = tags
    }

    public init(path: String, discNumber: Int? = nil, trackNumber: Int? = nil) {
        var tags = SongTags()
        tags.disc = discNumber
        tags.track = trackNumber
        self.init(path: path, tags: tags)
    }
}

/// A playlist the scan found: its name and its file. Its lines are read when it is used
/// (`M3UPlaylist.read`), as stored playlists are, never kept with the library: a playlist
/// of 89,000 lines would otherwise stay in memory (and in the index) for nothing.
public struct LibraryPlaylist: Sendable, Equatable {
    public var name: String
    public var path: String

    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }

    /// Named by its file name without the extension.
    public init(path: String) {
        self.init(name: M3UPlaylist.name(ofFile: path), path: path)
    }
}

/// What a scan found: tracks in natural order, playlists, and files it had to skip.
public struct LibraryScan: Sendable, Equatable {
    public var tracks: [LibraryTrack] = []
    public var playlists: [LibraryPlaylist] = []
    /// Each folder of the music's modification time (seconds since 1970), by path: MPD's
    /// `Last-Modified` for a `directory`.
    public var folderTimes: [String: Int] = [:]
    /// `path: reason` for each file that looked like audio but could not be read, and for
    /// each name or link the scan had to pass over. Ready to show (see `FilePath.displayed`).
    public var skipped: [String] = []
}

/// Walks the music folder by content: every regular file is sniffed, whatever its name.
/// Files that are clearly something else (covers, lyrics, text) are passed over quietly;
/// a file that should have been audio and is not is reported with the reason.
public enum LibraryScanner {
    static let playlistExtensions: Set<String> = ["m3u", "m3u8", "pls"]
    /// Names that promise audio: when such a file fails, say so.
    static let audioExtensions: Set<String> = ["flac", "mp3", "wav", "ogg", "oga", "opus", "m4a", "m4b", "mp4", "aac", "aiff", "aif", "wma", "mp2"]

    /// `onFirstTracks` receives the tracks found so far, once, after the first folder with
    /// music, so that playback can start before a large scan ends.
    public static func scan(musicDirectory: String, playlistsDirectory: String?,
                            onFirstTracks: (([LibraryTrack]) -> Void)? = nil) -> LibraryScan {
        update(nil, musicDirectory: musicDirectory, playlistsDirectory: playlistsDirectory, onFirstTracks: onFirstTracks).index.scan
    }

    /// How much of the last index a scan could keep.
    public struct Reuse: Sendable, Equatable {
        /// Folders whose time had not changed: neither listed nor their files opened.
        public var foldersKept = 0
        /// Folders listed (new or changed); in them only new or changed files are read.
        public var foldersListed = 0
    }

    /// A scan that keeps from `previous` every folder whose modification time did not
    /// change (see `LibraryWalk`), and the index for the next one.
    public static func update(_ previous: LibraryIndex?, musicDirectory: String, playlistsDirectory: String?,
                              onFirstTracks: (([LibraryTrack]) -> Void)? = nil) -> (index: LibraryIndex, reuse: Reuse) {
        var announced = false
        let usable = previous.flatMap { $0.matches(musicDirectory: musicDirectory, playlistsDirectory: playlistsDirectory) ? $0 : nil }
        let previousTracks = usable?.scan.tracks ?? []
        var walk = LibraryWalk(previous: usable?.folders ?? [:], previousTracks: previousTracks) { found in
            if !announced, !found.isEmpty {
                announced = true
                onFirstTracks?(sorted(found))
            }
        }
        walk.run(from: musicDirectory)
        // A playlists folder that is not there is no problem: most libraries have none.
        if let playlistsDirectory, !playlistsDirectory.isEmpty, FileIdentity(folder: playlistsDirectory) != nil {
            // The same walk, so a folder or playlist already seen in the music is not listed twice.
            walk.playlistsOnly = true
            walk.run(from: playlistsDirectory)
        }
        var result = walk.result
        if let usable, walk.foldersListed == 0, walk.tracksKept == result.tracks.count, result.tracks.count == usable.scan.tracks.count {
            result.tracks = usable.scan.tracks  // already in order
        } else {
            result.tracks = sorted(result.tracks)
        }
        result.playlists.sort { NaturalOrder.less($0.name, $1.name) }
        let index = LibraryIndex(musicDirectory: musicDirectory, playlistsDirectory: playlistsDirectory ?? "",
                                 scan: result, folders: walk.folders)
        return (index, Reuse(foldersKept: walk.foldersReused, foldersListed: walk.foldersListed))
    }

    /// A playlist's entry as the queue keeps it: a file's path made canonical, a URL as it
    /// is (it is not a path: its `//` and `..` mean something to the server).
    public static func canonical(_ entry: TrackLocation) -> String {
        switch entry {
        case .url(let url): url
        case .file(let path): canonical(path)
        }
    }

    /// A path with `.` and `..` resolved, so a playlist's `../Album/x.flac` matches the scan's.
    public static func canonical(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// Folder, then disc and track number, then file name with numbers compared as numbers.
    public static func sorted(_ tracks: [LibraryTrack]) -> [LibraryTrack] {
        // Each path's last slash found once, not in every comparison; the folder and the
        // name are compared in place (a copy of each would be megabytes for a large library).
        let slashes = tracks.map { $0.path.lastIndex(of: "/") }
        func folder(_ i: Int) -> Substring { slashes[i].map { tracks[i].path[..<$0] } ?? "" }
        func name(_ i: Int) -> Substring { slashes[i].map { tracks[i].path[tracks[i].path.index(after: $0)...] } ?? tracks[i].path[...] }
        let order = tracks.indices.sorted { i, j in
            let (a, b) = (tracks[i], tracks[j])
            let folder = NaturalOrder.compare(folder(i), folder(j))
            if folder != 0 { return folder < 0 }
            if (a.discNumber ?? 1) != (b.discNumber ?? 1) { return (a.discNumber ?? 1) < (b.discNumber ?? 1) }
            if a.trackNumber != b.trackNumber, let x = a.trackNumber, let y = b.trackNumber { return x < y }
            return NaturalOrder.compare(name(i), name(j)) < 0
        }
        return order.map { tracks[$0] }
    }
}
