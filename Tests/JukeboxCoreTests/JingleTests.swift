import Foundation
import Testing
@testable import JukeboxCore

@Suite struct JingleTests {
    @Test func mixingAddsAndHoldsAtFullScale() {
        var pcm: [Int16] = [1000, -1000, 32_000, -32_000]
        let jingle: [Float] = [0.5, 0.5, 0.5, -0.5]
        pcm.withUnsafeMutableBytes { data in
            jingle.withUnsafeBufferPointer { PCMSamples.mix($0, into: data.baseAddress!, format: .s16) }
        }
        #expect(pcm == [1000 + 16_384, -1000 + 16_384, .max, .min])
        var s24: [UInt8] = [0xFF, 0xFF, 0x7F, 0x00, 0x00, 0x00]  // full scale, zero
        s24.withUnsafeMutableBytes { data in
            [Float(0.5), Float(-0.5)].withUnsafeBufferPointer { PCMSamples.mix($0, into: data.baseAddress!, format: .s24) }
        }
        #expect(s24 == [0xFF, 0xFF, 0x7F, 0x00, 0x00, 0xC0])
    }

    @Test func channelsAreSpreadOrAveraged() {
        #expect(JingleSound.mapChannels([0.1, 0.2], from: 1, to: 2) == [0.1, 0.1, 0.2, 0.2])
        #expect(JingleSound.mapChannels([0.2, 0.4, 0, 1], from: 2, to: 1) == [Float(0.3), 0.5])
        #expect(JingleSound.mapChannels([0.2, 0.4], from: 2, to: 6) == [0.2, 0.4, 0, 0, 0, 0])
    }

    /// libsoxr takes an 8 kHz mono tone to 44.1 kHz stereo: the same length in time, the
    /// same level, the gain applied.
    @Test func aJingleIsMadeForTheOutputsFormat() throws {
        let sound = try JingleSound.load(Fixtures.shared.path("mono8k.wav"), gain: 0.5)
        #expect(sound.sampleRate == 8000 && sound.channels == 1 && sound.frames == 16_000)
        let out = try #require(sound.prepared(for: OutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .s16)))
        #expect(abs(out.count / 2 - 88_200) <= 32)
        let sourcePeak = sound.samples.map(abs).max() ?? 0
        let middle = out[40_000..<60_000]
        #expect(abs((middle.map(abs).max() ?? 0) - sourcePeak * 0.5) < 0.01)
        #expect(stride(from: 40_000, to: 60_000, by: 2).allSatisfy { out[$0] == out[$0 + 1] })
    }

    @Test func tooLongOrMissingIsRefusedWithThePath() throws {
        let long = Fixtures.shared.path("music16.wav")  // 6 s
        #expect(throws: JingleError.self) { try JingleSound.load(long, gain: 1) }
        do {
            _ = try JingleSound.load(long, gain: 1)
        } catch {
            #expect("\(error)".hasPrefix(long) && "\(error)".hasSuffix("longer than 5 s"))
        }
        #expect(throws: (any Error).self) { try JingleSound.load("/nonexistent/ding.wav", gain: 1) }
    }

    @Test func theConfigNamesTheFilesFromItsOwnFolder() throws {
        let config = try ConfigLoader.parse("""
            [jingles]
            accepted = "sounds/yes.wav"
            unknown = "/usr/share/jukebox/what.wav"
            volume = 25
            """, path: "/etc/jukebox/jukebox.toml")
        #expect(config.jingles.sounds == [.accepted: "/etc/jukebox/sounds/yes.wav", .unknown: "/usr/share/jukebox/what.wav"])
        #expect(config.jingles.volume == 25)
        #expect(throws: ConfigError.self) { try ConfigLoader.parse("[jingles]\nrefusd = \"no.wav\"\n", path: "j.toml") }
        #expect(throws: ConfigError.self) { try ConfigLoader.parse("[jingles]\nvolume = 101\n", path: "j.toml") }
    }

    /// Through the real engine and alsa-lib, with nothing playing: the jingle is written
    /// alone, in its own format, at its gain, then silence.
    @Test func aJingleAloneWhenNothingPlays() throws {
        let fx = Fixtures.shared
        let path = fx.path("rec-jingle-alone.raw")
        try? FileManager.default.removeItem(atPath: path)
        let engine = AudioEngine(output: ALSAOutput(.init(device: "file:FILE=\(path),FORMAT=raw", allowConversion: false))) { _ in }
        try engine.start()
        let sound = try JingleSound.load(fx.path("mono8k.wav"), gain: 0.5)
        engine.playJingle(sound)
        let recorded = try waitForRecording(path, samples: sound.samples.count)
        engine.shutdown()
        let expected = sound.samples.map { Int16(clamping: Int(($0 * 0.5 * 32_767).rounded())) }
        #expect(recorded.count >= expected.count)
        let worst = zip(recorded, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1)
        #expect(recorded[expected.count...].allSatisfy { $0 == 0 })
    }

    /// A jingle before any music leaves the device to the music's own set-up: the first
    /// track still configures and announces the output, and a pause still fades.
    @Test func musicAfterAJingleAloneSetsTheDeviceUpAsItsOwn() throws {
        let fx = Fixtures.shared
        let path = fx.path("rec-jingle-then-music.raw")
        try? FileManager.default.removeItem(atPath: path)
        let log = EventLog()
        let engine = AudioEngine(output: ALSAOutput(.init(device: "file:FILE=\(path),FORMAT=raw", allowConversion: false))) { log.append($0) }
        try engine.start()
        // In the music's own format, so only the set-up itself can tell them apart.
        let ding = try dingWAV()
        engine.playJingle(try JingleSound.load(ding, gain: 0.5))
        _ = try waitForRecording(path, samples: 26_460)
        engine.play(TrackRef(token: 1, path: fx.path("music16.flac")))
        #expect(log.wait { $0.isFinished })
        engine.shutdown()
        #expect(log.all.contains { if case .outputConfigured = $0 { true } else { false } })
        #expect(log.all.contains { if case .outputChanged = $0 { true } else { false } })
    }

    /// Over music: what was recorded, less the music as decoded, is the jingle at its
    /// gain, in one stretch, and the music itself is all there.
    @Test func aJingleOverTheMusic() throws {
        let fx = Fixtures.shared
        let ding = try dingWAV()
        let path = fx.path("rec-jingle-music.raw")
        try? FileManager.default.removeItem(atPath: path)
        let log = EventLog()
        let engine = AudioEngine(output: ALSAOutput(.init(device: "file:FILE=\(path),FORMAT=raw", allowConversion: false))) { log.append($0) }
        try engine.start()
        engine.play(TrackRef(token: 1, path: fx.path("music16.flac")))
        #expect(log.wait { if case .trackStarted = $0 { true } else { false } })
        let sound = try JingleSound.load(ding, gain: 0.25)
        engine.playJingle(sound)
        #expect(log.wait { $0.isFinished })
        engine.shutdown()
        let reference = try fx.flacReference("music16.flac").withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let recorded = try Data(contentsOf: URL(fileURLWithPath: path)).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(recorded.count >= reference.count)
        let difference = zip(recorded, reference).map { Int($0) - Int($1) }
        let start = try #require(difference.firstIndex { $0 != 0 })
        #expect(start % 2 == 0)
        let expected = sound.samples.map { Int(($0 * 0.25 * 32_767).rounded()) }
        let heard = Array(difference[start..<min(difference.count, start + expected.count)])
        #expect(heard.count == expected.count)
        // Where the sum stayed within full scale, it is the jingle to a rounding.
        var worst = 0
        for i in heard.indices where abs(Int(recorded[start + i])) < 32_000 {
            worst = max(worst, abs(heard[i] - expected[i]))
        }
        #expect(worst <= 1)
        #expect(difference[(start + expected.count)...].allSatisfy { $0 == 0 })
    }

    /// 0.3 s of 880 Hz, 44.1 kHz stereo 16-bit: the fixtures' music's own format.
    private func dingWAV() throws -> String {
        let ding = Fixtures.shared.path("ding.wav")
        if !FileManager.default.fileExists(atPath: ding) {
            try Tools.run("sox", ["-n", "-r", "44100", "-b", "16", "-c", "2", ding, "synth", "0.3", "sine", "880", "gain", "-6"])
        }
        return ding
    }

    private func waitForRecording(_ path: String, samples: Int) throws -> [Int16] {
        for _ in 0..<200 {
            if let data = FileManager.default.contents(atPath: path), data.count >= samples * 2 {
                usleep(200_000)  // the padding after it
                return try Data(contentsOf: URL(fileURLWithPath: path)).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            }
            usleep(50_000)
        }
        Issue.record("the jingle was never written")
        return []
    }
}
