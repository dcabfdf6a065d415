#if canImport(Glibc)
import Glibc
#endif

/// M3U/M3U8 playlists: one path or http(s) URL per line, relative to the playlist's folder; `#EXTINF`
/// and other `#` lines are comments here. A line is read as UTF-8 (M3U8); a line that is
/// not UTF-8 names the file with exactly those bytes if there is one (a Latin-1 name on a
/// Linux disk), else is read as Latin-1 (a Windows playlist for files with UTF-8 names).
public struct M3UPlaylist: Sendable, Equatable {
    public var name: String
    public var path: String
    public var entries: [String]

    public static func read(_ path: String) throws -> M3UPlaylist {
        var bytes = try FileReader.contents(of: path, limit: 4 << 20)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var entries: [String] = []
        for raw in bytes.split(whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
            let line = entry(raw).trimmingSpaces
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            if NetworkPlayback.isURL(line) {
                entries.append(line)  // a track on a web server, downloaded when it plays
                continue
            }
            if line.firstRange(of: "://") != nil { continue }  // other schemes are not played
            entries.append(exactEntry(raw, folder: folder) ?? (line.hasPrefix("/") ? line : "\(folder)/\(line)"))
        }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let name = file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
        return M3UPlaylist(name: name, path: path, entries: entries)
    }

    /// The line as text: UTF-8, or Latin-1 when it is not UTF-8.
    private static func entry(_ line: ArraySlice<UInt8>) -> String {
        String(validating: line, as: UTF8.self) ?? String(String.UnicodeScalarView(line.map { Unicode.Scalar($0) }))
    }

    /// For a line that is not UTF-8: the path with the line's exact bytes, when such a file exists.
    private static func exactEntry(_ line: ArraySlice<UInt8>, folder: String) -> String? {
        guard String(validating: line, as: UTF8.self) == nil else { return nil }
        let name = FilePath.decode(line).trimmingSpaces
        let path = name.hasPrefix("/") ? name : "\(folder)/\(name)"
        var st = stat()
        return (try? systemCall { FilePath.withCString(path) { stat($0, &st) } }) != nil ? path : nil
    }
}
