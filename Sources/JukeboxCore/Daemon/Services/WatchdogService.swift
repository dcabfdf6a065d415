import Dispatch
import Logging

/// systemd's watchdog (`WatchdogSec=`): `WATCHDOG=1` goes out only while the player's
/// queue and the audio thread both answer, so a box whose player is deadlocked or whose
/// audio thread is stuck in the driver is restarted by systemd instead of sitting silent.
/// A timer that always pinged would prove only that the timer runs.
final class WatchdogService: Service, @unchecked Sendable {
    let name = "watchdog"
    let policy = FailurePolicy.restarted()
    private let check: ConditionLocked<WatchdogCheck>
    private let logger: Logger
    private let askPlayer: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let audioThreadSeen: @Sendable () -> UInt64
    private let ping: @Sendable () -> Void
    private let queue = DispatchQueue(label: "jukebox.watchdog")
    private var timer: DispatchSourceTimer?

    /// `askPlayer` runs a closure once the player has applied what was queued before it;
    /// `audioThreadSeen` is when the audio thread last went round its loop; `ping` tells
    /// systemd all is well.
    init(interval: UInt64, logger: Logger,
         askPlayer: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
         audioThreadSeen: @escaping @Sendable () -> UInt64,
         ping: @escaping @Sendable () -> Void = Systemd.watchdogAlive) {
        check = ConditionLocked(WatchdogCheck(interval: interval))
        self.logger = logger
        self.askPlayer = askPlayer
        self.audioThreadSeen = audioThreadSeen
        self.ping = ping
    }

    convenience init(interval: UInt64, player: Player, engine: AudioEngine, logger: Logger) {
        self.init(interval: interval, logger: logger,
                  askPlayer: { answer in player.whenCaughtUp(answer) },
                  audioThreadSeen: { engine.audioThreadSeen })
    }

    func start(died: @escaping @Sendable (any Error) -> Void) {
        let period = check.current.period
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: .nanoseconds(Int(period)))
        timer.setEventHandler { [weak self] in self?.tick() }
        self.timer = timer
        timer.resume()
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    private func tick() {
        let now = MonotonicClock.now()
        let verdict = check.withLock { $0.wholeValue.judge(now: now, audioThreadSeen: audioThreadSeen()) }
        switch verdict {
        case .alive: ping()
        case .late(let part, let silentFor, let firstTime):
            if firstTime {
                logger.critical("watchdog: the \(part) has not answered for \(InputActionLog.milliseconds(silentFor)) ms; systemd will restart the box if it does not")
            }
        }
        let check = self.check
        askPlayer { check.withLock { $0.wholeValue.playerAnswered(at: MonotonicClock.now()) } }
    }
}

/// The watchdog's judgement, apart from clocks and threads so it can be tested: each tick
/// asks the player for an answer, and the next tick looks whether it came.
struct WatchdogCheck: Sendable {
    enum Verdict: Equatable {
        case alive
        /// `firstTime` is set once per stall, so the log says it once.
        case late(String, silentFor: UInt64, firstTime: Bool)
    }

    /// A quarter of what systemd allows: one late answer (a long queue replaced) still
    /// leaves time for the next tick's ping.
    let period: UInt64
    /// The audio thread goes round its loop at least every 250 ms; longer than this is a stall.
    let audioPatience: UInt64
    private var askedAt: UInt64?
    private var answeredAt: UInt64?
    private var stalled = false

    init(interval: UInt64) {
        period = max(interval / 4, 1_000_000)
        audioPatience = interval / 2
    }

    mutating func playerAnswered(at time: UInt64) { answeredAt = time }

    /// Whether to ping now. The caller then asks the player again.
    mutating func judge(now: UInt64, audioThreadSeen: UInt64) -> Verdict {
        defer { askedAt = now }
        var late: (String, UInt64)?
        if let askedAt, (answeredAt ?? 0) < askedAt {
            late = ("player", now &- askedAt)
        } else if audioThreadSeen != 0, now > audioThreadSeen, now &- audioThreadSeen > audioPatience {
            late = ("audio thread", now &- audioThreadSeen)
        }
        guard let (part, silentFor) = late else {
            stalled = false
            return .alive
        }
        defer { stalled = true }
        return .late(part, silentFor: silentFor, firstTime: !stalled)
    }
}
