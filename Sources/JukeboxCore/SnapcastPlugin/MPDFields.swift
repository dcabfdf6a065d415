/// An MPD reply's `key: value` lines in order, repeated keys kept (a song's artists).
public struct MPDFields: Equatable, Sendable {
    public let pairs: [(key: String, value: String)]

    public init(_ lines: [String]) {
        pairs = lines.compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            var value = line[line.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
            return (String(line[..<colon]), String(value))
        }
    }

    /// The first value of `key`, its case as MPD writes it.
    public subscript(key: String) -> String? { pairs.first { $0.key == key }?.value }

    public func all(_ key: String) -> [String] { pairs.filter { $0.key == key }.map(\.value) }

    public static func == (a: MPDFields, b: MPDFields) -> Bool {
        a.pairs.elementsEqual(b.pairs) { $0.key == $1.key && $0.value == $1.value }
    }
}
