/// What the library keeps of each track for clients to browse and search: its tags, its
/// length and its format, without pictures or lyrics (those are read when it plays).
///
/// A library of 100,000 tracks keeps this for each of them, once in the folder records
/// and once in the track list: so the value is one reference to a single allocation
/// holding every field (the texts packed as UTF-8), shared by every copy, and a copy
/// costs a pointer. A change makes a new allocation (tags change only when read).
/// (Sendable unchecked: ManagedBuffer is not, but a `PackedTags` is never changed once made.)
public struct SongTags: @unchecked Sendable, Equatable {
    /// Nil for no tags at all (a file that carried none, and no format yet).
    private var packed: PackedTags?

    public init() {}

    public init(_ m: TrackMetadata, info: StreamInfo?) {
        var texts: [String?] = [m.title, m.artist, m.album, m.albumArtist, m.date, m.genre, m.composer, m.performer, nil, m.stationName]
        var seconds = 0.0
        if let info {
            seconds = info.durationSeconds
            texts[Field.format.rawValue] = "\(info.sampleRate):\(info.sampleFormat.bitsPerSample):\(info.channels)"
        }
        packed = PackedTags.make(texts: texts, numbers: PackedTags.Numbers(seconds: seconds, track: m.trackNumber, disc: m.discNumber))
    }

    public var title: String? { get { text(.title) } set { setText(.title, newValue) } }
    public var artist: String? { get { text(.artist) } set { setText(.artist, newValue) } }
    public var album: String? { get { text(.album) } set { setText(.album, newValue) } }
    public var albumArtist: String? { get { text(.albumArtist) } set { setText(.albumArtist, newValue) } }
    public var date: String? { get { text(.date) } set { setText(.date, newValue) } }
    public var genre: String? { get { text(.genre) } set { setText(.genre, newValue) } }
    public var composer: String? { get { text(.composer) } set { setText(.composer, newValue) } }
    public var performer: String? { get { text(.performer) } set { setText(.performer, newValue) } }
    /// "44100:16:2", as MPD's `Format`.
    public var format: String? { get { text(.format) } set { setText(.format, newValue) } }
    /// A radio station's name, MPD's `Name`: known only while it plays, never indexed.
    public var name: String? { get { text(.name) } set { setText(.name, newValue) } }

    public var track: Int? {
        get { numbers.track }
        set { var n = numbers; n.track = newValue; setNumbers(n) }
    }
    public var disc: Int? {
        get { numbers.disc }
        set { var n = numbers; n.disc = newValue; setNumbers(n) }
    }
    /// Seconds (0: not known).
    public var seconds: Double {
        get { numbers.seconds }
        set { var n = numbers; n.seconds = newValue; setNumbers(n) }
    }

    /// The text fields in a fixed order, for the library index (the station's name, never
    /// indexed, is not among them).
    var texts: [String?] {
        get { Field.indexed.map(text) }
        set {
            guard newValue.count == Field.indexed.count else { return }
            var all = allTexts
            for (field, value) in zip(Field.indexed, newValue) { all[field.rawValue] = value }
            packed = PackedTags.make(texts: all, numbers: numbers)
        }
    }

    /// Bytes this value holds beyond its own size (for memory bounds).
    var heapBytes: Int { packed?.allocatedBytes ?? 0 }

    /// The one allocation behind this value, which copies share (nil: none).
    var storage: ObjectIdentifier? { packed.map(ObjectIdentifier.init) }

    public static func == (a: SongTags, b: SongTags) -> Bool {
        if a.packed === b.packed { return true }
        return a.numbers == b.numbers && a.allTexts == b.allTexts
    }

    // MARK: Storage

    fileprivate enum Field: Int, CaseIterable {
        case title, artist, album, albumArtist, date, genre, composer, performer, format, name
        static let indexed: [Field] = [.title, .artist, .album, .albumArtist, .date, .genre, .composer, .performer, .format]
    }

    private var numbers: PackedTags.Numbers { packed?.header ?? PackedTags.Numbers() }
    private var allTexts: [String?] { Field.allCases.map(text) }

    private func text(_ field: Field) -> String? { packed?.text(field.rawValue) }

    private mutating func setText(_ field: Field, _ value: String?) {
        var all = allTexts
        all[field.rawValue] = value
        packed = PackedTags.make(texts: all, numbers: numbers)
    }

    private mutating func setNumbers(_ new: PackedTags.Numbers) {
        packed = PackedTags.make(texts: allTexts, numbers: new)
    }
}

/// One track's tags in one allocation: the numbers in the header, then each text field as
/// a length (LEB128, 0 for none, else the length plus one) and its UTF-8 bytes. Never
/// changed once made, so shared freely between threads.
private final class PackedTags: ManagedBuffer<PackedTags.Numbers, UInt8> {
    struct Numbers: Equatable {
        var seconds = 0.0
        var track: Int?
        var disc: Int?
    }

    /// Nil when there is nothing to keep.
    static func make(texts: [String?], numbers: Numbers) -> PackedTags? {
        if numbers == Numbers(), texts.allSatisfy({ $0 == nil }) { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(texts.reduce(texts.count) { $0 + ($1?.utf8.count ?? 0) + 2 })
        for text in texts {
            guard let text else { bytes.append(0); continue }
            var length = text.utf8.count + 1
            while length >= 0x80 {
                bytes.append(UInt8(length & 0x7F) | 0x80)
                length >>= 7
            }
            bytes.append(UInt8(length))
            bytes += text.utf8
        }
        let made = create(minimumCapacity: bytes.count) { _ in numbers } as! PackedTags
        made.withUnsafeMutablePointerToElements { $0.initialize(from: bytes, count: bytes.count) }
        return made
    }

    var allocatedBytes: Int { MemoryLayout<Numbers>.stride + capacity + 16 }

    /// Text field number `field`, nil when it has none.
    func text(_ field: Int) -> String? {
        withUnsafeMutablePointerToElements { start in
            var at = 0
            var wanted = 0
            while true {
                var length = 0, shift = 0
                while true {
                    let byte = start[at]
                    at += 1
                    length |= Int(byte & 0x7F) << shift
                    shift += 7
                    if byte < 0x80 { break }
                }
                if wanted == field {
                    guard length > 0 else { return nil }
                    return String(decoding: UnsafeBufferPointer(start: start + at, count: length - 1), as: UTF8.self)
                }
                at += max(0, length - 1)
                wanted += 1
            }
        }
    }
}
