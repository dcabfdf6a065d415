/// Finds where a key is written, for error messages: TOMLKit reports positions for syntax
/// errors only. It follows `[section]` and `[[array.of.tables]]` headers (counting the
/// entries of an array) and dotted keys (`playback.autoplay = true`, at the top or inside
/// a section), and matches the line whose full key path begins with the one asked for.
struct KeyLocator {
    let lines: [Substring]

    init(text: String) { lines = ConfigText.lines(text) }

    /// The key's line and column in `section` (the `index`th entry if it is an array of
    /// tables); with no key, the entry's header. (1, 1) when not found.
    func position(section wanted: String?, index: Int = 0, key: String?) -> (line: Int, column: Int) {
        let sectionPath = wanted.map(Self.path) ?? []
        let wantedPath = sectionPath + (key.map { [$0] } ?? [])
        var header: (path: [String], index: Int) = ([], 0)
        var entries: [[String]: Int] = [:]
        for (i, raw) in lines.enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            let column = raw.count - line.count + 1
            if line.hasPrefix("[") {
                let isArray = line.hasPrefix("[[")
                let path = Self.path(line.dropFirst(isArray ? 2 : 1).prefix { $0 != "]" })
                var n = 0
                if isArray { n = entries[path, default: 0]; entries[path] = n + 1 }
                header = (path, n)
                if key == nil, path == sectionPath, n == index { return (i + 1, column) }
                // A header that opens a table under the key, `[playback.extra]` for `extra`.
                if key != nil, path.count > sectionPath.count, path.starts(with: wantedPath) { return (i + 1, column) }
                continue
            }
            guard let key, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            // The entry of an array of tables counts only in the section that is that array.
            if header.path == sectionPath, header.index != index { continue }
            let full = header.path + Self.path(line[..<equals])
            if full.starts(with: wantedPath), !key.isEmpty { return (i + 1, column) }
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
