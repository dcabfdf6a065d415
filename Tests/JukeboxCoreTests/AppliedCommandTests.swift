import Testing
@testable import JukeboxCore

@Suite struct AppliedCommandTests {
    /// The log says them as the latency benchmarks and the board's scenarios read them
    /// ("pause heard … ms after the edge", "first sound").
    @Test func theLogWritesThemAsBefore() {
        #expect(AppliedCommand.allCases.map(\.description) == ["start", "pause", "resume", "seek", "stop", "volume"])
    }

    @Test func anActionIsMatchedToWhatItCanDoAtTheOutput() {
        #expect(InputActionLog.effects(of: .toggle) == [.pause, .resume, .start])
        #expect(InputActionLog.effects(of: .volumeStep(1)) == [.volume])
        #expect(InputActionLog.effects(of: .stop) == [.stop])
        #expect(InputActionLog.effects(of: .cycleMode).isEmpty)
    }

    /// What only the log reads never reaches the player's thread.
    @Test func onlyTheLogHearsWhatIsOnlyForTheLog() {
        #expect(EngineEvent.commandApplied(.volume, postedAt: 1, audibleAt: 2).isOnlyForTheLog)
        #expect(EngineEvent.underrun(total: 1).isOnlyForTheLog)
        #expect(!EngineEvent.volumeChangedOutside(30).isOnlyForTheLog)
        #expect(!EngineEvent.trackStarted(token: 1).isOnlyForTheLog)
        #expect(!EngineEvent.finished.isOnlyForTheLog)
    }
}
