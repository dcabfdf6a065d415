import Foundation
import Testing
@testable import JukeboxCore

/// A card's control with 16 steps of 3 dB (−45 to 0 dB) and a switch; `knob` turns it as
/// alsamixer would.
final class SixteenStepControl: Mixer, @unchecked Sendable {
    private let lock = NSLock()
    private var raw = 15, on = true, applied: (Int, Bool)?
    private(set) var applyCount = 0
    var description: String { "'Test' 16 steps" }
    var step: Int { lock.withLock { raw } }
    var isOn: Bool { lock.withLock { on } }

    func apply(_ volume: Int) {
        lock.withLock {
            let db = VolumeMapping.decibels(for: volume, min: -45, max: 0)
            raw = Int((db / 3).rounded()) + 15
            on = volume > 0
            applied = (raw, on)
            applyCount += 1
        }
    }

    func outsideChange() -> Int? {
        lock.withLock {
            guard let applied, applied != (raw, on) else { return nil }
            self.applied = (raw, on)
            return VolumeMapping.volume(forDecibels: Double(raw - 15) * 3, min: -45, max: 0)
        }
    }

    func knob(_ step: Int) { lock.withLock { raw = step } }
}

@Suite struct VolumeMappingTests {
    @Test func decibelsAreWrittenAsPrintfWouldWriteThem() {
        #expect(decibelText(-6.5, places: 2) == "-6.50")
        #expect(decibelText(-44.999, places: 1) == "-45.0")
        #expect(decibelText(0, places: 1) == "0.0")
        #expect(decibelText(4.25, places: 2) == "4.25")
        #expect(decibelText(-99.99, places: 2) == "-99.99")
    }

    @Test func aNarrowControlIsLinearInDecibels() {
        #expect(VolumeMapping.decibels(for: 100, min: -20, max: 4) == 4)
        #expect(VolumeMapping.decibels(for: 50, min: -20, max: 4) == -8)
        #expect(VolumeMapping.decibels(for: 0, min: -20, max: 4) == -20)
        #expect(VolumeMapping.volume(forDecibels: -8, min: -20, max: 4) == 50)
    }

    /// Wider than 24 dB: the cube-root curve, as the software gain (50 is about −18 dB
    /// on a deep control), reaching the control's minimum at 0.
    @Test func aWideControlFollowsTheCubeRootCurve() {
        #expect(VolumeMapping.decibels(for: 100, min: -100, max: 0) == 0)
        #expect(abs(VolumeMapping.decibels(for: 50, min: -100, max: 0) - VolumeCurve.decibels(50)) < 1)
        #expect(VolumeMapping.decibels(for: 0, min: -100, max: 0) == -100)
        for volume in [1, 10, 33, 50, 77, 99] {
            let db = VolumeMapping.decibels(for: volume, min: -51, max: 0)
            #expect(VolumeMapping.volume(forDecibels: db, min: -51, max: 0) == volume)
        }
    }

    @Test func aControlWithoutDecibelsIsLinearInSteps() {
        #expect(VolumeMapping.raw(for: 50, min: 0, max: 31) == 16)
        #expect(VolumeMapping.raw(for: 0, min: 0, max: 31) == 0)
        #expect(VolumeMapping.volume(forRaw: 31, min: 0, max: 31) == 100)
    }

    @Test func theControlDeviceOfAPCM() {
        #expect(ALSAMixer.controlDevice(forPCM: "hw:CARD=DAC,DEV=0") == "hw:CARD=DAC")
        #expect(ALSAMixer.controlDevice(forPCM: "plughw:1,0") == "hw:1")
        #expect(ALSAMixer.controlDevice(forPCM: "hw:Loopback,0,0") == "hw:Loopback")
        #expect(ALSAMixer.controlDevice(forPCM: "default") == "default")
    }
}

@Suite(.serialized) struct HardwareMixerTests {
    let track = TrackRef(token: 1, path: Fixtures.shared.path("music16.flac"))

    final class PlayerHolder: @unchecked Sendable { var player: Player? }

    func engineOn(_ control: SixteenStepControl, log: EventLog, holder: PlayerHolder = PlayerHolder()) throws -> (AudioEngine, PluggableOutput) {
        let dac = PluggableOutput("dac")
        dac.mixer = control
        // Only the watch's doorbell (`mixerTouched`) makes it look, never the clock.
        var settings = AudioEngine.Settings()
        settings.mixerLookMilliseconds = 3_600_000
        let engine = AudioEngine(route: OutputRoute([.init(dac, isPresent: { true })]), settings: settings) { event in
            log.append(event)
            holder.player?.engineEvent(event)
        }
        try engine.start()
        return (engine, dac)
    }

    /// With a card's control, the samples pass untouched whatever the volume.
    @Test func volumeGoesToTheControlAndTheSamplesPassUntouched() throws {
        let control = SixteenStepControl(), log = EventLog()
        let (engine, dac) = try engineOn(control, log: log)
        defer { engine.shutdown() }
        engine.setVolume(60)
        engine.play(track)
        #expect(log.wait { $0.isFinished })
        let reference = try Fixtures.shared.flacReference("music16.flac")
        #expect(dac.data.prefix(reference.count) == reference)
        #expect(control.step == 15 + Int((VolumeMapping.decibels(for: 60, min: -45, max: 0) / 3).rounded()))
        #expect(engine.snapshot.mixer == "'Test' 16 steps")
        #expect(!log.all.contains { if case .volumeChangedOutside = $0 { true } else { false } })
    }

    /// 20 steps up then 20 down return exactly to where they started, on the control and
    /// in the player: the player keeps the volume asked for, the control the nearest step.
    @Test func stepsUpAndDownDoNotDrift() throws {
        let control = SixteenStepControl(), log = EventLog()
        let (engine, _) = try engineOn(control, log: log)
        defer { engine.shutdown() }
        var settings = Player.Settings()
        settings.startVolume = 0
        let player = Player(engine: engine, settings: settings)
        player.setTracks([track.path])
        player.perform(.play)
        #expect(log.wait { if case .mixerChanged = $0 { true } else { false } })
        let startStep = control.step
        for _ in 0..<20 { player.perform(.volumeStep(1)) }
        usleep(100_000)
        #expect(control.step == 15)
        for _ in 0..<20 { player.perform(.volumeStep(-1)) }
        #expect(player.status.volume == 0)
        usleep(100_000)
        #expect(control.step == startStep)
        #expect(!log.all.contains { if case .volumeChangedOutside = $0 { true } else { false } })
    }

    @Test func aChangeMadeElsewhereReachesThePlayerWithinItsLimits() throws {
        let control = SixteenStepControl(), log = EventLog(), holder = PlayerHolder()
        let (engine, _) = try engineOn(control, log: log, holder: holder)
        defer { engine.shutdown() }
        var settings = Player.Settings()
        settings.startVolume = 40
        settings.maximumVolume = 80
        let player = Player(engine: engine, settings: settings)
        holder.player = player
        player.setTracks([track.path])
        player.perform(.play)
        #expect(log.wait { if case .mixerChanged = $0 { true } else { false } })
        control.knob(10)  // −15 dB, turned in alsamixer
        engine.mixerTouched()  // as the hotplug thread's watch does
        #expect(log.wait { if case .volumeChangedOutside = $0 { true } else { false } })
        let expected = VolumeMapping.volume(forDecibels: -15, min: -45, max: 0)
        #expect(player.status.volume == expected)
        control.knob(15)  // 0 dB: above max_volume 80, brought back to it
        engine.mixerTouched()
        for _ in 0..<100 where player.status.volume != 80 { usleep(20_000) }
        #expect(player.status.volume == 80)
    }
}
