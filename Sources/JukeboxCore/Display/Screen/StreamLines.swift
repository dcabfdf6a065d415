/// What the screen shows of an internet radio stream, in a file's lines: the song, its
/// artist, and the station where a file has its album. A station sends one `StreamTitle`
/// for both, mostly "Artist - Title": on the title line alone it was cut to a dozen
/// characters, the same for every song of the station.
struct StreamLines: Equatable {
    var title: String
    var artist: String
    /// The station's name (`icy-name`), unless it is the title already.
    var station: String

    /// `fallback`: the title while the stream has said neither a title nor its name.
    init(_ metadata: TrackMetadata?, fallback: String) {
        var title = metadata?.title ?? ""
        var artist = metadata?.artist ?? ""
        station = metadata?.stationName ?? ""
        if artist.isEmpty, let dash = title.firstRange(of: " - ") {
            let before = title[..<dash.lowerBound].trimmingSpaces, after = title[dash.upperBound...].trimmingSpaces
            if !before.isEmpty, !after.isEmpty { (artist, title) = (before, after) }
        }
        if title.isEmpty {
            // Between songs, or before the first title: the station is what plays.
            title = station.isEmpty ? fallback : station
            station = ""
        }
        self.title = title
        self.artist = artist
    }

    /// Whether `status` plays a live stream (a URL with no length), once it is open.
    static func isStream(_ status: PlayerStatus) -> Bool {
        guard status.info != nil, case .url? = status.location else { return false }
        return status.duration == 0
    }
}
