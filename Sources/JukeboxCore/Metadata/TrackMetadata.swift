/// What a file says about itself, from Vorbis comments, ID3 or RIFF INFO.
public struct TrackMetadata: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var trackNumber: Int?
    public var trackTotal: Int?
    public var discNumber: Int?
    public var discTotal: Int?
    public var date: String?
    public var genre: String?
    public var composer: String?
    public var performer: String?
    /// An internet radio station's name (`icy-name`), MPD's `Name`.
    public var stationName: String?
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
    /// This track is a chapter of a longer file: which, and where in it.
    public var chapter: ChapterPlace?

    public init() {}

    /// The picture to show: the front cover if there is one, else the first.
    public var cover: EmbeddedPicture? {
        pictures.first { $0.type == EmbeddedPicture.frontCover } ?? pictures.first
    }

    /// Fills the fields `self` lacks from `other` (ID3v2 over ID3v1, for example).
    mutating func fillGaps(from other: TrackMetadata) {
        title = title ?? other.title
        artist = artist ?? other.artist
        album = album ?? other.album
        albumArtist = albumArtist ?? other.albumArtist
        trackNumber = trackNumber ?? other.trackNumber
        trackTotal = trackTotal ?? other.trackTotal
        discNumber = discNumber ?? other.discNumber
        discTotal = discTotal ?? other.discTotal
        date = date ?? other.date
        genre = genre ?? other.genre
        composer = composer ?? other.composer
        performer = performer ?? other.performer
        if pictures.isEmpty { pictures = other.pictures }
        if lyrics.isEmpty { lyrics = other.lyrics }
        if replayGain.isEmpty { replayGain = other.replayGain }
        if chapterMarks.isEmpty { chapterMarks = other.chapterMarks }
    }

    /// Sets a number pair from text such as "3", "3/12" or " 03 / 12 ".
    static func numberPair(_ text: String) -> (Int?, Int?) {
        let parts = text.split(separator: "/", maxSplits: 1).map { $0.trimmingSpaces }
        let first = parts.first.flatMap { Int($0) }
        let second = parts.count > 1 ? Int(parts[1]) : nil
        return (first, second)
    }
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
