/// A place in the queue: one play of a track (its token) and a frame in it.
struct TrackPosition: Equatable {
    var token: Int
    var frame: Int64
}

/// Which frame the listener hears, worked out from what was written to the device and
/// how much of it the device still holds (its delay). Pure bookkeeping: the audio thread
/// feeds it what it wrote and took back, and asks it where the listener is.
struct PlaybackPosition {
    /// Frames written since the device was last started afresh (configured or dropped).
    private(set) var written: Int64 = 0
    /// Where each track's audio starts in `written`, oldest first, and how many of its
    /// frames each frame written stands for (the playback speed).
    private var segments: [WrittenSegment] = []
    /// Where we are while nothing is written (paused, stopped, before the first chunk).
    private(set) var resting: TrackPosition?
    /// The track the listener was last told about.
    private var announcedToken: Int?
    /// The frame heard (a mark in `written`) at the last look at the device, and when.
    private var lastLook: (mark: Int64, at: UInt64)?

    /// Starts counting afresh at `position` (a new track, a seek, a resume, a new device).
    mutating func restart(at position: TrackPosition?) {
        resting = position
        written = 0
        segments.removeAll()
        lastLook = nil
    }

    /// A new play: forget which track was announced, so its first frame is announced.
    mutating func begin(at position: TrackPosition) {
        restart(at: position)
        announcedToken = nil
    }

    /// `frames` of `token`, starting at its frame `frame`, were written; at a `speed`
    /// other than 1 each frame written stands for `speed` of the track's.
    mutating func wrote(_ frames: Int, of token: Int, from frame: Int64, speed: Double = 1) {
        if segments.last.map({ $0.token != token || $0.speed != speed }) ?? true {
            segments.append(WrittenSegment(token: token, written: written, frame: frame, speed: speed))
        }
        written += Int64(frames)
    }

    /// The device gave back `frames` not yet played (a rewind).
    mutating func tookBack(_ frames: Int) {
        written -= Int64(min(Int64(frames), written))
        segments.removeAll { $0.written > written }
    }

    /// The first `frames` of the audio just taken back were written again (faded out):
    /// the place moves on through them.
    mutating func rewrote(_ frames: Int) {
        written += Int64(frames)
    }

    /// The position heard when the device still holds `delay` frames.
    func heard(delay: Int) -> TrackPosition? {
        position(at: max(0, written - Int64(delay)))
    }

    /// Where the listener is when the device holds `delay` frames at `time` (monotonic
    /// ns); remembered, in case the device cannot be asked next time.
    mutating func look(delay: Int, at time: UInt64) -> TrackPosition? {
        let mark = max(0, written - Int64(delay))
        lastLook = (mark, time)
        return position(at: mark)
    }

    /// Where the listener got to at `time` on a device that can no longer be asked (it
    /// was pulled out): the last look, then as many frames as the clock says it went on
    /// playing, but no further than it was given (it may have run dry); then `less`
    /// frames back.
    func heardSinceLastLook(at time: UInt64, sampleRate: Int, less: Int) -> TrackPosition? {
        guard let last = lastLook else { return resting }
        let played = Int64(time - min(time, last.at)) * Int64(sampleRate) / 1_000_000_000
        return position(at: max(0, min(written, last.mark + played) - Int64(less)))
    }

    /// The position of the frame written at `mark`.
    func position(at mark: Int64) -> TrackPosition? {
        guard let segment = segments.last(where: { $0.written <= mark }) else { return resting }
        return TrackPosition(token: segment.token, frame: segment.frame + segment.tracked(mark - segment.written))
    }

    /// Whether the listener, at the last look, had reached `place`, a frame written
    /// earlier: it is heard, or behind what is kept (its track was left, or playing went
    /// on past it after a restart).
    func reached(_ place: TrackPosition) -> Bool {
        guard let heard = lastLook?.mark else { return false }
        guard let first = segments.firstIndex(where: { $0.token == place.token }), segments[first].frame <= place.frame,
              let segment = segments[first...].last(where: { $0.token == place.token && $0.frame <= place.frame }) else { return true }
        return segment.written + Int64((Double(place.frame - segment.frame) / segment.speed).rounded(.up)) <= heard
    }

    /// The token heard now if it is newly heard (to be announced once), forgetting the
    /// segments of tracks before it.
    mutating func newlyHeard(_ position: TrackPosition?) -> Int? {
        guard let position, position.token != announcedToken else { return nil }
        announcedToken = position.token
        if let at = segments.firstIndex(where: { $0.token == position.token }), at > 0 { segments.removeFirst(at) }
        return position.token
    }
}

/// A run of one track's audio in what was written.
private struct WrittenSegment {
    var token: Int
    /// Where it starts in `written`, and the track frame there.
    var written: Int64
    var frame: Int64
    /// Track frames per frame written (the playback speed).
    var speed: Double

    /// Track frames that `frames` written from its start stand for.
    func tracked(_ frames: Int64) -> Int64 {
        speed == 1 ? frames : Int64((Double(frames) * speed).rounded(.down))
    }
}
