import Testing
@testable import JukeboxCore

@Suite struct VolumeCapsTests {
    @Test func theLowestCapHoldsAndNeverGoesUnderTheMinimum() {
        var caps = VolumeCaps()
        #expect(caps.limits(minimum: 10, maximum: 90) == 10...90)
        caps.set(.quietHours, to: 30)
        caps.set(.card, to: 50)
        #expect(caps.limits(minimum: 10, maximum: 90) == 10...30)
        caps.set(.quietHours, to: nil)
        #expect(caps.limits(minimum: 10, maximum: 90) == 10...50)
        caps.set(.card, to: 5)
        #expect(caps.limits(minimum: 10, maximum: 90) == 10...10)
    }

    /// Through the player: a cap brings a louder volume down at once, holds the knob
    /// under it, and lifting it turns nothing up by itself.
    @Test func theVolumeComesDownToACapAndStaysWhereItWasWhenLifted() {
        let engine = FakeEngine()
        var settings = Player.Settings()
        settings.startVolume = 70
        let player = Player(engine: engine, settings: settings)
        player.perform(.capVolume(.quietHours, 30))
        #expect(player.status.volume == 30)
        player.perform(.volumeStep(2))
        #expect(player.status.volume == 30)
        player.perform(.capVolume(.quietHours, nil))
        #expect(player.status.volume == 30)
        player.perform(.volumeStep(2))
        #expect(player.status.volume == 40)
    }
}
