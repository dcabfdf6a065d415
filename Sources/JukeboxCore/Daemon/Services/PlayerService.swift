/// The player's timers (the progress ticker, fast-forward steps). Added first, so it stops
/// last, after everything that sends the player commands.
final class PlayerService: Service, @unchecked Sendable {
    let name = "player"
    let policy = FailurePolicy.required
    private let player: Player

    init(player: Player) { self.player = player }

    func start(died: @escaping @Sendable (any Error) -> Void) {}

    func stop() { player.close() }
}
