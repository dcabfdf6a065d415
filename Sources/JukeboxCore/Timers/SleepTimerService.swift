import Dispatch
import Logging

/// Runs the sleep timer (`SleepTimer`): takes the requests (a card, a button, the socket),
/// hears the player's status, and at the times the rules name fades the audio in the
/// engine, pauses the player and brings the level back. All on one queue of its own; the
/// player's observer only hands the status over. The timer is not saved: a restart
/// forgets it.
public final class SleepTimerService: Service, @unchecked Sendable {
    public let name = "sleep timer"
    public let policy = FailurePolicy.optional
    private let player: Player
    private let engine: AudioEngine
    private let logger: Logger
    private let queue = DispatchQueue(label: "jukebox.sleep")
    // Confined to `queue`.
    private var timer: SleepTimer
    private var playback: SleepTimer.Playback?
    private var wake: DispatchSourceTimer?
    /// Told (on the timer's queue) when the music is now to stop (nil: the timer is off, or
    /// waits for playback to reckon the end), for the screen.
    public var onDeadline: @Sendable (UInt64?) -> Void = { _ in }
    private var toldDeadline: UInt64??

    public init(player: Player, engine: AudioEngine, settings: SleepTimer.Settings, logger: Logger) {
        self.player = player
        self.engine = engine
        self.logger = logger
        timer = SleepTimer(settings: settings)
        let queue = self.queue
        player.observe { [weak self] event in
            guard case .changed(_, let status) = event else { return }
            let playback = Self.playback(status, at: MonotonicClock.now())
            queue.async { [weak self] in self?.statusChanged(playback) }
        }
    }

    public func start(died: @escaping @Sendable (any Error) -> Void) {}

    public func stop() {
        queue.sync {
            wake?.cancel()
            wake = nil
        }
    }

    /// A card, the socket or the screen asks.
    public func request(_ request: SleepRequest, from who: String) {
        queue.async { [self] in
            timer.set(request, now: MonotonicClock.now())
            logger.info("sleep timer: \(request) (\(who))")
            look()
        }
    }

    /// A button's press steps through `[sleep] steps`.
    public func step(from who: String) {
        queue.async { [self] in
            let chosen = timer.step(now: MonotonicClock.now())
            logger.info("sleep timer: \(chosen) (\(who))")
            look()
        }
    }

    /// What is set and the seconds left (nil: waiting for playback to reckon), for the socket.
    public func state() -> (request: SleepRequest?, secondsLeft: Double?) {
        queue.sync { (timer.request, timer.secondsLeft(now: MonotonicClock.now(), playback)) }
    }

    /// `[sleep]` edited: taken from the next request and look.
    public func updateSettings(_ settings: SleepTimer.Settings) {
        queue.async { [self] in
            timer.settings = settings
            look()
        }
    }

    private func statusChanged(_ playback: SleepTimer.Playback) {
        self.playback = playback
        look()
    }

    private func look() {
        let now = MonotonicClock.now()
        let step = timer.decide(now: now, playback)
        for action in step.actions {
            switch action {
            case .fadeOut(let seconds):
                logger.info("sleep timer: fading out over \(Int(seconds.rounded())) s")
                engine.sleepFade(seconds)
            case .restoreLevel:
                engine.sleepFade(nil)
            case .pause:
                logger.notice("sleep timer: time's up; pausing")
                // Applied before the level comes back: the engine takes its commands in order.
                player.perform(.pause)
            case .backToTrackStart:
                player.perform(.seek(seconds: 0))
            }
        }
        schedule(step.wakeAt)
        let deadline = timer.deadline(playback)
        if toldDeadline != .some(deadline) {
            toldDeadline = .some(deadline)
            onDeadline(deadline)
        }
    }

    private func schedule(_ time: UInt64?) {
        wake?.cancel()
        wake = nil
        guard let time else { return }
        let source = DispatchSource.makeTimerSource(queue: queue)
        let now = MonotonicClock.now()
        source.schedule(deadline: .now() + .nanoseconds(Int(time > now ? time - now : 0)), leeway: .milliseconds(5))
        source.setEventHandler { [weak self] in self?.look() }
        source.resume()
        wake = source
    }

    /// What the timer needs of the player's status.
    static func playback(_ status: PlayerStatus, at time: UInt64) -> SleepTimer.Playback {
        let marks = (status.metadata?.chapterMarks ?? []).filter { $0.perSecond > 0 }.map { Double($0.count) / Double($0.perSecond) }
        return SleepTimer.Playback(playing: status.state == .playing, songID: status.selected?.id, elapsed: status.elapsed,
                                   duration: status.duration, speed: status.speed,
                                   chapterEnd: SleepTimer.Playback.chapterEnd(marks: marks, elapsed: status.elapsed), at: time)
    }
}
