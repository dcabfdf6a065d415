import Testing
@testable import JukeboxCore

/// The route's device policy on made-up events: devices are indices (0 the admin's
/// favourite), time is nanoseconds, and each test says what is present when it asks.
@Suite struct DevicePolicyTests {
    let second: UInt64 = 1_000_000_000
    let pulled = OutputError.disconnected(device: "dac")

    func policy(_ onLost: OutputLossPolicy = .pause) -> DevicePolicy {
        DevicePolicy(onLost: onLost, probeInterval: 2 * second)
    }

    /// Fails the test if the policy looks at the devices when nothing is due.
    func noLook() -> [Int] {
        Issue.record("looked at the devices when no look was due")
        return []
    }

    @Test func aPulledDeviceIsWaitedForAndPausesWhatPlayed() {
        var devices = policy()
        devices.opened("dac")
        #expect(devices.route == .playingOn("dac"))
        let movedOnOpen = devices.takeRouteMove()
        #expect(movedOnOpen)
        let loss = devices.lost(pulled, playing: true, hadDevice: true, now: 10 * second, firstChoice: "dac",
                                anotherPresent: { true }, present: { [] })
        #expect(loss == .wait)  // the pause policy waits even with another device there
        #expect(devices.awaiting == pulled)
        #expect(devices.route == .lost("dac"))
        let movedOnLoss = devices.takeRouteMove()
        #expect(movedOnLoss)
        #expect(devices.looksSoon)
    }

    @Test func carryingOnNeedsAnotherDeviceAndSomethingPlaying() {
        var devices = policy(.continue)
        #expect(devices.lost(pulled, playing: true, hadDevice: true, now: 0, firstChoice: "dac",
                             anotherPresent: { true }, present: { [1] }) == .carryOn)
        #expect(devices.awaiting == nil)
        #expect(devices.lost(pulled, playing: true, hadDevice: true, now: 0, firstChoice: "dac",
                             anotherPresent: { false }, present: { [] }) == .wait)
        var paused = policy(.continue)
        #expect(paused.lost(pulled, playing: false, hadDevice: true, now: 0, firstChoice: "dac",
                            anotherPresent: { true }, present: { [1] }) == .wait)
    }

    @Test func noDeviceAtTheStartWaitsForTheFirstChoice() {
        var devices = policy()
        _ = devices.lost(.absent(device: "dac"), playing: false, hadDevice: false, now: 0, firstChoice: "dac",
                         anotherPresent: { false }, present: { [] })
        #expect(devices.route == .waitingFor("dac"))
    }

    /// Looks on the schedule while waiting; a device that was there all along (a fallback)
    /// is not one coming back, a new one is.
    @Test func aNewDeviceEndsTheWaitOnTheSchedule() {
        var devices = policy()
        _ = devices.lost(pulled, playing: true, hadDevice: true, now: 0, firstChoice: "dac",
                         anotherPresent: { true }, present: { [1] })
        _ = devices.takeRouteMove()
        #expect(devices.look(now: second, activeIndex: nil, present: noLook, better: { nil }) == .nothing)
        #expect(devices.look(now: 2 * second, activeIndex: nil, present: { [1] }, better: { nil }) == .nothing)
        #expect(devices.look(now: 4 * second, activeIndex: nil, present: { [0, 1] }, better: { nil }) == .returned(0))
        #expect(devices.awaiting == nil)
        #expect(devices.route == .idle)
        let movedOnReturn = devices.takeRouteMove()
        #expect(movedOnReturn)
        #expect(!devices.looksSoon)
    }

    /// The fallback that goes and comes back while waiting counts as back.
    @Test func aDeviceThatGoesAndComesBackCounts() {
        var devices = policy()
        _ = devices.lost(pulled, playing: true, hadDevice: true, now: 0, firstChoice: "dac",
                         anotherPresent: { true }, present: { [1] })
        #expect(devices.look(now: 2 * second, activeIndex: nil, present: { [] }, better: { nil }) == .nothing)
        #expect(devices.look(now: 4 * second, activeIndex: nil, present: { [1] }, better: { nil }) == .returned(1))
    }

    /// An announcement looks at once; one that finds nothing yet (a card announces itself
    /// in parts) looks again every 100 ms, six times, then back to the schedule.
    @Test func anAnnouncementLooksAtOnceThenSoonAFewTimes() {
        var devices = policy()
        _ = devices.lost(pulled, playing: true, hadDevice: true, now: 0, firstChoice: "dac",
                         anotherPresent: { false }, present: { [] })
        devices.kernelAnnounced()
        var looks = 0
        #expect(devices.look(now: 1, activeIndex: nil, present: { looks += 1; return [] }, better: { nil }) == .nothing)
        var now: UInt64 = 1
        for _ in 0..<20 {
            now += DevicePolicy.quickLookInterval
            _ = devices.look(now: now, activeIndex: nil, present: { looks += 1; return [] }, better: { nil })
        }
        #expect(looks == 1 + DevicePolicy.quickLooks)
        devices.kernelAnnounced()
        #expect(devices.look(now: now + 1, activeIndex: nil, present: { [0] }, better: { nil }) == .returned(0))
    }

    /// On the favourite device nothing is looked at; on another, a look on the schedule
    /// or after an announcement finds the favourite back.
    @Test func aPreferredDeviceIsLookedForOnlyWhenOnAnother() {
        var devices = policy()
        devices.kernelAnnounced()
        #expect(devices.look(now: 10 * second, activeIndex: 0, present: noLook, better: { Issue.record("looked"); return nil }) == .nothing)
        #expect(devices.look(now: 10 * second, activeIndex: 1, present: noLook, better: { nil }) == .nothing)
        #expect(devices.look(now: 11 * second, activeIndex: 1, present: noLook, better: { 0 }) == .nothing)  // not due
        devices.kernelAnnounced()
        #expect(devices.look(now: 11 * second, activeIndex: 1, present: noLook, better: { 0 }) == .better)
    }

    /// New devices from the admin end a wait (the player may resume) and take the new
    /// loss policy.
    @Test func reroutingEndsAWait() {
        var devices = policy()
        let endedAWait = devices.rerouted(onLost: .continue)
        #expect(!endedAWait)
        _ = devices.lost(pulled, playing: true, hadDevice: true, now: 0, firstChoice: "dac",
                         anotherPresent: { false }, present: { [] })
        let endedTheWait = devices.rerouted(onLost: .continue)
        #expect(endedTheWait)
        #expect(devices.awaiting == nil)
        #expect(devices.route == .idle)
        #expect(devices.onLost == .continue)
    }
}
