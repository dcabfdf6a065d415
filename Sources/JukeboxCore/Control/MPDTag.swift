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

    public func value(in m: TrackMetadata) -> String? {
        switch self {
        case .artist: m.artist
        case .albumArtist: m.albumArtist
        case .title: m.title
        case .album: m.album
        case .track: m.trackNumber.map(String.init)
        case .disc: m.discNumber.map(String.init)
        case .date: m.date
        case .genre: m.genre
        case .composer: m.composer
        case .performer: m.performer
        }
    }
}
