/// M3U/M3U8 playlists: one path per line, relative to the playlist's folder; `#EXTINF`
/// and other `#` lines are comments here. Read as UTF-8 (M3U8) with a Latin-1 fallback.
public struct M3UPlaylist: Sendable, Equatable {
    public var name: String
    public var path: String
    public var entries: [String]

    public static func read(_ path: String) throws -> M3UPlaylist {
        let bytes = try FileReader.contents(of: path, limit: 4 << 20)
        let text = String(validating: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes, as: UTF8.self)
            ?? String(bytes.map { Character(Unicode.Scalar($0)) })
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var entries: [String] = []
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = raw.trimmingSpaces
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            if line.contains("://") { continue }  // streams come later
            entries.append(line.hasPrefix("/") ? line : "\(folder)/\(line)")
        }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let name = file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
        return M3UPlaylist(name: name, path: path, entries: entries)
    }
}
