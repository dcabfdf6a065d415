/// What the library keeps of each track for clients to browse and search: its tags, its
/// length and its format, without pictures or lyrics (those are read when it plays).
public struct SongTags: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var track: Int?
    public var disc: Int?
    public var date: String?
    public var genre: String?
    public var composer: String?
    public var performer: String?
    /// Seconds (0: not known).
    public var seconds: Double = 0
    /// "44100:16:2", as MPD's `Format`.
    public var format: String?
    /// A radio station's name, MPD's `Name`: known only while it plays, never indexed.
    public var name: String?

    public init() {}

    public init(_ m: TrackMetadata, info: StreamInfo?) {
        title = m.title
        artist = m.artist
        album = m.album
        albumArtist = m.albumArtist
        track = m.trackNumber
        disc = m.discNumber
        date = m.date
        genre = m.genre
        composer = m.composer
        performer = m.performer
        name = m.stationName
        if let info {
            seconds = info.durationSeconds
            format = "\(info.sampleRate):\(info.sampleFormat.bitsPerSample):\(info.channels)"
        }
    }

    /// The text fields in a fixed order, for the library index.
    var texts: [String?] {
        get { [title, artist, album, albumArtist, date, genre, composer, performer, format] }
        set {
            guard newValue.count == 9 else { return }
            (title, artist, album, albumArtist, date, genre, composer, performer, format) =
                (newValue[0], newValue[1], newValue[2], newValue[3], newValue[4], newValue[5], newValue[6], newValue[7], newValue[8])
        }
    }
}
