/// TOML text from an `Encodable` value, for the file the box writes again and again: the
/// state, after every change and every few seconds while playing.
///
/// TOMLKit's encoder frees nothing it builds (each value is a C++ node behind a Swift
/// struct with no deinit, and its tables and arrays have none either): heaptrack showed
/// about 17 KB lost per state write on the demo library, and a 10,000-track shuffle
/// order loses 2.2 MB a write, so RSS grew with every play and stop and every `interval`
/// while playing. Reading stays with TOMLKit, once at start. Tables are written as
/// `[sections]`, arrays on one line, tables inside arrays inline; keys keep the order
/// the type encodes them in.
struct TOMLTextEncoder {
    struct Unrepresentable: Error, CustomStringConvertible {
        var description: String
    }

    func encode<T: Encodable>(_ value: T) throws -> String {
        let root = Slot()
        try value.encode(to: TreeEncoder(slot: root, codingPath: []))
        guard case .table(let table) = root.value else { throw Unrepresentable(description: "the top of a TOML file is a table") }
        var out = ""
        write(table, at: [], into: &out)
        return out
    }

    private func write(_ table: Table, at path: [String], into out: inout String) {
        for (key, slot) in table.entries {
            if case .table = slot.value { continue }
            guard let text = inline(slot) else { continue }
            out += "\(Self.key(key)) = \(text)\n"
        }
        for (key, slot) in table.entries {
            guard case .table(let inner) = slot.value else { continue }
            let innerPath = path + [Self.key(key)]
            out += "\n[\(innerPath.joined(separator: "."))]\n"
            write(inner, at: innerPath, into: &out)
        }
    }

    private func inline(_ slot: Slot) -> String? {
        switch slot.value {
        case nil: nil
        case .literal(let text): text
        case .array(let array): "[" + array.items.compactMap(inline).joined(separator: ", ") + "]"
        case .table(let table):
            "{ " + table.entries.compactMap { key, slot in inline(slot).map { "\(Self.key(key)) = \($0)" } }.joined(separator: ", ") + " }"
        }
    }

    /// A bare key when TOML allows one, else a quoted key.
    static func key(_ name: String) -> String {
        let bare = !name.isEmpty && name.utf8.allSatisfy { c in
            (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c == 0x5f || c == 0x2d
        }
        return bare ? name : string(name)
    }

    /// A TOML basic string: quotes, backslashes and control characters escaped.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func number(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        let text = "\(value)"
        return text.contains(where: { $0 == "." || $0 == "e" }) ? text : text + ".0"
    }

    static func integer<I: BinaryInteger>(_ value: I, _ path: [any CodingKey]) throws -> String {
        guard let fits = Int64(exactly: value) else {
            throw Unrepresentable(description: "\(path.map(\.stringValue).joined(separator: ".")): \(value) is beyond TOML's 64-bit integers")
        }
        return "\(fits)"
    }
}

// MARK: - The tree the containers fill

private final class Slot {
    enum Value {
        case literal(String)
        case array(ArrayNode)
        case table(Table)
    }
    var value: Value?

    var table: Table {
        if case .table(let table) = value { return table }
        let table = Table()
        value = .table(table)
        return table
    }

    var array: ArrayNode {
        if case .array(let array) = value { return array }
        let array = ArrayNode()
        value = .array(array)
        return array
    }
}

private final class Table {
    var entries: [(key: String, slot: Slot)] = []

    func slot(_ key: String) -> Slot {
        if let found = entries.first(where: { $0.key == key }) { return found.slot }
        let slot = Slot()
        entries.append((key, slot))
        return slot
    }
}

private final class ArrayNode {
    var items: [Slot] = []

    func next() -> Slot {
        let slot = Slot()
        items.append(slot)
        return slot
    }
}

private struct TreeEncoder: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedTable<Key>(table: slot.table, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedArray(array: slot.array, codingPath: codingPath) }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValue(slot: slot, codingPath: codingPath) }
}

/// Writes a value into a slot: a literal for the scalars TOML has, else the value's own
/// encoding one level down.
private func put<T: Encodable>(_ value: T, into slot: Slot, at path: [any CodingKey]) throws {
    switch value {
    case let v as Bool: slot.value = .literal(v ? "true" : "false")
    case let v as String: slot.value = .literal(TOMLTextEncoder.string(v))
    case let v as Double: slot.value = .literal(TOMLTextEncoder.number(v))
    case let v as Float: slot.value = .literal(TOMLTextEncoder.number(Double(v)))
    case let v as Int: slot.value = .literal(try TOMLTextEncoder.integer(v, path))
    case let v as Int8: slot.value = .literal(try TOMLTextEncoder.integer(v, path))
    case let v as Int16: slot.value = .literal(try TOMLTextEncoder.integer(v, path))
    case let v as Int32: slot.value = .literal(try TOMLTextEncoder.integer(v, path))
    case let v as Int64: slot.value = .literal(try TOMLTextEncoder.integer(v, path))
    case let v as UInt: slot.value = .literal(try TOMLTextEncoder.integer(v, path))
    case let v as UInt8: slot.value = .literal(try TOMLTextEncoder.integer(v, path))
    case let v as UInt16: slot.value = .literal(try TOMLTextEncoder.integer(v, path))
    case let v as UInt32: slot.value = .literal(try TOMLTextEncoder.integer(v, path))
    case let v as UInt64: slot.value = .literal(try TOMLTextEncoder.integer(v, path))
    default: try value.encode(to: TreeEncoder(slot: slot, codingPath: path))
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String { "\(intValue ?? 0)" }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedTable<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let table: Table
    let codingPath: [any CodingKey]

    // TOML has no null: an absent key is how a nil is read back.
    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try put(value, into: table.slot(key.stringValue), at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedTable<NestedKey>(table: table.slot(key.stringValue).table, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedArray(array: table.slot(key.stringValue).array, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(slot: table.slot("super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { TreeEncoder(slot: table.slot(key.stringValue), codingPath: codingPath + [key]) }
}

private struct UnkeyedArray: UnkeyedEncodingContainer {
    let array: ArrayNode
    let codingPath: [any CodingKey]
    var count: Int { array.items.count }

    mutating func encodeNil() throws {
        throw TOMLTextEncoder.Unrepresentable(description: "\(codingPath.map(\.stringValue).joined(separator: ".")): TOML arrays cannot hold nil")
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [IndexKey(count)]
        try put(value, into: array.next(), at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [IndexKey(count)]
        return KeyedEncodingContainer(KeyedTable<NestedKey>(table: array.next().table, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [IndexKey(count)]
        return UnkeyedArray(array: array.next().array, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [IndexKey(count)]
        return TreeEncoder(slot: array.next(), codingPath: path)
    }
}

private struct SingleValue: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        throw TOMLTextEncoder.Unrepresentable(description: "\(codingPath.map(\.stringValue).joined(separator: ".")): TOML has no nil")
    }

    mutating func encode<T: Encodable>(_ value: T) throws { try put(value, into: slot, at: codingPath) }
}
