import Foundation
import Testing
@testable import JukeboxCore

/// The Snapcast output's values: where it sends (`snapcast:` devices), the stream's one
/// format, and the conversion into it, exact where nothing is lost.
@Suite struct SnapcastStreamTests {
    @Test func devicesNameAPipeOrATCPSource() throws {
        #expect(try SnapcastTarget(device: "snapcast:/run/snapserver/jukebox") == .pipe(path: "/run/snapserver/jukebox"))
        #expect(try SnapcastTarget(device: "snapcast:tcp://192.168.1.10:4953") == .tcp(host: "192.168.1.10", port: 4953))
        #expect(try SnapcastTarget(device: "snapcast:tcp://localhost:4953") == .tcp(host: "127.0.0.1", port: 4953))
        #expect(try SnapcastTarget(device: "snapcast:tcp://[::1]:4953") == .tcp(host: "::1", port: 4953))
        #expect(SnapcastTarget.tcp(host: "::1", port: 4953).description == "snapcast:tcp://[::1]:4953")
        #expect(throws: SnapcastTarget.Invalid.emptyPath) { try SnapcastTarget(device: "snapcast:") }
        #expect(throws: SnapcastTarget.Invalid.relativePath("fifo")) { try SnapcastTarget(device: "snapcast:fifo") }
        // A name would be looked up on the audio thread: addresses only.
        #expect(throws: SnapcastTarget.Invalid.badAddress("nas.local:4953")) { try SnapcastTarget(device: "snapcast:tcp://nas.local:4953") }
        #expect(throws: SnapcastTarget.Invalid.badAddress("10.0.0.1:70000")) { try SnapcastTarget(device: "snapcast:tcp://10.0.0.1:70000") }
        #expect(throws: SnapcastTarget.Invalid.notSnapcast) { try SnapcastTarget(device: "hw:0,0") }
    }

    @Test func theFormatIsSnapserversSampleformat() {
        #expect(SnapcastFormat("48000:16:2") == SnapcastFormat())
        #expect(SnapcastFormat("44100:24:2")?.bytesPerFrame == 8)  // 24 bits in four bytes
        #expect(SnapcastFormat("48000:16:2")?.bytesPerFrame == 4)
        for bad in ["48000:16", "48000:20:2", "x:16:2", "48000:16:0", "", "48000:16:2:1"] { #expect(SnapcastFormat(bad) == nil) }
    }

    /// The box's volume is gain on the stream, or nothing with `mixer = "none"`, when each
    /// room's volume is set in Snapcast.
    @Test func theStreamsVolumeIsSoftwareOrNone() {
        var settings = ALSAOutput.Settings()
        #expect(OutputRoute.devices(["snapcast:/run/snapserver/jukebox"], settings: settings).candidates[0].output.mixer == nil)
        settings.mixer = .none
        let fixed = OutputRoute.devices(["snapcast:/run/snapserver/jukebox"], settings: settings).candidates[0].output.mixer
        #expect(fixed is FixedVolume)
    }

    @Test func theConfigNamesErrorsAtTheirLine() throws {
        let folder = try Fixtures.shared.scratchFolder("snapcast-config")
        let path = "\(folder)/jukebox.toml"
        try "[audio]\ndevices = [\"snapcast:fifo\"]\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try ConfigLoader.load(path: path) } throws: { "\($0)".contains("jukebox.toml:2:") && "\($0)".contains("absolute path") }
        try "[snapcast]\nformat = \"48000:20:2\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try ConfigLoader.load(path: path) } throws: { "\($0)".contains("jukebox.toml:2:") && "\($0)".contains("sampleformat") }
        try "[audio]\ndevice = \"snapcast:/run/snapserver/jukebox\"\n[snapcast]\nformat = \"44100:24:2\"\nlatency_ms = 300\ndither = false\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: path)
        #expect(config.audio.devices == ["snapcast:/run/snapserver/jukebox"])
        #expect(config.audio.snapcast.format == SnapcastFormat(sampleRate: 44_100, bits: 24, channels: 2))
        #expect(config.audio.snapcast.latencyMilliseconds == 300 && !config.audio.snapcast.dither)
    }

    private func convert(_ bytes: [UInt8], from format: OutputFormat, to stream: SnapcastFormat, dither: Bool = true) throws -> [UInt8] {
        let converter = try StreamConverter(from: format, to: stream, dither: dither)
        var out: [UInt8] = []
        bytes.withUnsafeBytes { converter.convert($0, into: &out) }
        converter.flush(into: &out)
        return out
    }

    private func noise(samples: Int, seed: UInt32 = 7) -> [Int16] {
        var state = seed
        return (0..<samples).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int16(truncatingIfNeeded: Int32(bitPattern: state) >> 16)
        }
    }

    @Test func audioInTheStreamsFormatGoesOutByteForByte() throws {
        let pcm = noise(samples: 4800)
        let bytes = pcm.withUnsafeBytes { Array($0) }
        let format = OutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s16)
        #expect(try StreamConverter(from: format, to: SnapcastFormat(), dither: true).isPassthrough)
        #expect(try convert(bytes, from: format, to: SnapcastFormat()) == bytes)
    }

    /// Nothing is lost, so nothing is dithered: mono doubled, 16 bits into 24.
    @Test func conversionsThatLoseNothingAreExact() throws {
        let mono = noise(samples: 1000)
        let monoBytes = mono.withUnsafeBytes { Array($0) }
        let doubled = try convert(monoBytes, from: OutputFormat(sampleRate: 48_000, channels: 1, sampleFormat: .s16), to: SnapcastFormat())
        let stereo = doubled.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(stereo == mono.flatMap { [$0, $0] })

        let deeper = try convert(monoBytes + monoBytes, from: OutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s16),
                                 to: SnapcastFormat(sampleRate: 48_000, bits: 24, channels: 2))
        let wide = deeper.withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
        #expect(wide == (mono + mono).map { Int32($0) << 8 })

        // Packed 24-bit samples into Snapcast's four-byte ones, values kept.
        let packed: [UInt8] = [0xFF, 0xFF, 0x7F, 0x00, 0x00, 0x80, 0x01, 0x00, 0x00, 0xFE, 0xFF, 0xFF]
        let unpacked = try convert(packed, from: OutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s24),
                                   to: SnapcastFormat(sampleRate: 48_000, bits: 24, channels: 2))
        #expect(unpacked.withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) } == [8_388_607, -8_388_608, 1, -2])
    }

    /// 24 bits into 16 keep the top 16 bits within a step of dither.
    @Test func deeperAudioIsDitheredToTheStreamsDepth() throws {
        let values: [Int32] = (0..<2000).map { Int32($0 * 4000 % 16_000_000) - 8_000_000 }
        var packed: [UInt8] = []
        for v in values { packed += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v >> 16)] }
        let out = try convert(packed, from: OutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s24), to: SnapcastFormat())
        let samples = out.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(samples.count == values.count)
        let errors = zip(samples, values).map { abs(Double($0) - Double($1) / 256) }
        #expect(errors.allSatisfy { $0 <= 1.5 })
        #expect(errors.contains { $0 > 0.5 })  // dithered, not just rounded
        let plain = try convert(packed, from: OutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s24), to: SnapcastFormat(), dither: false)
        let rounded = plain.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(zip(rounded, values).allSatisfy { abs(Double($0) - Double($1) / 256) <= 0.5 })
    }

    /// A 44.1 kHz tone at 48 kHz: as long in time, the same pitch and level, and a run cut
    /// into blocks (as the audio thread writes it) gives what one block gives.
    @Test func otherRatesAreResampledAsOneStream() throws {
        let frames = 44_100
        let tone = (0..<frames).flatMap { i -> [Int16] in
            let v = Int16((sin(Double(i) * 2 * .pi * 1000 / 44_100) * 16_000).rounded())
            return [v, v]
        }
        let bytes = tone.withUnsafeBytes { Array($0) }
        let format = OutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .s16)
        let whole = try convert(bytes, from: format, to: SnapcastFormat(), dither: false)
        let out = whole.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(abs(out.count / 2 - 48_000) <= 2)
        let left = stride(from: 0, to: out.count, by: 2).map { Double(out[$0]) }
        let middle = left[10_000..<38_000]
        #expect(abs((middle.map(abs).max() ?? 0) - 16_000) < 50)
        let crossings = zip(middle, middle.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(crossings - 1000 * 28_000 / 48_000) <= 1)

        let converter = try StreamConverter(from: format, to: SnapcastFormat(), dither: false)
        var pieces: [UInt8] = []
        var offset = 0
        for size in [441, 4410, 17, 20_000, 1] where offset < bytes.count {
            let end = min(bytes.count, offset + size * 4)
            bytes[offset..<end].withUnsafeBytes { converter.convert($0, into: &pieces) }
            offset = end
        }
        bytes[offset...].withUnsafeBytes { converter.convert($0, into: &pieces) }
        converter.flush(into: &pieces)
        #expect(pieces == whole)
    }

    @Test func theFirstAudioStartsAtTheVolumeNotFullScale() {
        let gain = GainStage()
        gain.setVolume(60)
        let pcm = [Int16](repeating: 20_000, count: 960)
        let format = OutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s16)
        let out = pcm.withUnsafeBytes { source in
            Array(gain.process(source, frames: 480, format: format).bindMemory(to: Int16.self))
        }
        let expected = Int16((20_000 * VolumeCurve.amplitude(60)).rounded())
        #expect(out.allSatisfy { abs(Int($0) - Int(expected)) <= 1 })
    }
}
