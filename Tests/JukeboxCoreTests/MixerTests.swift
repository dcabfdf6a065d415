import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// A card's control with 16 steps of 3 dB (−45 to 0 dB) and a switch; `knob` turns it as
/// alsamixer would. As the kernel does, every change to it (ours too) rings its watch,
/// here a pipe the hotplug thread polls.
final class SixteenStepControl: Mixer, @unchecked Sendable {
    private let lock = NSLock()
    private var raw = 15, on = true
    private(set) var applyCount = 0
    /// What the control's watch has rung for, outside changes or not.
    private(set) var rings = 0
    private let level = MixerLevel()
    private var bell: [Int32] = [-1, -1]
    var description: String { "'Test' 16 steps" }
    var step: Int { lock.withLock { raw } }
    var isOn: Bool { lock.withLock { on } }

    init() { precondition(pipe(&bell) == 0) }
    deinit { close(bell[0]); close(bell[1]) }

    func apply(_ volume: Int) {
        level.record {
            let now: MixerLevel.Value = lock.withLock {
                let db = VolumeMapping.decibels(for: volume, min: -45, max: 0)
                raw = Int((db / 3).rounded()) + 15
                on = volume > 0
                applyCount += 1
                return MixerLevel.Value(raw: raw, on: on)
            }
            ring()
            return now
        }
    }

    func knob(_ step: Int) {
        lock.withLock { raw = step }
        ring()
    }

    func watch(reportingTo listener: MixerListener) -> MixerWatchRequest? {
        MixerWatchRequest("'Test'") { [self] in Watch(control: self, listener: listener) }
    }

    private func ring() {
        var byte: UInt8 = 1
        _ = write(bell[1], &byte, 1)
    }

    final class Watch: MixerWatch {
        let control: SixteenStepControl
        let listener: MixerListener
        init(control: SixteenStepControl, listener: MixerListener) {
            self.control = control
            self.listener = listener
        }

        var descriptors: [pollfd] { [pollfd(fd: control.bell[0], events: Int16(POLLIN), revents: 0)] }

        func readEvents(_ polled: [pollfd]) -> Bool {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(control.bell[0], &bytes, bytes.count)
            control.lock.withLock { control.rings += max(0, count) }
            let outside = control.level.outsideChange {
                control.lock.withLock { MixerLevel.Value(raw: control.raw, on: control.on) }
            }
            if let outside {
                listener.mixerChangedOutside(volume: outside.on ? VolumeMapping.volume(forDecibels: Double(outside.raw - 15) * 3, min: -45, max: 0) : 0)
            }
            return true
        }
    }
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

    /// An engine on a DAC with `control`, whose watch the real hotplug thread polls.
    func engineOn(_ control: SixteenStepControl, log: EventLog, holder: PlayerHolder = PlayerHolder()) throws -> (AudioEngine, PluggableOutput, HotplugMonitor) {
        let dac = PluggableOutput("dac")
        dac.mixer = control
        let hotplug = HotplugMonitor(logger: Logger(label: "test"))
        hotplug.start()
        let engine = AudioEngine(route: OutputRoute([.init(dac, isPresent: { true })]), mixerWatcher: hotplug) { event in
            log.append(event)
            holder.player?.engineEvent(event)
        }
        try engine.start()
        return (engine, dac, hotplug)
    }

    func outsideChanges(_ log: EventLog) -> Int {
        log.all.count { if case .volumeChangedOutside = $0 { true } else { false } }
    }

    /// With a card's control, the samples pass untouched whatever the volume.
    @Test func volumeGoesToTheControlAndTheSamplesPassUntouched() throws {
        let control = SixteenStepControl(), log = EventLog()
        let (engine, dac, hotplug) = try engineOn(control, log: log)
        defer { engine.shutdown(); hotplug.stop() }
        engine.setVolume(60)
        engine.play(track)
        #expect(log.wait { $0.isFinished })
        let reference = try Fixtures.shared.flacReference("music16.flac")
        #expect(dac.data.prefix(reference.count) == reference)
        #expect(control.step == 15 + Int((VolumeMapping.decibels(for: 60, min: -45, max: 0) / 3).rounded()))
        #expect(engine.snapshot.mixer == "'Test' 16 steps")
        #expect(outsideChanges(log) == 0)
    }

    /// 20 steps up then 20 down return exactly to where they started, on the control and
    /// in the player: the player keeps the volume asked for, the control the nearest step.
    /// Each step rings the control's watch, as the kernel does, and none comes back as a
    /// change made elsewhere.
    @Test func stepsUpAndDownDoNotDriftAndAreNotEchoed() throws {
        let control = SixteenStepControl(), log = EventLog()
        let (engine, _, hotplug) = try engineOn(control, log: log)
        defer { engine.shutdown(); hotplug.stop() }
        var settings = Player.Settings()
        settings.startVolume = 0
        let player = Player(engine: engine, settings: settings)
        player.setTracks([track.path])
        player.perform(.play)
        #expect(log.wait { if case .mixerChanged = $0 { true } else { false } })
        let startStep = control.step
        for _ in 0..<20 { player.perform(.volumeStep(1)) }
        for _ in 0..<100 where control.step != 15 { usleep(20_000) }
        #expect(control.step == 15)
        for _ in 0..<20 { player.perform(.volumeStep(-1)) }
        #expect(player.status.volume == 0)
        for _ in 0..<100 where control.rings < control.applyCount { usleep(20_000) }
        usleep(100_000)
        #expect(control.step == startStep)
        #expect(control.rings >= control.applyCount)  // the watch heard every one
        #expect(outsideChanges(log) == 0)
    }

    /// A control moved elsewhere is told once, by its watch, and the player follows it
    /// within its limits; clients hear one `mixer` change.
    @Test func aChangeMadeElsewhereReachesThePlayerWithinItsLimits() throws {
        let control = SixteenStepControl(), log = EventLog(), holder = PlayerHolder()
        let (engine, _, hotplug) = try engineOn(control, log: log, holder: holder)
        defer { engine.shutdown(); hotplug.stop() }
        var settings = Player.Settings()
        settings.startVolume = 40
        settings.maximumVolume = 80
        let player = Player(engine: engine, settings: settings)
        holder.player = player
        player.setTracks([track.path])
        player.perform(.play)
        #expect(log.wait { if case .mixerChanged = $0 { true } else { false } })
        let mixerChanges = Counter()
        player.observeChanges { if $0.contains(.mixer) { mixerChanges.add() } }
        control.knob(10)  // −15 dB, turned in alsamixer
        #expect(log.wait { if case .volumeChangedOutside = $0 { true } else { false } })
        let expected = VolumeMapping.volume(forDecibels: -15, min: -45, max: 0)
        for _ in 0..<100 where player.status.volume != expected { usleep(20_000) }
        #expect(player.status.volume == expected)
        #expect(outsideChanges(log) == 1)
        #expect(mixerChanges.value == 1)
        control.knob(15)  // 0 dB: above max_volume 80, brought back to it
        for _ in 0..<100 where player.status.volume != 80 { usleep(20_000) }
        #expect(player.status.volume == 80)
        // Bringing it back is the player's own change: not told back as an outside one.
        for _ in 0..<100 where control.rings < control.applyCount + 2 { usleep(20_000) }
        usleep(100_000)
        #expect(outsideChanges(log) == 2)
    }

    /// An outside volume is the one the audio thread sets the control at when it sets a
    /// device up again (here for a track in another format), not the one asked before.
    @Test func theNextDeviceSetupKeepsAnOutsideVolume() throws {
        let control = SixteenStepControl(), log = EventLog()
        let (engine, _, hotplug) = try engineOn(control, log: log)
        defer { engine.shutdown(); hotplug.stop() }
        engine.setVolume(100)
        engine.play(track)
        #expect(log.wait { if case .mixerChanged = $0 { true } else { false } })
        control.knob(10)
        #expect(log.wait { if case .volumeChangedOutside = $0 { true } else { false } })
        let applies = control.applyCount
        engine.play(TrackRef(token: 2, path: Fixtures.shared.path("music24.flac")))
        for _ in 0..<250 where control.applyCount == applies { usleep(20_000) }
        #expect(control.applyCount > applies)  // set up again for 96 kHz
        #expect(control.step == 10)
    }

    /// The watch compares what the kernel announces with what the mixer applied last,
    /// under one lock: an announcement of its own change is never taken for another's.
    @Test func theLevelTellsOwnChangesFromOthers() {
        let level = MixerLevel()
        #expect(level.outsideChange { .init(raw: 3, on: true) } == nil)  // nothing applied yet
        level.record { .init(raw: 5, on: true) }
        #expect(level.outsideChange { .init(raw: 5, on: true) } == nil)
        #expect(level.outsideChange { .init(raw: 5, on: false) } == .init(raw: 5, on: false))
        #expect(level.outsideChange { .init(raw: 5, on: false) } == nil)  // told once
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
