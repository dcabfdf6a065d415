@testable import JukeboxCore

/// The input tests compare gestures' commands by the player command they carry: these
/// read as the player's own cases (`g.press == .next`).
extension InputCommand {
    static let play = InputCommand.player(.play)
    static let pause = InputCommand.player(.pause)
    static let toggle = InputCommand.player(.toggle)
    static let stop = InputCommand.player(.stop)
    static let next = InputCommand.player(.next)
    static let previous = InputCommand.player(.previous)
    static let cycleMode = InputCommand.player(.cycleMode)
    static let interruptionBegan = InputCommand.player(.interruptionBegan)
    static let interruptionEnded = InputCommand.player(.interruptionEnded)
    static func fastForward(_ phase: PlayerCommand.Phase) -> InputCommand { .player(.fastForward(phase)) }
    static func rewind(_ phase: PlayerCommand.Phase) -> InputCommand { .player(.rewind(phase)) }
    static func skip(seconds: Double) -> InputCommand { .player(.skip(seconds: seconds)) }
    static func volumeStep(_ steps: Int) -> InputCommand { .player(.volumeStep(steps)) }
    static func setVolume(_ volume: Int) -> InputCommand { .player(.setVolume(volume)) }
    static func speedStep(_ steps: Int) -> InputCommand { .player(.speedStep(steps)) }
    static func setSpeed(_ speed: Double) -> InputCommand { .player(.setSpeed(speed)) }
    static func setMode(_ mode: PlayMode) -> InputCommand { .player(.setMode(mode)) }
    static func playPosition(_ position: Int) -> InputCommand { .player(.playPosition(position)) }
}
