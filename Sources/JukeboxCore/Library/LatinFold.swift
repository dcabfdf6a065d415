/// The letter under a Latin letter's accents (É, ü, ø, ł: e, u, o, l), lowercased, so that
/// names sort as MPD's collation sorts them: "Ünïcødé" beside "Unicode", before "Untagged".
/// Worked out once from the Unicode names the standard library carries ("LATIN CAPITAL
/// LETTER U WITH DIAERESIS"), for the Latin blocks; no table of our own to keep up.
enum LatinFold {
    /// The base letter of `scalar`, lowercase ASCII; nil for anything that is not a Latin
    /// letter with a mark (the caller compares those as they are).
    static func base(_ scalar: Unicode.Scalar) -> UInt32? {
        let v = scalar.value
        if v >= 0xC0 && v <= 0x24F { return latin[Int(v - 0xC0)] }
        if v >= 0x1E00 && v <= 0x1EFF { return extended[Int(v - 0x1E00)] }
        return nil
    }

    private static let latin = table(0xC0...0x24F)
    private static let extended = table(0x1E00...0x1EFF)

    private static func table(_ range: ClosedRange<UInt32>) -> [UInt32?] {
        range.map { v in Unicode.Scalar(v).flatMap { letter(named: $0.properties.name) } }
    }

    /// "LATIN SMALL LETTER O WITH STROKE" → o; "LATIN SMALL LETTER DOTLESS I" → i;
    /// "LATIN CAPITAL LETTER AE" → a (its first letter).
    private static func letter(named name: String?) -> UInt32? {
        guard let name, name.hasPrefix("LATIN "), let at = name.firstRange(of: " LETTER ") else { return nil }
        var rest = name[at.upperBound...]
        if let with = rest.firstRange(of: " WITH ") { rest = rest[..<with.lowerBound] }
        guard let word = rest.split(separator: " ").last, word.count <= 2,
              let first = word.unicodeScalars.first, first.value >= 0x41, first.value <= 0x5A else { return nil }
        return first.value + 0x20
    }
}
