/// The sleep timer's rules, apart from clocks and threads: what is asked (a card, a
/// button, the socket), what is playing, and the time in (`MonotonicClock` ns); what to
/// do to the audio and when to look again out. The service (`SleepTimerService`) runs it.
///
/// Minutes count from when they were asked for, playing or not. The end of a track or
/// chapter is reckoned from the player's status (elapsed, duration, speed), again at each
/// status, so a seek moves it; paused, it waits. Over the last `fadeSeconds` the level
/// falls (`SleepFade`), then playback pauses and the level is restored for the next play.
public struct SleepTimer: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// The fade before the music stops.
        public var fadeSeconds = 30.0
        /// The minutes a button steps through, press by press; the press after the last
        /// turns the timer off.
        public var steps: [Double] = [15, 30, 60]
        public init() {}
    }

    /// What the timer needs of the player's status.
    public struct Playback: Sendable, Equatable {
        public var playing: Bool
        /// The queue entry's id: another one after the end is the gapless next track.
        public var songID: Int?
        public var elapsed: Double
        public var duration: Double
        public var speed: Double
        /// Where the chapter being played ends, in seconds into the track (nil: no chapters).
        public var chapterEnd: Double?
        /// When the status was true (`MonotonicClock` ns).
        public var at: UInt64

        public init(playing: Bool, songID: Int?, elapsed: Double, duration: Double, speed: Double = 1,
                    chapterEnd: Double? = nil, at: UInt64) {
            self.playing = playing
            self.songID = songID
            self.elapsed = elapsed
            self.duration = duration
            self.speed = speed
            self.chapterEnd = chapterEnd
            self.at = at
        }

        /// The chapter's end, from the file's marks (seconds where each starts): the first
        /// after `elapsed`, else the track's end. Fewer than two marks are no chapters.
        public static func chapterEnd(marks: [Double], elapsed: Double) -> Double? {
            guard marks.count >= 2 else { return nil }
            return marks.sorted().first { $0 > elapsed + 0.001 }
        }
    }

    /// What the service does to the audio.
    public enum Action: Sendable, Equatable {
        /// Fade out over this many seconds, then hold at silence.
        case fadeOut(seconds: Double)
        /// Back to the level set (a fade called off, or after the pause).
        case restoreLevel
        case pause
        /// The gapless next track had begun before the pause: back to its start.
        case backToTrackStart
    }

    public struct Step: Sendable, Equatable {
        public var actions: [Action] = []
        /// Look again then (nil: only when the status or a request changes).
        public var wakeAt: UInt64?
    }

    private enum Armed: Sendable, Equatable {
        case at(UInt64, minutes: Double)
        case endOfTrack
        case endOfChapter
    }

    public var settings: Settings
    private var armed: Armed?
    /// The track the end is reckoned for, and when it was to end (to tell a gapless
    /// change at the end from a skip).
    private var pinned: Pin?
    private struct Pin: Sendable, Equatable {
        var songID: Int?
        var deadline: UInt64?
    }
    /// The deadline a fade under way ends at.
    private var fadingTo: UInt64?

    /// A fade ends within this of its deadline, so a timer firing a little early stops.
    static let tolerance: UInt64 = 50_000_000
    /// A new track within this of the old one's end is the gapless next, not a skip.
    static let naturalEnd: UInt64 = 1_500_000_000

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// What is set, in the socket's words (nil: off).
    public var request: SleepRequest? {
        switch armed {
        case .at(_, let minutes): .minutes(minutes)
        case .endOfTrack: .endOfTrack
        case .endOfChapter: .endOfChapter
        case nil: nil
        }
    }

    /// Sets the timer (`.off` clears it); `decide` then says what to do.
    public mutating func set(_ request: SleepRequest, now: UInt64) {
        pinned = nil
        switch request {
        case .minutes(let minutes): armed = .at(now + UInt64(minutes * 60e9), minutes: minutes)
        case .endOfTrack: armed = .endOfTrack
        case .endOfChapter: armed = .endOfChapter
        case .off: armed = nil
        }
    }

    /// A button's press: off → the first step → the next … → off after the last. Anything
    /// set otherwise (a card's end of track) starts the steps afresh.
    public mutating func step(now: UInt64) -> SleepRequest {
        let steps = settings.steps
        let next: SleepRequest
        if case .at(_, let minutes)? = armed, let i = steps.firstIndex(of: minutes) {
            next = i + 1 < steps.count ? .minutes(steps[i + 1]) : .off
        } else if armed == nil, let first = steps.first {
            next = .minutes(first)
        } else {
            next = steps.first.map(SleepRequest.minutes) ?? .off
        }
        set(next, now: now)
        return next
    }

    /// When the music stops, as things stand (nil: not set, or waiting for playback).
    public func deadline(_ playback: Playback?) -> UInt64? {
        switch armed {
        case nil: return nil
        case .at(let time, _): return time
        case .endOfTrack, .endOfChapter:
            guard let playback, playback.playing, playback.duration > 0 else { return nil }
            var end = playback.duration
            if armed == .endOfChapter, let chapterEnd = playback.chapterEnd { end = min(end, chapterEnd) }
            let seconds = max(0, end - playback.elapsed) / max(0.05, playback.speed)
            return playback.at + UInt64(seconds * 1e9)
        }
    }

    /// Seconds left until the music stops (nil: not set, or waiting for playback to reckon).
    public func secondsLeft(now: UInt64, _ playback: Playback?) -> Double? {
        deadline(playback).map { $0 > now ? Double($0 - now) / 1e9 : 0 }
    }

    /// What to do now, given the latest status.
    public mutating func decide(now: UInt64, _ playback: Playback?) -> Step {
        var step = Step()
        guard armed != nil else {
            if fadingTo != nil { step.actions.append(.restoreLevel) }
            fadingTo = nil
            return step
        }
        if armed == .endOfTrack || armed == .endOfChapter, let playback {
            if let pinned, let due = pinned.deadline, now + Self.naturalEnd >= due {
                // Another track about when the pinned one was to end is the gapless next;
                // the same one begun again (repeat one) is its next round.
                let again = pinned.songID == playback.songID && (deadline(playback) ?? 0) > due + Self.naturalEnd
                if pinned.songID != playback.songID || again { return stop(&step, backToStart: playback.songID != nil) }
            }
            if playback.songID != nil { pinned = Pin(songID: playback.songID, deadline: deadline(playback)) }
        }
        guard let deadline = deadline(playback) else {
            // Paused at the end of a track or chapter: no end to fade towards yet.
            if fadingTo != nil { step.actions.append(.restoreLevel) }
            fadingTo = nil
            return step
        }
        if now + Self.tolerance >= deadline { return stop(&step, backToStart: false) }
        let fade = UInt64(settings.fadeSeconds * 1e9)
        if now + fade >= deadline {
            // A fade already under way towards (about) this deadline goes on; one for
            // another (a seek) starts again from the level set.
            if let fadingTo, Self.distance(fadingTo, deadline) < 300_000_000 {
                step.wakeAt = deadline
                return step
            }
            if fadingTo != nil { step.actions.append(.restoreLevel) }
            step.actions.append(.fadeOut(seconds: Double(deadline - now) / 1e9))
            fadingTo = deadline
            step.wakeAt = deadline
            return step
        }
        if fadingTo != nil { step.actions.append(.restoreLevel) }
        fadingTo = nil
        step.wakeAt = deadline - fade
        return step
    }

    private mutating func stop(_ step: inout Step, backToStart: Bool) -> Step {
        armed = nil
        pinned = nil
        fadingTo = nil
        step.actions = [.pause] + (backToStart ? [.backToTrackStart] : []) + [.restoreLevel]
        return step
    }

    private static func distance(_ a: UInt64, _ b: UInt64) -> UInt64 { a > b ? a - b : b - a }
}
