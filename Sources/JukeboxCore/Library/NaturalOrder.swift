/// "Track 2" before "Track 10": text compared without case, runs of digits as numbers.
public enum NaturalOrder {
    public static func less(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    public static func compare(_ a: String, _ b: String) -> Int {
        var i = a.unicodeScalars.makeIterator(), j = b.unicodeScalars.makeIterator()
        var x = i.next(), y = j.next()
        while let cx = x, let cy = y {
            if cx.properties.numericType != nil, cy.properties.numericType != nil, cx.isASCIIDigit, cy.isASCIIDigit {
                var nx = "", ny = ""
                while let c = x, c.isASCIIDigit { nx.unicodeScalars.append(c); x = i.next() }
                while let c = y, c.isASCIIDigit { ny.unicodeScalars.append(c); y = j.next() }
                let tx = nx.drop { $0 == "0" }, ty = ny.drop { $0 == "0" }
                if tx.count != ty.count { return tx.count < ty.count ? -1 : 1 }
                if tx != ty { return tx < ty ? -1 : 1 }
                continue
            }
            let lx = cx.properties.lowercaseMapping, ly = cy.properties.lowercaseMapping
            if lx != ly { return lx < ly ? -1 : 1 }
            x = i.next()
            y = j.next()
        }
        if x == nil, y == nil { return a == b ? 0 : (a < b ? -1 : 1) }
        return x == nil ? -1 : 1
    }
}

extension Unicode.Scalar {
    var isASCIIDigit: Bool { value >= 0x30 && value <= 0x39 }
}
