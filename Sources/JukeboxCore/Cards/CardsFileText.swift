/// The cards file as lines, with where each `[card.ID]` block is: for error messages with
/// a line, and to edit one block's lines while the rest of the text, comments and order
/// included, stays as the parent wrote it.
struct CardsFileText {
    let lines: [Substring]
    let blocks: [Block]

    /// One `[card.ID]` table. Comment lines right above its header belong to it (they
    /// describe the card); blank and comment lines right above the next header belong to
    /// that one.
    struct Block {
        /// The card's key as written, upper-cased when it is a valid number.
        var key: String
        /// 0-based line indices: the first comment above the header, the header, and the
        /// line after the block's last line that is not blank or a comment.
        var start: Int
        var header: Int
        var end: Int
    }

    init(_ text: String) {
        lines = ConfigText.lines(text)
        var headers: [(key: String?, line: Int)] = []
        for (i, line) in lines.enumerated() {
            let bytes = line.utf8
            guard let first = bytes.firstIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
                  bytes[first] == UInt8(ascii: "[") else { continue }
            let inside = line[first...].dropFirst().prefix { $0 != "]" }
            let path = KeyLocator.path(inside)
            headers.append((path.count == 2 && path[0] == "card" ? path[1].uppercased() : nil, i))
        }
        var blocks: [Block] = []
        for (n, header) in headers.enumerated() {
            let limit = n + 1 < headers.count ? headers[n + 1].line : lines.count
            var end = limit
            while end > header.line + 1, Self.isFiller(lines[end - 1]) { end -= 1 }
            var start = header.line
            let floor = n > 0 ? headers[n - 1].line + 1 : 0
            while start > floor, Self.isComment(lines[start - 1]) { start -= 1 }
            guard let key = header.key else { continue }
            blocks.append(Block(key: key, start: start, header: header.line, end: end))
        }
        self.blocks = blocks
    }

    /// The line (1-based) and column of `key` in the block of `card`, else its header.
    func position(card: String, key: String?) -> (line: Int, column: Int) {
        guard let block = blocks.first(where: { $0.key == card }) else { return (1, 1) }
        if let key {
            for i in block.header + 1 ..< block.end {
                let line = lines[i]
                guard let first = line.firstIndex(where: { $0 != " " && $0 != "\t" }) else { continue }
                let rest = line[first...]
                guard rest.hasPrefix(key) else { continue }
                let after = rest.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
                if after.first == "=" { return (i + 1, line.distance(from: line.startIndex, to: first) + 1) }
            }
        }
        return (block.header + 1, 1)
    }

    static func isComment(_ line: Substring) -> Bool {
        line.drop { $0 == " " || $0 == "\t" }.first == "#"
    }

    static func isFiller(_ line: Substring) -> Bool {
        let rest = line.drop { $0 == " " || $0 == "\t" }
        return rest.isEmpty || rest.first == "#"
    }
}
