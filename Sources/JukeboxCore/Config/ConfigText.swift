/// Checks on the configuration file's text that TOMLKit cannot make for us: it reads a C
/// string, so a NUL byte silently ends the file there, and it never sees bytes that were
/// not UTF-8 because decoding replaced them. Both are refused with their position.
enum ConfigText {
    /// The text of `bytes`, which TOML requires to be UTF-8.
    static func decode(_ bytes: [UInt8], path: String) throws -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        parsing: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: break parsing
            case .error(let length):
                let (line, column) = position(ofByte: offset, in: bytes)
                let shown = bytes[offset..<min(offset + max(length, 1), bytes.count)]
                    .map { "0x" + String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined(separator: " ")
                throw ConfigError(path: path, line: line, column: column,
                                  reason: "bytes \(shown) are not UTF-8; save the file as UTF-8 (a folder whose name is not UTF-8 can be reached through a symlink with a UTF-8 name)")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Refuses a NUL character, which would end the file early for the TOML parser.
    static func refuseNUL(_ text: String, path: String) throws {
        let bytes = Array(text.utf8)
        guard let offset = bytes.firstIndex(of: 0) else { return }
        let (line, column) = position(ofByte: offset, in: bytes)
        throw ConfigError(path: path, line: line, column: column,
                          reason: "NUL byte in the file (is it damaged?); everything after it would be ignored")
    }

    /// The lines of `text`, split at LF or CRLF (a CRLF file's lines end without the CR).
    static func lines(_ text: String) -> [Substring] {
        // By bytes: a newline is always a character of its own, and splitting by
        // characters (grapheme clusters) costs more than the rest of loading a config.
        let bytes = text.utf8
        var lines: [Substring] = []
        var start = bytes.startIndex
        for i in bytes.indices where bytes[i] == 0x0A {
            var end = i
            if end > start, bytes[bytes.index(before: end)] == 0x0D { end = bytes.index(before: end) }
            lines.append(text[start..<end])
            start = bytes.index(after: i)
        }
        lines.append(text[start...])
        return lines
    }

    /// 1-based line and column (in characters) of the byte at `offset`.
    static func position(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let before = bytes[..<offset]
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return (line, column)
    }
}
