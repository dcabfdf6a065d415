/// Everything the screen knows, as last told: the player's status and when it came, the
/// track's lyrics and cover, the volume box's deadline and the daemon's notices. The
/// screen service keeps one and the renderer turns it into a frame for any instant.
public struct ScreenInput: Sendable, Equatable {
    public var status: PlayerStatus?
    /// When `status` arrived (`MonotonicClock` ns): while playing, time runs on from it.
    public var statusAt: UInt64 = 0
    /// The lyrics and cover of `status.path` (nil: none, or not looked up yet).
    public var lyrics: Lyrics?
    public var cover: Cover?
    /// The volume is shown large until then, after it changed.
    public var volumeUntil: UInt64?
    /// Trouble the daemon reports ("no music found in /srv/music", a config error), shown
    /// as well as logged; the player's own (waiting for a device, output lost) come from
    /// `status`.
    public var notices: [String] = []
    /// When the sleep timer stops the music (nil: off, or not reckoned yet).
    public var sleepUntil: UInt64?
    /// The buttons and knobs are locked.
    public var keysLocked = false

    public init() {}

    /// How far into the track at `now` (the track's time runs at the playback speed).
    public func elapsed(at now: UInt64) -> Double {
        guard let status else { return 0 }
        var elapsed = status.elapsed
        if status.state == .playing, now > statusAt { elapsed += Double(now - statusAt) / 1e9 * status.speed }
        return status.duration > 0 ? min(elapsed, status.duration) : elapsed
    }
}

/// Cover art ready to draw: decoded, and named by where it came from (the cache key).
public struct Cover: Sendable, Equatable {
    public var key: String
    public var image: RGBImage
    public init(key: String, image: RGBImage) {
        self.key = key
        self.image = image
    }
}
