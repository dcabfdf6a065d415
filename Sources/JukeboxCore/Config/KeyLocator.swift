/// Finds where a key is written, for error messages: TOMLKit reports positions for syntax
/// errors only. It follows `[section]` and `[[array.of.tables]]` headers (counting the
/// entries of an array) and dotted keys (`playback.autoplay = true`, at the top or inside
/// a section), and matches the line whose full key path begins with the one asked for.
struct KeyLocator {
    /// Each header and key line, read once: a config is asked about once per entry.
    private let marks: [Mark]

    private struct Mark {
        var line: Int
        var column: Int
        /// The header's path, or the path of the header the key is under.
        var header: [String]
        /// Which entry of an array of tables the header opens (or the key is in).
        var index: Int
        /// For a key line, its full path (header + dotted key); nil for a header.
        var key: [String]?
    }

    init(text: String) {
        var marks: [Mark] = []
        var header: (path: [String], index: Int) = ([], 0)
        var entries: [[String]: Int] = [:]
        for (i, raw) in ConfigText.lines(text).enumerated() {
            // Screened by bytes first: most lines of a documented config are comments, and
            // character-level string work on each costs more than the rest of the load.
            let bytes = raw.utf8
            guard let first = bytes.firstIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { continue }
            let lead = bytes[first]
            guard lead == UInt8(ascii: "[") || (lead != UInt8(ascii: "#") && bytes.contains(UInt8(ascii: "="))) else { continue }
            let line = raw[first...]
            let column = bytes.distance(from: bytes.startIndex, to: first) + 1  // spaces and tabs: one byte each
            if lead == UInt8(ascii: "[") {
                let isArray = line.hasPrefix("[[")
                let path = Self.path(line.dropFirst(isArray ? 2 : 1).prefix { $0 != "]" })
                var n = 0
                if isArray { n = entries[path, default: 0]; entries[path] = n + 1 }
                header = (path, n)
                marks.append(Mark(line: i + 1, column: column, header: path, index: n, key: nil))
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            marks.append(Mark(line: i + 1, column: column, header: header.path, index: header.index,
                              key: header.path + Self.path(line[..<equals])))
        }
        self.marks = marks
    }

    /// The key's line and column in `section` (the `index`th entry if it is an array of
    /// tables); with no key, the entry's header. (1, 1) when not found.
    func position(section wanted: String?, index: Int = 0, key: String?) -> (line: Int, column: Int) {
        let sectionPath = wanted.map(Self.path) ?? []
        let wantedPath = sectionPath + (key.map { [$0] } ?? [])
        for mark in marks {
            guard let full = mark.key else {
                if key == nil, mark.header == sectionPath, mark.index == index { return (mark.line, mark.column) }
                // A header that opens a table under the key, `[playback.extra]` for `extra`.
                if key != nil, mark.header.count > sectionPath.count, mark.header.starts(with: wantedPath) { return (mark.line, mark.column) }
                continue
            }
            guard let key else { continue }
            // The entry of an array of tables counts only in the section that is that array.
            if mark.header == sectionPath, mark.index != index { continue }
            if full.starts(with: wantedPath), !key.isEmpty { return (mark.line, mark.column) }
        }
        if key != nil, wanted != nil { return position(section: wanted, index: index, key: nil) }
        return (1, 1)
    }

    /// `a.b."c d"` as ["a", "b", "c d"]: dots outside quotes separate the parts.
    static func path<S: StringProtocol>(_ text: S) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for ch in text {
            if let q = quote {
                if ch == q { quote = nil } else { current.append(ch) }
            } else if ch == "\"" || ch == "'" {
                quote = ch
            } else if ch == "." {
                parts.append(current.trimmingSpaces)
                current = ""
            } else {
                current.append(ch)
            }
        }
        parts.append(current.trimmingSpaces)
        return parts
    }
}
