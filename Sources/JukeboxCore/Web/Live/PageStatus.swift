/// What the page shows of the box at one moment: the player's status with the parts the
/// screen adds (the sleep timer, the key lock, trouble), in the words the screen uses.
/// Sent as JSON on each change (`PageFeed`) and for `GET /api/status`.
struct PageStatus: Encodable, Equatable, Sendable {
    var state: String
    /// Changes with the track or its tags: the page fetches lyrics and cover again.
    var track: String
    var title: String
    var artist: String
    var album: String
    var file: String?
    var elapsed: Double
    var duration: Double
    var volume: Int
    var volumeMin: Int
    var volumeMax: Int
    var speed: Double
    var `repeat`: Bool
    var random: Bool
    var single: String
    var consume: String
    var sleepLeft: Double?
    var keysLocked: Bool
    /// The last card read that the cards file does not know (the Cards tab offers it).
    var unknownCard: String?
    var trouble: String?
    var position: Int?
    var length: Int
    var queueVersion: Int
    var cover: Bool

    /// What the page is told beside the player's status.
    struct Extras: Equatable, Sendable {
        var sleepUntil: UInt64?
        var keysLocked = false
        var unknownCard: String?
        /// The screen's notices (a config error with its line, a busy port...).
        var notices: [String] = []
        var volumeRange = 0...100
        var hasCover = false
    }

    init(_ status: PlayerStatus, at statusAt: UInt64, extras: Extras, library: LibraryPaths, now: UInt64) {
        state = status.state.rawValue
        let path = status.path
        let metadata = status.metadata
        track = "\(status.queueVersion)-\(status.tagChanges)-\(path.map { String(FNV1a.hash(Array($0.utf8)), radix: 16) } ?? "none")"
        if let path, StreamLines.isStream(status) {
            let lines = StreamLines(metadata, fallback: ScreenRenderer.fileTitle(path))
            title = lines.title
            artist = lines.artist
            album = lines.station
        } else if let path {
            title = metadata?.title ?? ScreenRenderer.fileTitle(path)
            artist = metadata?.artist ?? metadata?.albumArtist ?? ""
            album = metadata?.album ?? ""
        } else {
            title = "Nothing playing"
            artist = ""
            album = ""
        }
        file = path.map(library.uri)
        var elapsed = status.elapsed
        if status.state == .playing, now > statusAt { elapsed += Double(now - statusAt) / 1e9 * status.speed }
        if status.duration > 0 { elapsed = min(elapsed, status.duration) }
        self.elapsed = (elapsed * 1000).rounded() / 1000
        duration = status.duration
        volume = status.volume
        volumeMin = extras.volumeRange.lowerBound
        volumeMax = extras.volumeRange.upperBound
        speed = status.speed
        `repeat` = status.options.repeat
        random = status.options.random
        single = Self.mpdWord(status.options.single.rawValue)
        consume = Self.mpdWord(status.options.consume.rawValue)
        sleepLeft = extras.sleepUntil.map { $0 > now ? (Double($0 - now) / 1e8).rounded() / 10 : 0 }
        keysLocked = extras.keysLocked
        unknownCard = extras.unknownCard
        trouble = ScreenRenderer.trouble(status) ?? (extras.notices.isEmpty ? nil : extras.notices.joined(separator: "; "))
        position = status.queuePosition
        length = status.queueLength
        queueVersion = status.queueVersion
        cover = extras.hasCover
    }

    /// MPD's words for single and consume: "0", "1", "oneshot".
    private static func mpdWord(_ raw: String) -> String {
        switch raw {
        case "off": "0"
        case "on": "1"
        default: raw
        }
    }
}
