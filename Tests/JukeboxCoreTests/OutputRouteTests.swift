import Foundation
import Testing
@testable import JukeboxCore

/// A device that can be pulled out and put back: while out, it is absent and every write
/// fails as a pulled USB DAC's does. It records what it was sent, in order.
final class PluggableOutput: AudioOutput, @unchecked Sendable {
    private let lock = NSLock()
    private var _plugged: Bool
    private var _heldElsewhere = false
    private var _data = Data()
    private var _configured = 0
    private var open = false
    let name: String
    /// A control of its own, if the test gives it one.
    var mixer: Mixer?
    var negotiated: String { name }
    var periodFrames: Int { 441 }

    init(_ name: String, plugged: Bool = true) {
        self.name = name
        _plugged = plugged
    }

    var plugged: Bool {
        get { lock.withLock { _plugged } }
        set { lock.withLock { _plugged = newValue } }
    }
    /// Another program has the device.
    var heldElsewhere: Bool {
        get { lock.withLock { _heldElsewhere } }
        set { lock.withLock { _heldElsewhere = newValue } }
    }
    var data: Data { lock.withLock { _data } }
    var timesConfigured: Int { lock.withLock { _configured } }
    var isOpen: Bool { lock.withLock { open } }
    var isDisconnected: Bool { lock.withLock { open && !_plugged } }

    func configure(_ format: OutputFormat) throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        guard _plugged else { throw .absent(device: name) }
        guard !_heldElsewhere else { throw .busy(device: name) }
        open = true
        _configured += 1
    }
    func writableFrames() -> Int { 441 }
    func nanosecondsUntilWritable(_ frames: Int) -> UInt64 { 0 }
    func write(_ frames: UnsafeRawBufferPointer) throws(OutputError) {
        lock.lock()
        guard _plugged else {
            lock.unlock()
            throw .disconnected(device: name)
        }
        _data.append(contentsOf: frames)
        lock.unlock()
        usleep(200)  // slower than decoding, so a test can act mid-track
    }
    func delay() -> Int { 0 }
    func rewind(_ frames: Int) -> Int { 0 }
    func dropAndPrepare() {}
    func drain() {}
    func close() { lock.withLock { open = false } }
}

@Suite(.serialized) struct OutputRouteTests {
    let track = TrackRef(token: 1, path: Fixtures.shared.path("music16.flac"))

    func route(_ outputs: PluggableOutput...) -> OutputRoute {
        OutputRoute(outputs.map { output in .init(output, isPresent: { output.plugged }) })
    }

    func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<2000 where !condition() { usleep(5000) }
        return condition()
    }

    @Test func routeOpensTheFirstDevicePresentAndSaysWhichIsBetter() throws {
        let dac = PluggableOutput("dac", plugged: false), headphones = PluggableOutput("headphones")
        let route = route(dac, headphones)
        try route.configure(OutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .s16))
        #expect(route.activeIndex == 1)
        #expect(route.betterThanActive() == nil)
        dac.plugged = true
        #expect(route.betterThanActive() == 0)
        route.release()
        #expect(!headphones.isOpen)
        try route.configure(OutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .s16))
        #expect(route.activeIndex == 0)
        dac.plugged = false
        headphones.plugged = false
        route.release()
        #expect(throws: OutputError.absent(device: "dac")) {
            try route.configure(OutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .s16))
        }
    }

    /// Pulled mid-track: the engine pauses at the frame heard last; back and resumed, the
    /// audio goes on from two periods before it (the fake has no delay, so what was written
    /// was heard; only the 5 ms fade-in differs), nothing skipped.
    @Test func unplugPausesAndReplugContinuesFromTheSameFrame() throws {
        let dac = PluggableOutput("dac")
        let log = EventLog()
        let engine = AudioEngine(route: route(dac)) { log.append($0) }
        try engine.start()
        defer { engine.shutdown() }
        engine.play(track)
        #expect(waitUntil { dac.data.count > 100_000 * 4 })
        dac.plugged = false
        #expect(log.wait { if case .outputLost(.disconnected("dac")) = $0 { true } else { false } })
        #expect(waitUntil { engine.snapshot.state == .paused })
        #expect(engine.snapshot.route == .lost("dac"))
        #expect(!dac.isOpen)  // let go of, so the kernel can free the card
        let before = dac.data
        dac.plugged = true
        engine.devicesChanged()
        #expect(log.wait { if case .outputReturned("dac") = $0 { true } else { false } })
        engine.resume()
        #expect(log.wait { $0.isFinished })
        let reference = try Fixtures.shared.flacReference("music16.flac")
        #expect(before == reference.prefix(before.count))
        // It goes on two periods (441 frames each) before the last frame written: what was
        // in flight to a pulled device is lost with it, and it stopped before it was noticed.
        let fade = 221 * 4, period = 441 * 4
        let resumeAt = before.count - 2 * period
        let after = dac.data.suffix(from: before.count)
        expectSame(after.dropFirst(fade).prefix(reference.count - resumeAt - fade), reference.dropFirst(resumeAt + fade))
    }

    /// The player reacts to the loss at once (its status says paused): the engine's
    /// published place must already be the one play will continue from, not the place
    /// heard before the loss was worked out.
    @Test func whenTheLossIsToldThePausePointIsAlreadyPublished() throws {
        final class Seen: @unchecked Sendable { var engine: AudioEngine?; var atLoss: EngineSnapshot? }
        let dac = PluggableOutput("dac")
        let log = EventLog(), seen = Seen()
        let engine = AudioEngine(route: route(dac)) { event in
            if case .outputLost = event { seen.atLoss = seen.engine?.snapshot }
            log.append(event)
        }
        seen.engine = engine
        try engine.start()
        defer { engine.shutdown() }
        engine.play(track)
        #expect(waitUntil { dac.data.count > 100_000 * 4 })
        dac.plugged = false
        #expect(log.wait { if case .outputLost = $0 { true } else { false } })
        #expect(waitUntil { engine.snapshot.state == .paused })
        #expect(seen.atLoss?.state == .paused)
        #expect(seen.atLoss?.frame == engine.snapshot.frame)
    }

    @Test func absentAtStartWaitsThenPlaysWhenItAppears() throws {
        let dac = PluggableOutput("dac", plugged: false)
        let log = EventLog()
        var settings = AudioEngine.Settings()
        settings.deviceProbeMilliseconds = 50  // no announcements in this test: the slow look finds it
        let engine = AudioEngine(route: route(dac), settings: settings) { log.append($0) }
        try engine.start()
        defer { engine.shutdown() }
        engine.play(track)
        #expect(log.wait { if case .outputLost(.absent("dac")) = $0 { true } else { false } })
        #expect(engine.snapshot.route == .waitingFor("dac"))
        dac.plugged = true
        #expect(log.wait { if case .outputReturned("dac") = $0 { true } else { false } })
        engine.resume()
        #expect(log.wait { $0.isFinished })
        // All of it from the start, but for the fade-in of the resume.
        let reference = try Fixtures.shared.flacReference("music16.flac")
        let fade = 221 * 4
        expectSame(dac.data.dropFirst(fade).prefix(reference.count - fade), reference.dropFirst(fade))
    }

    @Test func aBusyDeviceIsReportedAsSuchAndTriedAgain() throws {
        let dac = PluggableOutput("dac")
        dac.heldElsewhere = true
        let log = EventLog()
        var settings = AudioEngine.Settings()
        settings.deviceProbeMilliseconds = 50
        let engine = AudioEngine(route: OutputRoute([.init(dac, isPresent: { dac.plugged && !dac.heldElsewhere })]), settings: settings) { log.append($0) }
        try engine.start()
        defer { engine.shutdown() }
        engine.play(track)
        #expect(log.wait { if case .outputLost(.busy("dac")) = $0 { true } else { false } })
        dac.heldElsewhere = false
        #expect(log.wait { if case .outputReturned("dac") = $0 { true } else { false } })
    }

    @Test func aPreferredDeviceTakesOverWhenItAppears() throws {
        let dac = PluggableOutput("dac", plugged: false), speaker = PluggableOutput("speaker")
        let log = EventLog()
        let engine = AudioEngine(route: route(dac, speaker)) { log.append($0) }
        try engine.start()
        defer { engine.shutdown() }
        engine.play(track)
        #expect(log.wait { if case .outputChanged("speaker") = $0 { true } else { false } })
        #expect(waitUntil { speaker.data.count > 50_000 * 4 })
        dac.plugged = true
        engine.devicesChanged()
        #expect(log.wait { if case .outputChanged("dac") = $0 { true } else { false } })
        #expect(log.wait { $0.isFinished })
        #expect(!speaker.isOpen)
        // Between them, the whole track once (the speaker's part then the DAC's), and the
        // 100 ms of silence that ends a queue, padded to a period.
        let total = (try Fixtures.shared.flacReference("music16.flac")).count + 4410 * 4
        #expect((0..<(441 * 4)).contains(speaker.data.count + dac.data.count - total))
        #expect(!log.all.contains { if case .outputLost = $0 { true } else { false } })
    }

    /// The preferred device goes: pause (the fallback that was there all along is no
    /// reason to resume); play goes to the fallback; the preferred one back takes over.
    @Test func losingThePreferredDevicePausesAndPlayUsesTheFallback() throws {
        let dac = PluggableOutput("dac"), speaker = PluggableOutput("speaker")
        let log = EventLog()
        let engine = AudioEngine(route: route(dac, speaker)) { log.append($0) }
        try engine.start()
        defer { engine.shutdown() }
        engine.play(track)
        #expect(waitUntil { dac.data.count > 20_000 * 4 })
        dac.plugged = false
        #expect(log.wait { if case .outputLost(.disconnected("dac")) = $0 { true } else { false } })
        engine.devicesChanged()
        usleep(100_000)
        #expect(engine.snapshot.state == .paused)
        #expect(!log.all.contains { if case .outputReturned = $0 { true } else { false } })
        engine.resume()
        #expect(log.wait { if case .outputChanged("speaker") = $0 { true } else { false } })
        #expect(waitUntil { speaker.data.count > 10_000 * 4 })
        dac.plugged = true
        engine.devicesChanged()
        #expect(log.wait { if case .outputChanged("dac") = $0 { true } else { false } })
    }

    @Test func continuePolicyMovesToTheNextDeviceWithoutPausing() throws {
        let dac = PluggableOutput("dac"), speaker = PluggableOutput("speaker")
        let log = EventLog()
        var settings = AudioEngine.Settings()
        settings.onOutputLost = .continue
        let engine = AudioEngine(route: route(dac, speaker), settings: settings) { log.append($0) }
        try engine.start()
        defer { engine.shutdown() }
        engine.play(track)
        #expect(waitUntil { dac.data.count > 50_000 * 4 })
        dac.plugged = false
        #expect(log.wait { if case .outputChanged("speaker") = $0 { true } else { false } })
        #expect(log.wait { $0.isFinished })
        #expect(!log.all.contains { if case .outputLost = $0 { true } else { false } })
    }
}
