import Logging

/// Buttons, encoders, interruption lines and evdev devices, on the input thread, and the
/// card readers, each on its own thread. Each start makes a fresh loop and fresh readers,
/// so a restart (after the loop died, or a live reload) requests the lines and devices
/// again and a stop releases every one of them.
final class InputService: Service, @unchecked Sendable {
    let name = "inputs"
    let policy = FailurePolicy.restarted()
    private let logger: Logger
    private let onAction: @Sendable (InputAction) -> Void
    private let current: ConditionLocked<Current>
    private struct Current {
        var config: InputConfig
        var loop: InputLoop?
        var readers: CardReaders?
    }

    /// Told what each card reader saw, from the reader's thread. Set before the first start.
    var onReport: @Sendable (ReaderReport) -> Void = { _ in }

    init(config: InputConfig, logger: Logger, onAction: @escaping @Sendable (InputAction) -> Void) {
        self.logger = logger
        self.onAction = onAction
        current = ConditionLocked(Current(config: config))
    }

    /// The inputs the next start uses (a live reload restarts it through the group).
    var config: InputConfig {
        get { current.current.config }
        set { current.withLock { $0.config = newValue } }
    }

    func start(died: @escaping @Sendable (any Error) -> Void) throws {
        let config = self.config
        guard !config.isEmpty else { return }
        let loop = InputLoop(config: config, logger: logger, onAction: onAction)
        loop.onDeath = { died($0) }
        try loop.start()
        let readers = config.readers.isEmpty ? nil : CardReaders(config.readers, logger: logger, report: onReport)
        readers?.start()
        current.withLock { $0.loop = loop; $0.readers = readers }
    }

    func stop() {
        let (loop, readers) = current.withLock { access -> (InputLoop?, CardReaders?) in
            defer { access.loop = nil; access.readers = nil }
            return (access.loop, access.readers)
        }
        readers?.stop()
        loop?.stop()
    }

    /// For the hotplug monitor: an input device or GPIO chip may have appeared.
    func devicesAnnounced(_ events: [UeventMonitor.Uevent]) {
        let (loop, readers) = current.withLock { ($0.loop, $0.readers) }
        loop?.devicesAnnounced(events)
        readers?.devicesAnnounced(events)
    }
}
