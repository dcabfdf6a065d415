import Logging

/// Logs each input action with the kernel timestamp of the edge that caused it, and then
/// when its effect reached the output, measured from that edge: the figure the input
/// latency benchmark reads. Actions are matched to the output's reports in order, by the
/// kind of effect each can have.
public final class InputActionLog: @unchecked Sendable {
    private let logger: Logger
    private let lock = ConditionLock()
    private var pending: [(action: InputAction, sentAt: UInt64, effects: Set<AppliedCommand>)] = []
    /// An action with no effect on the output within this time had none (a pause while paused).
    private let expiry: UInt64 = 2_000_000_000

    public init(logger: Logger) { self.logger = logger }

    public func sent(_ action: InputAction, at sentAt: UInt64) {
        let effects: Set<AppliedCommand>
        if case .player(let command) = action.command { effects = Self.effects(of: command) } else { effects = [] }
        logger.info("input: \(action.source) \(action.gesture) → \(action.command), edge at \(Self.seconds(action.edgeAt)) s")
        guard !effects.isEmpty else { return }
        lock.withLock {
            pending.removeAll { sentAt - $0.sentAt > expiry }
            pending.append((action, sentAt, effects))
        }
    }

    /// The output reports that `command` (pause, resume, seek, stop, start, volume) asked for
    /// at `postedAt` was heard from `audibleAt`.
    public func applied(_ command: AppliedCommand, postedAt: UInt64, audibleAt: UInt64) {
        let match: (action: InputAction, sentAt: UInt64, effects: Set<AppliedCommand>)? = lock.withLock {
            guard let i = pending.firstIndex(where: { $0.effects.contains(command) && $0.sentAt <= postedAt && postedAt - $0.sentAt < expiry }) else { return nil }
            return pending.remove(at: i)
        }
        guard let match, audibleAt >= match.action.edgeAt else { return }
        let total = Self.milliseconds(audibleAt - match.action.edgeAt)
        let input = Self.milliseconds(match.sentAt >= match.action.edgeAt ? match.sentAt - match.action.edgeAt : 0)
        let output = Self.milliseconds(audibleAt - postedAt)
        logger.info("input: \(match.action.source) \(command) heard \(total) ms after the edge (input \(input) ms, output \(output) ms)")
    }

    /// What an action can do at the output.
    static func effects(of command: PlayerCommand) -> Set<AppliedCommand> {
        switch command {
        case .play, .pause, .toggle, .interruptionBegan, .interruptionEnded: return [.pause, .resume, .start]
        case .stop: return [.stop]
        case .next, .previous, .playPosition, .playFrom: return [.start, .seek]
        case .seek, .skip, .seekFraction, .fastForward(.begin), .rewind(.begin): return [.seek, .start]
        case .setVolume, .volumeStep, .capVolume: return [.volume]
        case .setMode, .setOption, .setReplayGainMode, .clearError, .cycleMode, .fastForward(.end), .rewind(.end), .setSpeed, .speedStep: return []
        }
    }

    static func seconds(_ ns: UInt64) -> String {
        let micro = ns / 1000
        let fraction = String(micro % 1_000_000)
        return "\(micro / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }

    static func milliseconds(_ ns: UInt64) -> String {
        let tenths = (ns + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
