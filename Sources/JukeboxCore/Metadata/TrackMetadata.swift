/// What a file says about itself, from Vorbis comments, ID3 or RIFF INFO.
public struct TrackMetadata: TagValues, Sendable, Equatable {
    /// Every tag value the file holds, in its order, several for a tag that has several
    /// (two `ARTIST` comments); at most `TagLimits.maximumTagValues`.
    public private(set) var tags: [TagValue] = []
    public var trackNumber: Int?
    public var trackTotal: Int?
    public var discNumber: Int?
    public var discTotal: Int?

    /// An internet radio station's name (`icy-name`), MPD's `Name`.
    public var stationName: String? { get { first(.name) } set { replace(.name, newValue) } }
    /// At most `TagLimits.maximumPictures`, none over `TagLimits.maximumPictureBytes`:
    /// whatever a reader adds, what is kept stays bounded.
    public var pictures: [EmbeddedPicture] = [] {
        didSet {
            if pictures.contains(where: { $0.size > TagLimits.maximumPictureBytes }) {
                pictures.removeAll { $0.size > TagLimits.maximumPictureBytes }
            }
            if pictures.count > TagLimits.maximumPictures { pictures.removeLast(pictures.count - TagLimits.maximumPictures) }
        }
    }
    public var lyrics: [EmbeddedLyrics] = []
    /// The loudness the tags state, for ReplayGain.
    public var replayGain = ReplayGainTags()
    /// Where the file's chapters start (ID3 CHAP, a CUE sheet, MP4 chapters), at most
    /// `TagLimits.maximumChapters`; `Chapter.ranges` makes tracks of them.
    public var chapterMarks: [ChapterMark] = [] {
        didSet { if chapterMarks.count > TagLimits.maximumChapters { chapterMarks.removeLast(chapterMarks.count - TagLimits.maximumChapters) } }
    }
    /// The file's own names and values, as MPD's `readcomments` lists them: Vorbis
    /// comments, ID3v2's user texts (TXXX) and libavformat's metadata, each as written;
    /// at most `TagLimits.maximumTagValues`.
    public var rawTags: [RawTag] = [] {
        didSet {
            if rawTags.count > TagLimits.maximumTagValues { rawTags.removeLast(rawTags.count - TagLimits.maximumTagValues) }
            var bytes = 0
            if let over = rawTags.firstIndex(where: { bytes += $0.name.utf8.count + $0.value.utf8.count; return bytes > TagLimits.maximumTagBytes }) {
                rawTags.removeSubrange(over...)
            }
        }
    }
    /// This track is a chapter of a longer file: which, and where in it.
    public var chapter: ChapterPlace?

    public init() {}

    /// The picture to show: the front cover if there is one, else the first.
    public var cover: EmbeddedPicture? {
        pictures.first { $0.type == EmbeddedPicture.frontCover } ?? pictures.first
    }

    public func first(_ tag: MPDTag) -> String? { tags.first { $0.tag == tag }?.value }

    public func values(_ tag: MPDTag) -> [String] { tags.filter { $0.tag == tag }.map(\.value) }

    /// Adds one value of `tag` after those it has. A track or disc number also sets the
    /// number, when none is known yet ("3/12" gives 3 of 12).
    public mutating func add(_ tag: MPDTag, _ value: String) {
        guard fits(value) else { return }
        tags.append(TagValue(tag: tag, value: value))
        switch tag {
        case .track where trackNumber == nil:
            let (number, total) = Self.numberPair(value)
            (trackNumber, trackTotal) = (number, total ?? trackTotal)  // a TRACKTOTAL may come first
        case .disc where discNumber == nil:
            let (number, total) = Self.numberPair(value)
            (discNumber, discTotal) = (number, total ?? discTotal)
        default: break
        }
    }

    public mutating func replace(_ tag: MPDTag, _ value: String?) {
        tags.removeAll { $0.tag == tag }
        if let value, fits(value) { tags.append(TagValue(tag: tag, value: value)) }
    }

    /// Whether one more value stays within `TagLimits`' count and bytes for one file.
    private func fits(_ value: String) -> Bool {
        tags.count < TagLimits.maximumTagValues
            && tags.reduce(value.utf8.count) { $0 + $1.value.utf8.count } <= TagLimits.maximumTagBytes
    }

    /// Fills what `self` lacks from `other` (ID3v2 over ID3v1, for example): each tag it
    /// has no value of, with all of `other`'s.
    mutating func fillGaps(from other: TrackMetadata) {
        let present = Set(tags.map(\.tag))
        for entry in other.tags where !present.contains(entry.tag) && fits(entry.value) { tags.append(entry) }
        trackNumber = trackNumber ?? other.trackNumber
        trackTotal = trackTotal ?? other.trackTotal
        discNumber = discNumber ?? other.discNumber
        discTotal = discTotal ?? other.discTotal
        if pictures.isEmpty { pictures = other.pictures }
        if lyrics.isEmpty { lyrics = other.lyrics }
        if replayGain.isEmpty { replayGain = other.replayGain }
        if chapterMarks.isEmpty { chapterMarks = other.chapterMarks }
        if rawTags.isEmpty { rawTags = other.rawTags }
    }

    /// Sets a number pair from text such as "3", "3/12" or " 03 / 12 ".
    static func numberPair(_ text: String) -> (Int?, Int?) {
        let parts = text.split(separator: "/", maxSplits: 1).map { $0.trimmingSpaces }
        let first = parts.first.flatMap { Int($0) }
        let second = parts.count > 1 ? Int(parts[1]) : nil
        return (first, second)
    }
}

/// One value of one tag, as the file gave it.
public struct TagValue: Sendable, Equatable {
    public var tag: MPDTag
    public var value: String
}

/// One name and value as the file holds it (`ARTIST=Abba`, a TXXX frame), whatever tag
/// it becomes.
public struct RawTag: Sendable, Equatable {
    public var name: String
    public var value: String
}

/// An embedded picture (FLAC PICTURE block, ID3 APIC frame). The bytes stay reachable
/// for the screen; the type follows the ID3/FLAC picture-type table (3 = front cover).
public struct EmbeddedPicture: Sendable, Equatable {
    public static let frontCover = 3
    public var type: Int
    public var mimeType: String
    public var description: String
    public var data: [UInt8]

    public var size: Int { data.count }
}

/// Lyrics stored inside the audio file.
public struct EmbeddedLyrics: Sendable, Equatable {
    public enum Origin: String, Sendable {
        case vorbisLyrics = "LYRICS"
        case vorbisUnsyncedLyrics = "UNSYNCEDLYRICS"
        case id3USLT = "USLT"
        case id3SYLT = "SYLT"
        case mp4Lyrics = "©lyr"
    }

    public var origin: Origin
    /// LRC-style text; SYLT entries are rendered into LRC lines so one parser reads all.
    public var text: String
}

extension StringProtocol {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace || c == "\0" { s.removeFirst() }
        while let c = s.last, c.isWhitespace || c == "\0" { s.removeLast() }
        return String(s)
    }

    /// nil for text that is empty once trimmed: tags often hold padding only.
    var nonEmptyTrimmed: String? {
        let t = trimmingSpaces
        return t.isEmpty ? nil : t
    }
}
