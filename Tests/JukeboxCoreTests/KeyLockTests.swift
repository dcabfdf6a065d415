import Testing
@testable import JukeboxCore

@Suite struct KeyLockTests {
    let s: UInt64 = 1_000_000_000

    @Test func theSameGestureLocksAndUnlocks() {
        var lock = KeyLock()
        #expect(lock.route(.player(.next), at: 0) == .pass)
        #expect(lock.route(.box(.keyLock), at: 1) == .toggled(locked: true))
        #expect(lock.isLocked)
        #expect(lock.route(.player(.next), at: 2) == .dropped(tell: true))
        #expect(lock.route(.box(.sleepTimer), at: 3) == .dropped(tell: false))
        #expect(lock.route(.box(.keyLock), at: 4) == .toggled(locked: false))
        #expect(lock.route(.player(.next), at: 5) == .pass)
    }

    @Test func aKnobTurnedIsToldOncePerBurst() {
        var lock = KeyLock()
        _ = lock.route(.box(.keyLock), at: 0)
        let detents = (0..<30).map { lock.route(.player(.volumeStep(1)), at: s + UInt64($0) * 50_000_000) }
        #expect(detents.first == .dropped(tell: true))
        #expect(detents.dropFirst().allSatisfy { $0 == .dropped(tell: false) })
        // After a quiet spell, the next burst is told again.
        #expect(lock.route(.player(.volumeStep(1)), at: 10 * s) == .dropped(tell: true))
    }

    @Test func theEndOfAHoldStillPasses() {
        var lock = KeyLock()
        #expect(lock.route(.player(.fastForward(.begin)), at: 0) == .pass)
        _ = lock.route(.box(.keyLock), at: 1)
        #expect(lock.route(.player(.fastForward(.end)), at: 2) == .pass)
        #expect(lock.route(.player(.rewind(.begin)), at: 3) == .dropped(tell: true))
    }

    @Test func cardsFollowTheSetting() {
        let gate = KeyLockGate(cardsWhileLocked: false)
        #expect(gate.allowsCards)
        #expect(gate.route(.box(.keyLock), at: 0) == .toggled(locked: true))
        #expect(gate.isLocked)
        #expect(!gate.allowsCards)
        gate.setCardsWhileLocked(true)
        #expect(gate.allowsCards)
    }
}
