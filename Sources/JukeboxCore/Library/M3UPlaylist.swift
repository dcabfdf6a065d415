#if canImport(Glibc)
import Glibc
#endif

/// M3U/M3U8 and PLS playlists, told apart by their content (`[playlist]` starts a PLS):
/// one path or http(s) URL per line (M3U) or per `FileN=` (PLS), relative to the
/// playlist's folder (a stored playlist's to the music folder: `StoredPlaylists`);
/// `#EXTINF`, `TitleN=` and the rest are comments here. A line is read as UTF-8 (M3U8);
/// a line that is not UTF-8 names the file with exactly those bytes if there is one (a
/// Latin-1 name on a Linux disk), else is read as Latin-1 (a Windows playlist for files
/// with UTF-8 names).
public struct M3UPlaylist: Sendable, Equatable {
    public var name: String
    public var path: String
    public var entries: [TrackLocation]

    /// Larger files are refused; a file is read a piece at a time, never whole.
    static let sizeLimit = 4 << 20

    /// `folders`: where its relative lines are looked for, in turn (the playlist's own
    /// folder when nil); a line found in none is taken in the first.
    public static func read(_ path: String, relativeTo folders: [String]? = nil) throws -> M3UPlaylist {
        var reading = try entries(of: path, relativeTo: folders)
        var entries: [TrackLocation] = []
        while let entry = try reading.next() { entries.append(entry) }
        return M3UPlaylist(name: name(ofFile: path), path: path, entries: entries)
    }

    /// The entries of the playlist file at `path`, read as they are asked for: a long
    /// playlist is listed to a client without ever being whole in memory.
    static func entries(of path: String, relativeTo folders: [String]? = nil) throws -> FileEntries {
        let lines = try FileLines(path: path, maximumLength: 64 << 10)
        guard lines.size <= Int64(sizeLimit) else {
            throw MediaError.unsupported(path, "file is \(lines.size) bytes, larger than the \(sizeLimit)-byte limit")
        }
        return FileEntries(lines: EntryLines(lines), folders: folders ?? [ownFolder(of: path)])
    }

    static func ownFolder(of path: String) -> String { path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "." }

    /// A playlist file's entries one at a time, as paths (relative ones made absolute) or
    /// http(s) URLs; other schemes are passed over.
    struct FileEntries {
        var lines: EntryLines<FileLines>
        /// Where relative lines are looked for, in turn; never empty. The last is the
        /// playlist's own folder, where a line that climbs out of it (`../`) is taken.
        let folders: [String]

        mutating func next() throws -> TrackLocation? {
            while let (raw, line) = try lines.next() {
                switch TrackLocation(line) {
                case .url:
                    return .url(line)  // a track on a web server, downloaded when it plays
                case .file:
                    if line.firstRange(of: "://") != nil { continue }  // other schemes are not played
                    for folder in folders { if let exact = exactEntry(raw, folder: folder) { return .file(exact) } }
                    if line.hasPrefix("/") { return .file(line) }
                    if line.hasPrefix("../") { return .file("\(folders[folders.count - 1])/\(line)") }
                    // With a choice of folders, the first that holds the file (a stat each).
                    let found = folders.count > 1 ? folders.first { exists("\($0)/\(line)") } : nil
                    return .file("\(found ?? folders[0])/\(line)")
                }
            }
            return nil
        }

        private func exists(_ path: String) -> Bool {
            var st = stat()
            return FilePath.withCString(path, { stat($0, &st) }) == 0
        }
    }

    /// A playlist's name: its file name without the extension.
    static func name(ofFile path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
    }

    /// The entries of a playlist fetched from `url` (a radio station's .m3u or .pls): its
    /// URLs, and its relative lines made into URLs beside it.
    public static func entries(fetched bytes: ArraySlice<UInt8>, from url: String) -> [String] {
        let folder = url.lastIndex(of: "/").map { String(url[..<$0]) } ?? url
        var lines = EntryLines(ByteLines(bytes: bytes))
        var entries: [String] = []
        while let (_, line) = lines.next() {
            if case .url(let url) = TrackLocation(line) { entries.append(url); continue }
            if line.firstRange(of: "://") != nil || line.hasPrefix("/") { continue }
            entries.append("\(folder)/\(line)")
        }
        return entries
    }

    /// Whether `bytes` start like a playlist rather than audio.
    public static func looksLikePlaylist(_ bytes: ArraySlice<UInt8>) -> Bool {
        let head = String(decoding: withoutBOM(bytes).prefix(16), as: UTF8.self).lowercased()
        return head.hasPrefix("#extm3u") || head.hasPrefix("[playlist]") || head.hasPrefix("http://") || head.hasPrefix("https://")
    }

    /// Each entry line in order, raw and as text, without comments: an M3U's non-`#`
    /// lines as they are read, or a PLS's `FileN=` values in the order of N (a PLS is
    /// read whole at its first line to order them; its file is under `sizeLimit`).
    struct EntryLines<Lines: LineSource> {
        private var lines: Lines
        private var isPLS: Bool?  // from the first line that is not blank
        private var first = true
        /// The parts of the line being read, split at `\r`, not yet given.
        private var parts: [ArraySlice<UInt8>] = []
        private var files: [(number: Int, raw: ArraySlice<UInt8>, text: String)] = []

        init(_ lines: Lines) { self.lines = lines }

        mutating func next() throws(Lines.Failure) -> (raw: ArraySlice<UInt8>, text: String)? {
            while true {
                if isPLS == true {
                    guard !files.isEmpty else { return nil }
                    let file = files.removeFirst()
                    return (file.raw, file.text)
                }
                if parts.isEmpty {
                    guard let line = try lines.next() else { return nil }
                    parts = line.split(separator: UInt8(ascii: "\r")).reversed()
                    continue
                }
                var raw = parts.removeLast()
                if first { raw = withoutBOM(raw) }
                first = false
                let text = entry(raw).trimmingSpaces
                guard !text.isEmpty else { continue }
                if isPLS == nil, text.lowercased() == "[playlist]" {
                    isPLS = true
                    try readPLS()
                    continue
                }
                isPLS = false
                if !text.hasPrefix("#") { return (raw, text) }
            }
        }

        /// The `FileN=` values of the rest of a PLS, in the order of N.
        private mutating func readPLS() throws(Lines.Failure) {
            while true {
                for raw in parts.reversed() {
                    guard let equals = raw.firstIndex(of: UInt8(ascii: "=")) else { continue }
                    let key = entry(raw[..<equals]).trimmingSpaces.lowercased()
                    guard key.hasPrefix("file"), let number = Int(key.dropFirst(4)) else { continue }
                    let value = raw[(equals + 1)...]
                    let valueText = entry(value).trimmingSpaces
                    if !valueText.isEmpty { files.append((number, value, valueText)) }
                }
                guard let line = try lines.next() else { break }
                parts = line.split(separator: UInt8(ascii: "\r")).reversed()
            }
            parts = []
            files.sort { $0.number < $1.number }
        }
    }

    fileprivate static func withoutBOM(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes
    }

    /// The line as text: UTF-8, or Latin-1 when it is not UTF-8.
    fileprivate static func entry(_ line: ArraySlice<UInt8>) -> String {
        String(validating: line, as: UTF8.self) ?? String(String.UnicodeScalarView(line.map { Unicode.Scalar($0) }))
    }

    /// For a line that is not UTF-8: the path with the line's exact bytes, when such a file exists.
    fileprivate static func exactEntry(_ line: ArraySlice<UInt8>, folder: String) -> String? {
        guard String(validating: line, as: UTF8.self) == nil else { return nil }
        let name = FilePath.decode(line).trimmingSpaces
        let path = name.hasPrefix("/") ? name : "\(folder)/\(name)"
        var st = stat()
        return (try? systemCall { FilePath.withCString(path) { stat($0, &st) } }) != nil ? path : nil
    }
}
