import Logging

/// Buttons, encoders, interruption lines and evdev devices, on the input thread. Each
/// start makes a fresh loop, so a restart (after the loop died, or a live reload) requests
/// the lines again and a stop releases every one of them.
final class InputService: Service, @unchecked Sendable {
    let name = "inputs"
    let policy = FailurePolicy.restarted()
    private let logger: Logger
    private let onAction: @Sendable (InputAction) -> Void
    private let current: ConditionLocked<Current>
    private struct Current {
        var config: InputConfig
        var loop: InputLoop?
    }

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
        current.withLock { $0.loop = loop }
    }

    func stop() {
        let loop = current.withLock { access -> InputLoop? in
            defer { access.loop = nil }
            return access.loop
        }
        loop?.stop()
    }

    /// For the hotplug monitor: an input device or GPIO chip may have appeared.
    func devicesAnnounced(_ events: [UeventMonitor.Uevent]) {
        current.current.loop?.devicesAnnounced(events)
    }
}
