import Dispatch
import Logging

/// Applies quiet hours (`QuietHours`): looks at the local clock at the start, at each
/// start or end of quiet hours (and at least every ten minutes, so a clock set or summer
/// time is followed), and when the config changes; tells the player the cap, and brings
/// the volume down to `start_volume` when quiet hours begin.
public final class QuietHoursService: Service, @unchecked Sendable {
    public let name = "quiet hours"
    public let policy = FailurePolicy.optional
    private let player: Player
    private let logger: Logger
    private let clock: @Sendable () -> (time: TimeOfDay, second: Int)
    private let queue = DispatchQueue(label: "jukebox.quiet-hours")
    // Confined to `queue`.
    private var hours: QuietHours?
    private var tracker = QuietHoursTracker()
    private var wake: DispatchSourceTimer?
    private var running = false
    private var capped = false

    public init(player: Player, hours: QuietHours?, logger: Logger,
                clock: @escaping @Sendable () -> (time: TimeOfDay, second: Int) = LocalClock.now) {
        self.player = player
        self.hours = hours
        self.logger = logger
        self.clock = clock
    }

    public func start(died: @escaping @Sendable (any Error) -> Void) {
        queue.sync {
            running = true
            look()
        }
    }

    public func stop() {
        queue.sync {
            running = false
            wake?.cancel()
            wake = nil
        }
    }

    /// `[quiet_hours]` edited (nil: removed): applied at once.
    public func update(_ hours: QuietHours?) {
        queue.async { [self] in
            self.hours = hours
            if running { look() }
        }
    }

    private func look() {
        let (time, second) = clock()
        for action in tracker.look(hours, at: time) {
            switch action {
            case .cap(let cap):
                if let cap {
                    logger.notice("quiet hours: volume at most \(cap) until \(hours.map { "\($0.end)" } ?? "their end")")
                } else if capped {
                    logger.notice("quiet hours: over; the volume cap is lifted")
                }
                capped = cap != nil
                player.perform(.capVolume(.quietHours, cap))
            case .lowerVolume(let volume):
                player.perform { status in status.volume > volume ? .setVolume(volume) : nil }
            }
        }
        wake?.cancel()
        wake = nil
        guard let hours else { return }
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now() + .seconds(hours.secondsToNextLook(from: time, second: second)), leeway: .seconds(1))
        source.setEventHandler { [weak self] in self?.look() }
        source.resume()
        wake = source
    }
}
