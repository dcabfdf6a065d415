import Logging

/// Keys on the terminal the box was started from (the demo, a developer at a PC). Optional:
/// without a terminal the box runs as before.
final class KeyboardService: Service, @unchecked Sendable {
    let name = "keyboard"
    let policy = FailurePolicy.optional
    private let keyboard: KeyboardInput
    private let logger: Logger
    private let onAction: @Sendable (KeyboardInput.Action) -> Void

    init(skipSeconds: Double, logger: Logger, onAction: @escaping @Sendable (KeyboardInput.Action) -> Void) {
        keyboard = KeyboardInput(skipSeconds: skipSeconds)
        self.logger = logger
        self.onAction = onAction
    }

    func start(died: @escaping @Sendable (any Error) -> Void) throws {
        guard KeyboardInput.available else { return }
        try keyboard.start(onAction)
        logger.info("keys: space play/pause, n/p next/previous, ←/→ skip, +/- volume, m mode, q quit; a card's number and Enter: that card")
    }

    /// Gives the terminal back its settings; the key thread ends with the process.
    func stop() { keyboard.restore() }
}
