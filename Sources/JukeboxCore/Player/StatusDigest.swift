/// The few facts of a status that tell which of MPD's subsystems a change touched: small
/// and quick to make, so that the player hands it to clients waiting in `idle` before it
/// builds the whole status (titles, stream details) for everyone else.
///
/// Plain bits only: the track's path and the route's device are kept as hashes, so a
/// digest (and whatever holds one) is copied as bytes, with no reference counting and no
/// calls into generic copying code on a change's way to the idle clients.
public struct StatusDigest: Sendable, Equatable, BitwiseCopyable {
    public var state: PlayerState = .stopped
    public var selected: QueueSpot?
    /// The playing track's path, hashed (`Self.hash`).
    public var path: UInt64?
    public var hasMetadata = false
    public var queueVersion = 1
    /// Moves on when the playing track's tags change as it plays (a station's new title).
    public var tagChanges = 0
    public var options = PlayOptions()
    public var volume = 100
    /// The route's kind and device, hashed (`Self.hash`; 0: idle).
    public var route: UInt64 = 0
    public var elapsed: Double = 0

    public init() {}

    /// Whether the place in the track moved otherwise than the clock did since `before`,
    /// `seconds` earlier: a seek (more than 1.5 s off while playing, 0.5 s otherwise).
    public func jumped(from before: StatusDigest, seconds: Double) -> Bool {
        Self.jumped(from: (before.state, before.elapsed), to: elapsed, seconds: seconds)
    }

    /// Tells paths apart; two that differ and hash alike (one chance in 2^64) would miss
    /// one `player` change.
    static func hash(_ path: String) -> UInt64 { FNV1a.hash(path.utf8) }

    /// The route's kind (one byte) and device, hashed as one; 0 for `idle`. The device is
    /// borrowed where it lies, not copied out.
    static func hash(_ route: RouteState) -> UInt64 {
        var hash = FNV1a()
        switch route {
        case .idle: return 0
        case .playingOn(let device): hash.add(CollectionOfOne(1)); hash.add(device.utf8)
        case .waitingFor(let device): hash.add(CollectionOfOne(2)); hash.add(device.utf8)
        case .lost(let device): hash.add(CollectionOfOne(3)); hash.add(device.utf8)
        }
        return hash.value
    }

    static func jumped(from before: (state: PlayerState, elapsed: Double), to elapsed: Double, seconds: Double) -> Bool {
        let wasPlaying = before.state == .playing
        let expected = before.elapsed + (wasPlaying ? seconds : 0)
        return abs(elapsed - expected) > (wasPlaying ? 1.5 : 0.5)
    }
}

extension PlayerStatus {
    /// This status's digest: what the player hands idle clients for it.
    public var digest: StatusDigest {
        var d = StatusDigest()
        d.state = self.state
        d.selected = self.selected
        d.path = self.path.map(StatusDigest.hash)
        d.hasMetadata = self.metadata != nil
        d.queueVersion = self.queueVersion
        d.tagChanges = self.tagChanges
        d.options = self.options
        d.volume = self.volume
        d.route = StatusDigest.hash(self.route)
        d.elapsed = self.elapsed
        return d
    }
}
