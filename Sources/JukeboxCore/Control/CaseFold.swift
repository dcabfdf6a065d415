/// `search`'s case-insensitive tests against a value already lowercased. ASCII text (most
/// tags and names) is folded byte by byte as it is compared, without a copy; text with
/// anything else is lowercased first. A search of 10,000 tracks makes some 100,000 tests.
enum CaseFold {
    static func equal(_ text: String, _ folded: String) -> Bool {
        ascii(text, folded) { a, b in a.count == b.count && zip(a, b).allSatisfy { lower($0) == $1 } } ?? (text.lowercased() == folded)
    }

    static func hasPrefix(_ text: String, _ folded: String) -> Bool {
        ascii(text, folded) { a, b in a.count >= b.count && zip(a, b).allSatisfy { lower($0) == $1 } } ?? text.lowercased().hasPrefix(folded)
    }

    static func contains(_ text: String, _ folded: String) -> Bool {
        ascii(text, folded) { a, b in
            guard b.count <= a.count else { return false }
            guard !b.isEmpty else { return true }
            for start in 0...(a.count - b.count) where lower(a[start]) == b[0] {
                var at = 1
                while at < b.count, lower(a[start + at]) == b[at] { at += 1 }
                if at == b.count { return true }
            }
            return false
        } ?? (text.lowercased().firstRange(of: folded) != nil)  // not contains: Foundation's would link it
    }

    @inline(__always) private static func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    /// `body` on the bytes of both, when `text` is ASCII; nil otherwise.
    private static func ascii(_ text: String, _ folded: String,
                              _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool) -> Bool? {
        var text = text
        var folded = folded
        return text.withUTF8 { a in
            if a.contains(where: { $0 >= 0x80 }) { return nil }
            return folded.withUTF8 { b in body(a, b) }
        }
    }
}
