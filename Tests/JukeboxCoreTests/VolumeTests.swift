import Foundation
import Testing
@testable import JukeboxCore

@Suite struct VolumeTests {
    @Test func perceptualCurve() {
        #expect(VolumeCurve.amplitude(100) == 1)
        #expect(VolumeCurve.amplitude(0) == 0)
        #expect(abs(VolumeCurve.decibels(50) - -18.06) < 0.01)
        #expect(VolumeCurve.amplitude(150) == 1)  // clamped, never a boost
        let steps = (0...100).map(VolumeCurve.amplitude)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func rampNeverClipsAndReachesItsTarget() {
        let format = OutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s16)
        var samples: [Int16] = (0..<2000).map { $0 % 2 == 0 ? .max : .min }
        samples.withUnsafeMutableBytes { GainRamp.apply($0.baseAddress!, frames: 1000, format: format, from: 1, to: 0.5) }
        #expect(samples[0] == .max && samples[1] == .min)
        #expect(abs(Int(samples[1998]) - Int(Int16.max) / 2) < 40)
        // Monotone: no zipper steps.
        let lefts = stride(from: 0, to: 2000, by: 2).map { samples[$0] }
        #expect(zip(lefts, lefts.dropFirst()).allSatisfy { $0 >= $1 })
    }

    @Test func twentyFourBitRampKeepsTheSign() {
        let format = OutputFormat(sampleRate: 48_000, channels: 1, sampleFormat: .s24)
        var bytes: [UInt8] = [0x00, 0x00, 0x80, 0xFF, 0xFF, 0x7F]  // min, max
        bytes.withUnsafeMutableBytes { GainRamp.apply($0.baseAddress!, frames: 2, format: format, from: 0.5, to: 0.5) }
        #expect(bytes == [0x00, 0x00, 0xC0, 0x00, 0x00, 0x40])
    }

    /// Through the real engine and alsa-lib: after the ramp, volume 50 is exactly the
    /// source scaled by the curve, rounded.
    @Test func softwareVolumeThroughTheEngine() throws {
        let fx = Fixtures.shared
        let log = EventLog()
        let path = fx.path("rec-volume.raw")
        try? FileManager.default.removeItem(atPath: path)
        let engine = AudioEngine(output: ALSAOutput(.init(device: "file:FILE=\(path),FORMAT=raw", allowConversion: false))) { log.append($0) }
        try engine.start()
        engine.setVolume(50)
        engine.play(TrackRef(token: 1, path: fx.path("music16.flac")))
        #expect(log.wait { $0.isFinished })
        engine.shutdown()
        let reference = try fx.flacReference("music16.flac").withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let recorded = try Data(contentsOf: URL(fileURLWithPath: path)).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(recorded.count >= reference.count && recorded[reference.count...].allSatisfy { $0 == 0 })
        let gain = VolumeCurve.amplitude(50)
        let settled = 44_100 * 2  // well past the first write's ramp
        let worst = zip(recorded[settled...], reference[settled...]).map { abs(Int($0) - Int((Double($1) * gain).rounded())) }.max() ?? 0
        #expect(worst == 0)
    }
}
