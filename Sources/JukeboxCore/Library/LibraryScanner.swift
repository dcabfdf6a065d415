#if canImport(Glibc)
import Glibc
#endif

/// One playable file found by the scan.
public struct LibraryTrack: Sendable, Equatable {
    public var path: String
    public var discNumber: Int?
    public var trackNumber: Int?
}

/// What a scan found: tracks in natural order, playlists, and files it had to skip.
public struct LibraryScan: Sendable {
    public var tracks: [LibraryTrack] = []
    public var playlists: [M3UPlaylist] = []
    /// `path: reason` for each file that looked like audio but could not be read.
    public var skipped: [String] = []
}

/// Walks the music folder by content: every regular file is sniffed, whatever its name.
/// Files that are clearly something else (covers, lyrics, text) are passed over quietly;
/// a file that should have been audio and is not is reported with the reason.
public enum LibraryScanner {
    static let playlistExtensions: Set<String> = ["m3u", "m3u8"]
    /// Names that promise audio: when such a file fails, say so.
    static let audioExtensions: Set<String> = ["flac", "mp3", "wav", "ogg", "oga", "opus", "m4a", "aac", "aiff", "aif", "wma", "mp2"]
    static let maximumDepth = 32

    /// `onFirstTracks` receives the tracks found so far, once, after the first folder with
    /// music, so that playback can start before a large scan ends.
    public static func scan(musicDirectory: String, playlistsDirectory: String?,
                            onFirstTracks: (([LibraryTrack]) -> Void)? = nil) -> LibraryScan {
        var result = LibraryScan()
        var announced = false
        walk(musicDirectory, depth: 0, into: &result) { found in
            if !announced, !found.isEmpty {
                announced = true
                onFirstTracks?(sorted(found))
            }
        }
        if let playlistsDirectory, !playlistsDirectory.isEmpty, !playlistsDirectory.hasPrefix(musicDirectory + "/") {
            var extra = LibraryScan()
            walk(playlistsDirectory, depth: 0, into: &extra, playlistsOnly: true) { _ in }
            result.playlists += extra.playlists
            result.skipped += extra.skipped
        }
        result.tracks = sorted(result.tracks)
        result.playlists.sort { NaturalOrder.less($0.name, $1.name) }
        return result
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
        tracks.sorted { a, b in
            let (fa, na) = split(a.path), (fb, nb) = split(b.path)
            let folder = NaturalOrder.compare(fa, fb)
            if folder != 0 { return folder < 0 }
            if (a.discNumber ?? 1) != (b.discNumber ?? 1) { return (a.discNumber ?? 1) < (b.discNumber ?? 1) }
            if a.trackNumber != b.trackNumber, let x = a.trackNumber, let y = b.trackNumber { return x < y }
            return NaturalOrder.less(na, nb)
        }
    }

    private static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    private static func walk(_ folder: String, depth: Int, into result: inout LibraryScan, playlistsOnly: Bool = false,
                             afterFolder: ([LibraryTrack]) -> Void) {
        guard depth < maximumDepth, let dir = opendir(folder) else {
            if depth == 0 { result.skipped.append("\(folder): cannot open folder: \(Errno.current)") }
            return
        }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(".") { continue }  // ., .., hidden files and folders
            names.append(name)
        }
        closedir(dir)
        names.sort(by: NaturalOrder.less)
        var subfolders: [String] = []
        for name in names {
            let path = folder + "/" + name
            var st = stat()
            guard stat(path, &st) == 0 else { continue }
            if (st.st_mode & S_IFMT) == S_IFDIR { subfolders.append(path); continue }
            guard (st.st_mode & S_IFMT) == S_IFREG else { continue }
            let ext = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
            if playlistExtensions.contains(ext) {
                do { result.playlists.append(try M3UPlaylist.read(path)) } catch { result.skipped.append("\(error)") }
                continue
            }
            if playlistsOnly { continue }
            do {
                let metadata = try AudioFile.metadata(path)
                result.tracks.append(LibraryTrack(path: path, discNumber: metadata.discNumber, trackNumber: metadata.trackNumber))
            } catch let error as MediaError {
                switch error {
                case .unrecognised, .empty, .unsupported: if !audioExtensions.contains(ext) { continue }
                default: break
                }
                result.skipped.append(error.description)
            } catch {
                result.skipped.append("\(path): \(error)")
            }
        }
        afterFolder(result.tracks)
        for sub in subfolders { walk(sub, depth: depth + 1, into: &result, playlistsOnly: playlistsOnly, afterFolder: afterFolder) }
    }
}
