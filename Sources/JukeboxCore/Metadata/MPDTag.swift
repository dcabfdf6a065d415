/// Every tag MPD 0.24 knows, under the names its protocol gives them and in the order it
/// lists them: the one table the readers, the library, filters and replies all use.
public enum MPDTag: String, CaseIterable, Sendable {
    case artist = "Artist"
    case artistSort = "ArtistSort"
    case album = "Album"
    case albumSort = "AlbumSort"
    case albumArtist = "AlbumArtist"
    case albumArtistSort = "AlbumArtistSort"
    case title = "Title"
    case titleSort = "TitleSort"
    case track = "Track"
    case name = "Name"
    case genre = "Genre"
    case mood = "Mood"
    case date = "Date"
    case originalDate = "OriginalDate"
    case composer = "Composer"
    case composerSort = "ComposerSort"
    case performer = "Performer"
    case conductor = "Conductor"
    case work = "Work"
    case movement = "Movement"
    case movementNumber = "MovementNumber"
    case showMovement = "ShowMovement"
    case ensemble = "Ensemble"
    case location = "Location"
    case grouping = "Grouping"
    case comment = "Comment"
    case disc = "Disc"
    case label = "Label"
    case musicBrainzArtistID = "MUSICBRAINZ_ARTISTID"
    case musicBrainzAlbumID = "MUSICBRAINZ_ALBUMID"
    case musicBrainzAlbumArtistID = "MUSICBRAINZ_ALBUMARTISTID"
    case musicBrainzTrackID = "MUSICBRAINZ_TRACKID"
    case musicBrainzReleaseTrackID = "MUSICBRAINZ_RELEASETRACKID"
    case musicBrainzWorkID = "MUSICBRAINZ_WORKID"
    case musicBrainzReleaseGroupID = "MUSICBRAINZ_RELEASEGROUPID"

    /// The tags read from files and offered to clients (`tagtypes`). MPD leaves Comment
    /// out unless its configuration asks for it, and so does the box: a song's comment is
    /// often a ripper's advertisement, and clients would list it beside the title.
    public static let offered: [MPDTag] = allCases.filter { $0 != .comment }

    /// Clients write tag names in any case (`tagtypes enable artist`).
    public init?(named name: String) {
        guard let tag = Self.byLowercasedName[name.lowercased()] else { return nil }
        self = tag
    }

    private static let byLowercasedName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue.lowercased(), $0) })

    /// The tag a Vorbis comment (or an MP4 freeform atom) of this name holds: MPD's own
    /// names in any case, and the common spellings that are not.
    init?(commentName name: String) {
        switch name.uppercased() {
        case "TRACKNUMBER": self = .track
        case "DISCNUMBER": self = .disc
        case "ALBUM ARTIST", "ALBUM_ARTIST": self = .albumArtist
        case "DESCRIPTION": self = .comment
        case "YEAR": self = .date
        case "ORGANIZATION", "PUBLISHER": self = .label
        case "MUSICBRAINZ ARTIST ID": self = .musicBrainzArtistID
        case "MUSICBRAINZ ALBUM ID": self = .musicBrainzAlbumID
        case "MUSICBRAINZ ALBUM ARTIST ID": self = .musicBrainzAlbumArtistID
        case "MUSICBRAINZ TRACK ID", "MUSICBRAINZ_RELEASETRACK_ID": self = .musicBrainzTrackID
        case "MUSICBRAINZ RELEASE TRACK ID": self = .musicBrainzReleaseTrackID
        case "MUSICBRAINZ WORK ID": self = .musicBrainzWorkID
        case "MUSICBRAINZ RELEASE GROUP ID": self = .musicBrainzReleaseGroupID
        default:
            guard let tag = MPDTag(named: name) else { return nil }
            self = tag
        }
    }

    /// The one-byte code the library packs a tag under: its place in the table. Swift
    /// numbers a payload-free enum's cases in declaration order, and that number is the
    /// value's one byte (TagModelTests holds it to `allCases`). A dictionary here hashed
    /// the tag's name each time: a tenth of a 10,000-song listing.
    var code: UInt8 { unsafeBitCast(self, to: UInt8.self) }
    static func coded(_ code: UInt8) -> MPDTag? { Int(code) < table.count ? table[Int(code)] : nil }
    private static let table = allCases

    /// Where MPD looks when a song lacks this tag, in order: a song without an album
    /// artist is found, listed and counted under its artist, and so on.
    var fallbacks: [MPDTag] { Self.fallbackTable[self] ?? [] }

    /// Made once: a song's tags are matched 10,000 times a search.
    private static let fallbackTable: [MPDTag: [MPDTag]] = [
        .albumArtistSort: [.albumArtist, .artist],  // as MPD: its ArtistSort step looks at Artist
        .albumArtist: [.artist], .artistSort: [.artist], .albumSort: [.album],
        .titleSort: [.title], .composerSort: [.composer],  // MPD 0.24's
    ]

    /// The values a filter matches and `list` and `count` group by, as MPD takes them:
    /// the song's own, or else the first fallback it has. Songs themselves list what they hold.
    public func matchedValues(in t: some TagValues) -> [String] {
        var found: [String] = []
        forEachMatchedValue(in: t) { found.append($0) }
        return found
    }

    /// `matchedValues` one at a time, without an array for each of 10,000 songs; returns
    /// whether there was any.
    @discardableResult
    public func forEachMatchedValue(in t: some TagValues, _ body: (String) -> Void) -> Bool {
        var any = false
        t.forEachValue(of: self) { any = true; body($0) }
        guard !any else { return true }
        for tag in fallbacks {
            t.forEachValue(of: tag) { any = true; body($0) }
            if any { return true }
        }
        return false
    }

    /// The first of `matchedValues` (what `sort` orders by).
    public func firstMatchedValue(in t: some TagValues) -> String? {
        if let own = t.first(self) { return own }
        for tag in fallbacks { if let value = t.first(tag) { return value } }
        return nil
    }
}

/// What holds tags by MPD's table (a file's metadata, the library's packed tags), with
/// the few the box itself shows named: the first value of each.
public protocol TagValues {
    func first(_ tag: MPDTag) -> String?
    /// Every value of the tag, in the file's order.
    func values(_ tag: MPDTag) -> [String]
    /// The same, one at a time.
    func forEachValue(of tag: MPDTag, _ body: (String) -> Void)
    /// Makes `value` the tag's only value (nil: none).
    mutating func replace(_ tag: MPDTag, _ value: String?)
}

extension TagValues {
    public func forEachValue(of tag: MPDTag, _ body: (String) -> Void) { values(tag).forEach(body) }

    public var title: String? { get { first(.title) } set { replace(.title, newValue) } }
    public var artist: String? { get { first(.artist) } set { replace(.artist, newValue) } }
    public var album: String? { get { first(.album) } set { replace(.album, newValue) } }
    public var albumArtist: String? { get { first(.albumArtist) } set { replace(.albumArtist, newValue) } }
    public var date: String? { get { first(.date) } set { replace(.date, newValue) } }
    public var genre: String? { get { first(.genre) } set { replace(.genre, newValue) } }
    public var composer: String? { get { first(.composer) } set { replace(.composer, newValue) } }
    public var performer: String? { get { first(.performer) } set { replace(.performer, newValue) } }
}
