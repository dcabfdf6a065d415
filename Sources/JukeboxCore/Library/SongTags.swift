/// What the library keeps of each track for clients to browse and search: its tag values
/// (several for a tag that has several), its length, its format and the file's time,
/// without pictures or lyrics (those are read when it plays).
///
/// A library of 100,000 tracks keeps this for each of them, once in the folder records
/// and once in the track list: so the value is one reference to a single allocation
/// holding every field (the values packed as UTF-8), shared by every copy, and a copy
/// costs a pointer. A change makes a new allocation (tags change only when read).
/// (Sendable unchecked: ManagedBuffer is not, but a `PackedTags` is never changed once made.)
public struct SongTags: TagValues, @unchecked Sendable, Equatable {
    /// Nil for nothing known at all.
    private var packed: PackedTags?

    public init() {}

    /// The offered tags of `m` (MPD's Comment is left out, as MPD leaves it), its track
    /// and disc numbers, and `info`'s length and format. `modified`: the file's time, in
    /// seconds since 1970.
    public init(_ m: TrackMetadata, info: StreamInfo?, modified: Int? = nil) {
        var entries = m.tags.filter { $0.tag != .comment }.map { Entry(code: $0.tag.code, value: $0.value) }
        if m.first(.track) == nil, let n = m.trackNumber { entries.append(Entry(code: MPDTag.track.code, value: String(n))) }
        if m.first(.disc) == nil, let n = m.discNumber { entries.append(Entry(code: MPDTag.disc.code, value: String(n))) }
        if let info {
            entries.append(Entry(code: Entry.format, value: "\(info.sampleRate):\(info.sampleFormat.bitsPerSample):\(info.channels)"))
        }
        var numbers = PackedTags.Numbers()
        numbers.seconds = info?.durationSeconds ?? 0
        numbers.set(track: m.trackNumber, disc: m.discNumber, modified: modified)
        packed = PackedTags.make(entries, numbers)
    }

    /// The tag's values, in the file's order.
    public func values(_ tag: MPDTag) -> [String] {
        var found: [String] = []
        packed?.forEach(code: tag.code) { found.append($0) }
        return found
    }

    public func first(_ tag: MPDTag) -> String? { packed?.first(code: tag.code) }

    public func forEachValue(of tag: MPDTag, _ body: (String) -> Void) { packed?.forEach(code: tag.code, body) }

    /// Every value with its tag, in the order they were read.
    public func forEachValue(_ body: (MPDTag, String) -> Void) {
        packed?.forEach { code, value in if let tag = MPDTag.coded(code) { body(tag, value) } }
    }

    /// The same as bytes, for a reply that writes them out as they are: no string is made
    /// for each of a 10,000-song listing's values. The bytes last only for the call.
    func forEachValueBytes(_ body: (MPDTag, UnsafeBufferPointer<UInt8>) -> Void) {
        packed?.forEachBytes { code, bytes in if let tag = MPDTag.coded(code) { body(tag, bytes) } }
    }

    public mutating func replace(_ tag: MPDTag, _ value: String?) { replace(code: tag.code, value) }

    /// A radio station's name, MPD's `Name`.
    public var name: String? { get { first(.name) } set { replace(.name, newValue) } }
    /// "44100:16:2", as MPD's `Format`.
    public var format: String? {
        get { packed?.first(code: Entry.format) }
        set { replace(code: Entry.format, newValue) }
    }

    /// The track and disc numbers, for ordering (the tags say them as the file does).
    public var track: Int? {
        get { numbers.track }
        set { var n = numbers; n.set(track: newValue, disc: n.disc, modified: n.modified); setNumbers(n) }
    }
    public var disc: Int? {
        get { numbers.disc }
        set { var n = numbers; n.set(track: n.track, disc: newValue, modified: n.modified); setNumbers(n) }
    }
    /// Seconds (0: not known).
    public var seconds: Double {
        get { numbers.seconds }
        set { var n = numbers; n.seconds = newValue; setNumbers(n) }
    }
    /// The file's modification time, seconds since 1970: MPD's `Last-Modified`.
    public var modified: Int? {
        get { numbers.modified }
        set { var n = numbers; n.set(track: n.track, disc: n.disc, modified: newValue); setNumbers(n) }
    }
    /// When the library first found the song, seconds since 1970: MPD 0.24's `Added`.
    /// Nil for a song found before the box kept it, and for a chapter, as in MPD.
    public var added: Int? {
        get { numbers.added }
        set { var n = numbers; n.added = newValue; setNumbers(n) }
    }

    /// The values as `Name=value` (the format as `format=...`, the time it was added as
    /// `added=SECONDS`), for the library index: names, not codes, so an index outlives a
    /// table that grows, and one written before `added` is read as it was.
    var indexed: [String] {
        var out: [String] = []
        if let added { out.append(Self.addedName + "=" + String(added)) }
        packed?.forEach { code, value in
            let name = code == Entry.format ? Entry.formatName : MPDTag.coded(code)?.rawValue
            if let name { out.append(name + "=" + value) }
        }
        return out
    }

    /// Reads the index's tab-separated `Name=value` fields straight from its bytes: one
    /// string made per value, none per name (a start reads 10,000 tracks' tags this way).
    mutating func readIndexed(_ line: ArraySlice<UInt8>) {
        var entries: [Entry] = []
        var header = self.numbers
        for field in line.split(separator: 0x09) {
            guard let eq = field.firstIndex(of: 0x3D) else { continue }
            let name = String(decoding: field[..<eq], as: UTF8.self)
            if name == Self.addedName {
                header.added = Int(String(decoding: field[(eq + 1)...], as: UTF8.self))
                continue
            }
            guard let code = Self.indexCodes[name] else { continue }
            entries.append(Entry(code: code, value: String(decoding: field[(eq + 1)...], as: UTF8.self)))
        }
        packed = PackedTags.make(entries, header)
    }

    /// Bytes this value holds beyond its own size (for memory bounds).
    var heapBytes: Int { packed?.allocatedBytes ?? 0 }

    /// The one allocation behind this value, which copies share (nil: none).
    var storage: ObjectIdentifier? { packed.map(ObjectIdentifier.init) }

    public static func == (a: SongTags, b: SongTags) -> Bool {
        if a.packed === b.packed { return true }
        guard let x = a.packed, let y = b.packed else { return false }
        return x.sameContents(as: y)
    }

    // MARK: Storage

    fileprivate struct Entry {
        /// Not a tag: the stream's format.
        static let format: UInt8 = 0xFF
        static let formatName = "format"
        var code: UInt8
        var value: String
    }

    /// Each name the index writes, with its code: one hashed look-up per value when a
    /// start reads 10,000 tracks' tags.
    private static let addedName = "added"

    private static let indexCodes: [String: UInt8] = Dictionary(uniqueKeysWithValues:
        MPDTag.allCases.map { ($0.rawValue, $0.code) } + [(Entry.formatName, Entry.format)])

    private var numbers: PackedTags.Numbers { packed?.header ?? PackedTags.Numbers() }

    private var entries: [Entry] {
        var out: [Entry] = []
        packed?.forEach { out.append(Entry(code: $0, value: $1)) }
        return out
    }

    private mutating func replace(code: UInt8, _ value: String?) {
        var all = entries.filter { $0.code != code }
        if let value { all.append(Entry(code: code, value: value)) }
        packed = PackedTags.make(all, numbers)
    }

    private mutating func setNumbers(_ new: PackedTags.Numbers) {
        packed = PackedTags.make(entries, new)
    }
}

/// One track's tags in one allocation: the numbers in the header (32 bytes), then each value as its
/// tag's code, its length (LEB128) and its UTF-8 bytes. Never changed once made, so
/// shared freely between threads.
private final class PackedTags: ManagedBuffer<PackedTags.Numbers, UInt8> {
    /// Fixed-size numbers with a sentinel for "none", so the header stays 32 bytes.
    struct Numbers: Equatable {
        private static let none32 = Int32.min
        private static let none64 = Int64.min
        var seconds = 0.0
        private var modifiedSeconds = none64
        private var trackNumber = none32
        private var discNumber = none32
        /// Bytes of packed values after the header.
        var count: Int32 = 0
        /// Unsigned, with 0 for none, so the header keeps its 32 bytes: good until 2106.
        private var addedSeconds: UInt32 = 0

        var track: Int? { trackNumber == Self.none32 ? nil : Int(trackNumber) }
        var disc: Int? { discNumber == Self.none32 ? nil : Int(discNumber) }
        var modified: Int? { modifiedSeconds == Self.none64 ? nil : Int(modifiedSeconds) }
        var added: Int? {
            get { addedSeconds == 0 ? nil : Int(addedSeconds) }
            set { addedSeconds = newValue.flatMap { UInt32(exactly: $0) } ?? 0 }
        }

        /// Numbers beyond 32 bits are no track or disc anyone numbered: kept as none.
        mutating func set(track: Int?, disc: Int?, modified: Int?) {
            trackNumber = track.flatMap { Int32(exactly: $0) }.flatMap { $0 == Self.none32 ? nil : $0 } ?? Self.none32
            discNumber = disc.flatMap { Int32(exactly: $0) }.flatMap { $0 == Self.none32 ? nil : $0 } ?? Self.none32
            modifiedSeconds = modified.map { Int64($0) } ?? Self.none64
        }

        var isEmpty: Bool { self == Numbers() }
    }

    /// Nil when there is nothing to keep.
    static func make(_ entries: [SongTags.Entry], _ numbers: Numbers) -> PackedTags? {
        if entries.isEmpty {
            var plain = numbers
            plain.count = 0
            if plain.isEmpty { return nil }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.reduce(0) { $0 + $1.value.utf8.count + 3 })
        for entry in entries {
            bytes.append(entry.code)
            var length = entry.value.utf8.count
            while length >= 0x80 {
                bytes.append(UInt8(length & 0x7F) | 0x80)
                length >>= 7
            }
            bytes.append(UInt8(length))
            bytes += entry.value.utf8
        }
        var header = numbers
        header.count = Int32(bytes.count)
        let made = create(minimumCapacity: bytes.count) { _ in header } as! PackedTags
        made.withUnsafeMutablePointerToElements { $0.initialize(from: bytes, count: bytes.count) }
        return made
    }

    var allocatedBytes: Int { MemoryLayout<Numbers>.stride + capacity + 16 }

    /// Each value with its code, in order.
    func forEach(_ body: (UInt8, String) -> Void) {
        walk { code, bytes in
            body(code, String(decoding: bytes, as: UTF8.self))
            return true
        }
    }

    func forEachBytes(_ body: (UInt8, UnsafeBufferPointer<UInt8>) -> Void) {
        walk { code, bytes in
            body(code, bytes)
            return true
        }
    }

    func forEach(code wanted: UInt8, _ body: (String) -> Void) {
        walk { code, bytes in
            if code == wanted { body(String(decoding: bytes, as: UTF8.self)) }
            return true
        }
    }

    func first(code wanted: UInt8) -> String? {
        var found: String?
        walk { code, bytes in
            guard code == wanted else { return true }
            found = String(decoding: bytes, as: UTF8.self)
            return false
        }
        return found
    }

    func sameContents(as other: PackedTags) -> Bool {
        guard header == other.header else { return false }
        let count = Int(header.count)
        return withUnsafeMutablePointerToElements { a in
            other.withUnsafeMutablePointerToElements { b in
                UnsafeBufferPointer(start: a, count: count).elementsEqual(UnsafeBufferPointer(start: b, count: count))
            }
        }
    }

    /// Calls `body` with each value's code and bytes until it returns false.
    private func walk(_ body: (UInt8, UnsafeBufferPointer<UInt8>) -> Bool) {
        let end = Int(header.count)
        withUnsafeMutablePointerToElements { start in
            var at = 0
            while at < end {
                let code = start[at]
                at += 1
                var length = 0, shift = 0
                while true {
                    let byte = start[at]
                    at += 1
                    length |= Int(byte & 0x7F) << shift
                    shift += 7
                    if byte < 0x80 { break }
                }
                guard body(code, UnsafeBufferPointer(start: start + at, count: length)) else { return }
                at += length
            }
        }
    }
}
