/// "Track 2" before "Track 10": text compared without case or accents ("Ünïcødé" before
/// "Untagged", as MPD collates), runs of digits as numbers; names equal that way are
/// ordered by their accents and case, then their bytes.
public enum NaturalOrder {
    public static func less(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    /// Sorting a library calls this a hundred thousand times: ASCII, nearly all of a
    /// library's names, is compared by value; other scalars by their lowercase mapping.
    public static func compare(_ a: String, _ b: String) -> Int { compare(a[...], b[...]) }

    /// Parts of strings compared in place: sorting a library's paths by folder and name
    /// makes no copy of either.
    static func compare(_ a: Substring, _ b: Substring) -> Int {
        let primary = compare(a, b, foldingAccents: true)
        if primary != 0 { return primary }
        return compare(a, b, foldingAccents: false)
    }

    private static func compare(_ a: Substring, _ b: Substring, foldingAccents: Bool) -> Int {
        var i = a.unicodeScalars.makeIterator(), j = b.unicodeScalars.makeIterator()
        var x = i.next(), y = j.next()
        while let cx = x, let cy = y {
            if cx.isASCIIDigit, cy.isASCIIDigit {
                let nx = DigitRun(&x, &i), ny = DigitRun(&y, &j)
                let order = nx.compare(ny)
                if order != 0 { return order }
                continue
            }
            if cx.isASCII, cy.isASCII {
                let lx = cx.asciiLowercased, ly = cy.asciiLowercased
                if lx != ly { return lx < ly ? -1 : 1 }
            } else if foldingAccents, let bx = cx.isASCII ? cx.asciiLowercased : LatinFold.base(cx),
                      let by = cy.isASCII ? cy.asciiLowercased : LatinFold.base(cy) {
                if bx != by { return bx < by ? -1 : 1 }
            } else {
                let lx = cx.properties.lowercaseMapping, ly = cy.properties.lowercaseMapping
                if lx != ly { return lx < ly ? -1 : 1 }
            }
            x = i.next()
            y = j.next()
        }
        if x == nil, y == nil { return foldingAccents || a == b ? 0 : (a < b ? -1 : 1) }
        return x == nil ? -1 : 1
    }

    /// A run of ASCII digits read off an iterator, leading zeros dropped: its length and
    /// its digits (as text only when too long for a number).
    private struct DigitRun {
        var length = 0
        var value: UInt64 = 0
        var text: String?

        init(_ scalar: inout Unicode.Scalar?, _ rest: inout Substring.UnicodeScalarView.Iterator) {
            var digits = ""
            while let c = scalar, c.isASCIIDigit {
                if length > 0 || c != "0" {
                    length += 1
                    if length <= 18 { value = value * 10 + UInt64(c.value - 0x30) }
                    digits.unicodeScalars.append(c)
                }
                scalar = rest.next()
            }
            if length > 18 { text = digits }
        }

        func compare(_ other: DigitRun) -> Int {
            if length != other.length { return length < other.length ? -1 : 1 }
            if let a = text, let b = other.text { return a == b ? 0 : (a < b ? -1 : 1) }
            return value == other.value ? 0 : (value < other.value ? -1 : 1)
        }
    }
}

extension Unicode.Scalar {
    var isASCIIDigit: Bool { value >= 0x30 && value <= 0x39 }
    var asciiLowercased: UInt32 { value >= 0x41 && value <= 0x5A ? value + 0x20 : value }
}
