/// The few facts of a status that tell which of MPD's subsystems a change touched: small
/// and quick to make, so that the player hands it to clients waiting in `idle` before it
/// builds the whole status (titles, stream details) for everyone else.
public struct StatusDigest: Sendable, Equatable {
    public var state: PlayerState = .stopped
    public var selected: QueueSpot?
    public var path: String?
    public var hasMetadata = false
    public var queueVersion = 1
    public var options = PlayOptions()
    public var volume = 100
    public var route = RouteState.idle
    public var elapsed: Double = 0

    public init() {}

    /// Whether the place in the track moved otherwise than the clock did since `before`,
    /// `seconds` earlier: a seek (more than 1.5 s off while playing, 0.5 s otherwise).
    public func jumped(from before: StatusDigest, seconds: Double) -> Bool {
        Self.jumped(from: (before.state, before.elapsed), to: elapsed, seconds: seconds)
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
        d.path = self.path
        d.hasMetadata = self.metadata != nil
        d.queueVersion = self.queueVersion
        d.options = self.options
        d.volume = self.volume
        d.route = self.route
        d.elapsed = self.elapsed
        return d
    }
}
