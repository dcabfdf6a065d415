/// The tags the box reads from files, under the names MPD's protocol gives them, in the
/// order a song lists them.
public enum MPDTag: String, CaseIterable, Sendable {
    case artist = "Artist"
    case albumArtist = "AlbumArtist"
    case title = "Title"
    case album = "Album"
    case track = "Track"
    case disc = "Disc"
    case date = "Date"
    case genre = "Genre"
    case composer = "Composer"
    case performer = "Performer"

    /// Clients write tag names in any case (`tagtypes enable artist`).
    public init?(named name: String) {
        let lowered = name.lowercased()
        guard let tag = Self.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else { return nil }
        self = tag
    }

    /// MPD's other tag names, which the box does not read: clients name them in
    /// `tagtypes enable/disable` (mpc disables Name), and that is no mistake.
    static let otherNames: Set<String> = Set([
        "ArtistSort", "AlbumSort", "AlbumArtistSort", "Name", "OriginalDate", "ComposerSort", "Conductor", "Work",
        "Movement", "MovementNumber", "Ensemble", "Location", "Grouping", "Comment", "Label", "MUSICBRAINZ_ARTISTID",
        "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_ALBUMARTISTID", "MUSICBRAINZ_TRACKID", "MUSICBRAINZ_RELEASETRACKID",
        "MUSICBRAINZ_WORKID",
    ].map { $0.lowercased() })

    /// Whether MPD knows the name, read here or not.
    static func isKnown(_ name: String) -> Bool { MPDTag(named: name) != nil || otherNames.contains(name.lowercased()) }

    /// The value a filter matches and `list` and `count` group by, as MPD takes it: a song
    /// without an album artist is under its artist. Songs themselves list what they hold.
    public func matchedValue(in t: SongTags) -> String? {
        self == .albumArtist ? t.albumArtist ?? t.artist : value(in: t)
    }

    public func value(in t: SongTags) -> String? {
        switch self {
        case .artist: t.artist
        case .albumArtist: t.albumArtist
        case .title: t.title
        case .album: t.album
        case .track: t.track.map(String.init)
        case .disc: t.disc.map(String.init)
        case .date: t.date
        case .genre: t.genre
        case .composer: t.composer
        case .performer: t.performer
        }
    }
}
