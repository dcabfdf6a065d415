import Foundation
import Testing
@testable import JukeboxCore

/// The speed stage in the real engine: tracks made with sox, played through SoundTouch to
/// an output that records every byte. Lengths are counted in frames written, never timed.
@Suite struct PlaybackSpeedTests {
    /// A 1 kHz sine, `seconds` long, 44.1 kHz 16-bit stereo; `parts` > 1 cuts it into
    /// that many tracks of equal length that join up into the one signal.
    private func sine(_ name: String, seconds: Int, parts: Int = 1) throws -> [String] {
        let folder = try Fixtures.shared.scratchFolder("speed-\(name)")
        let whole = "\(folder)/whole.wav"
        try Tools.run("sox", ["-n", "-r", "44100", "-b", "16", "-c", "2", whole, "synth", "\(seconds)", "sine", "1000", "gain", "-6"])
        guard parts > 1 else { return [whole] }
        let part = Double(seconds) / Double(parts)
        return try (0..<parts).map { i in
            let path = "\(folder)/part\(i).wav"
            try Tools.run("sox", [whole, path, "trim", "\(Double(i) * part)", "\(part)"])
            return path
        }
    }

    /// Plays `paths` gaplessly at `speed` and returns the recorded 16-bit stereo samples
    /// (closing silence cut) and the engine's last place.
    private func play(_ paths: [String], speed: Double) throws -> (samples: [Int16], snapshot: EngineSnapshot) {
        let output = RecordingOutput()
        let log = EventLog()
        let engine = AudioEngine(output: output) { log.append($0) }
        engine.setSpeed(speed)
        try engine.start()
        let refs = paths.enumerated().map { TrackRef(token: $0.offset + 1, path: $0.element) }
        engine.play(refs[0], next: refs.count > 1 ? refs[1] : nil)
        for i in refs.indices.dropFirst() {
            // The player names what follows once the decoder has gone on into a track.
            #expect(log.wait { if case .decoderAdvanced(refs[i].token) = $0 { true } else { false } })
            engine.setNext(i + 1 < refs.count ? refs[i + 1] : nil)
        }
        #expect(log.wait(seconds: 60) { $0.isFinished })
        let snapshot = engine.snapshot
        engine.shutdown()
        let data = output.data(OutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .s16))
        var samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        while let last = samples.last, last == 0 { samples.removeLast() }
        return (samples, snapshot)
    }

    /// The sine's frequency, from the left channel's rising zero crossings.
    private func frequency(_ samples: [Int16]) -> Double {
        var crossings: [Int] = []
        var frame = 1
        while frame < samples.count / 2 {
            if samples[2 * (frame - 1)] < 0, samples[2 * frame] >= 0 { crossings.append(frame) }
            frame += 1
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * 44_100 / Double(last - first)
    }

    @Test func aQuarterFasterPlaysSixtySecondsInFortyEight() throws {
        let (samples, snapshot) = try play(try sine("fast", seconds: 60), speed: 1.25)
        let seconds = Double(samples.count / 2) / 44_100
        #expect(abs(seconds - 48) <= 0.48, "played \(seconds) s")
        // The pitch is the recording's: 1 kHz, within 1 %.
        #expect(abs(frequency(samples) - 1000) <= 10, "heard \(frequency(samples)) Hz")
        // The place is the track's own: its end, not 48 s.
        #expect(abs(Double(snapshot.frame) / 44_100 - 60) <= 0.6, "ended at \(snapshot.frame)")
    }

    @Test func halfSpeedKeepsThePitchToo() throws {
        let (samples, _) = try play(try sine("slow", seconds: 10), speed: 0.5)
        #expect(abs(Double(samples.count / 2) / 44_100 - 20) <= 0.2)
        #expect(abs(frequency(samples) - 1000) <= 10, "heard \(frequency(samples)) Hz")
    }

    @Test func atOneTheAudioPassesUntouched() throws {
        let path = try sine("one", seconds: 3)[0]
        let (samples, _) = try play([path], speed: 1)
        let reference = try Tools.run("sox", [path, "-t", "raw", "-"]).stdout
        let expected = reference.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(samples == expected)
    }

    @Test func tracksCutFromOneSignalJoinWithoutAGapAtSpeed() throws {
        let (samples, _) = try play(try sine("gapless", seconds: 6, parts: 3), speed: 1.25)
        #expect(abs(Double(samples.count / 2) / 44_100 - 4.8) <= 0.05)
        // No silence anywhere: a 1 kHz sine crosses zero, but never rests there for 1 ms.
        var run = 0, longest = 0
        for frame in 0..<samples.count / 2 {
            run = abs(Int(samples[2 * frame])) < 200 ? run + 1 : 0
            longest = max(longest, run)
        }
        #expect(longest < 44, "a run of \(longest) silent frames")
        // And the envelope stays level through the joins: every 10 ms holds a peak near
        // the sine's own (-6 dB), the last 10 ms (the stretch's own ending) aside.
        let window = 441
        for start in stride(from: 0, to: samples.count / 2 - 2 * window, by: window) {
            let peak = (start..<start + window).map { abs(Int(samples[2 * $0])) }.max() ?? 0
            #expect(peak > 16_000 * 8 / 10, "peak \(peak) at frame \(start)")
            if peak <= 16_000 * 8 / 10 { break }
        }
    }

    @Test func aSpeedSetWhilePausedAndASeekStayInTrackTime() throws {
        let path = try sine("seek", seconds: 10)[0]
        let output = RecordingOutput()
        let log = EventLog()
        let engine = AudioEngine(output: output) { log.append($0) }
        try engine.start()
        engine.play(TrackRef(token: 1, path: path), paused: true)
        engine.setSpeed(2)
        engine.seek(toFrame: 4 * 44_100)
        engine.resume()
        #expect(log.wait(seconds: 60) { $0.isFinished })
        let end = engine.snapshot.frame
        engine.shutdown()
        var samples = output.data(OutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .s16))
            .withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        while let last = samples.last, last == 0 { samples.removeLast() }
        // Six seconds of the track, heard in three; the place at the end is the track's end.
        #expect(abs(Double(samples.count / 2) / 44_100 - 3) <= 0.05, "played \(samples.count / 2) frames")
        #expect(abs(end - 10 * 44_100) <= 441, "ended at \(end)")
    }

    /// `jukebox decode --speed`, which the speed benchmark times: the same stretch.
    @Test func decodeStretchesToTheSpeedAsked() throws {
        let path = try sine("cli", seconds: 6)[0]
        let raw = try Tools.run(Tools.jukebox, ["decode", path, "--speed", "1.5", "-o", "-"]).stdout
        let samples = raw.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(abs(Double(samples.count / 2) / 44_100 - 4) <= 0.01, "\(samples.count / 2) frames")
        #expect(abs(frequency(samples) - 1000) <= 10)
        let refused = try Tools.run(Tools.jukebox, ["decode", path, "--speed", "3", "-o", "-"], check: false)
        #expect(refused.status != 0 && refused.stderr.contains("--speed must be from 0.5 to 2"))
    }

    /// Between formats the stretch lets the first track's end out before the second
    /// starts afresh: both play whole, each at the speed.
    @Test func aChangeOfFormatLetsTheStretchOutFirst() throws {
        let fx = Fixtures.shared
        let output = RecordingOutput()
        let log = EventLog()
        let engine = AudioEngine(output: output) { log.append($0) }
        engine.setSpeed(1.25)
        try engine.start()
        engine.play(TrackRef(token: 1, path: fx.path("music16.flac")), next: TrackRef(token: 2, path: fx.path("music24.flac")))
        #expect(log.wait(seconds: 60) { $0.isFinished })
        engine.shutdown()
        let cd = OutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .s16)
        let hires = OutputFormat(sampleRate: 96_000, channels: 2, sampleFormat: .s24)
        #expect(Array(output.steps.prefix(3)) == [.configure(cd), .drain, .configure(hires)])
        // 6 s and 4 s of audio, in 4.8 s and 3.2 s (the closing silence and period padding aside).
        let first = Double(output.data(cd).count / 4) / 44_100
        let second = Double(output.data(hires).count / 6) / 96_000
        #expect(first >= 4.8 - 0.01 && first <= 4.8 + 0.15, "\(first) s")
        #expect(second >= 3.2 - 0.01 && second <= 3.2 + 0.15, "\(second) s")
        #expect(log.all.contains { if case .trackStarted(2) = $0 { true } else { false } })
    }

    /// ReplayGain levels stretched audio by its own track's tags, as it does the rest.
    @Test func replayGainLevelsTheStretchedAudio() throws {
        let folder = try Fixtures.shared.scratchFolder("speed-replaygain")
        let track = "\(folder)/tagged.flac"
        try Tools.run("sox", ["-n", "-r", "44100", "-b", "16", "-c", "2", track, "synth", "3", "sine", "1000", "gain", "-6"])
        try Tools.run("metaflac", ["--set-tag=REPLAYGAIN_TRACK_GAIN=-6 dB", track])
        let output = RecordingOutput()
        let log = EventLog()
        let engine = AudioEngine(output: output) { log.append($0) }
        engine.setSpeed(1.25)
        engine.setReplayGain(ReplayGainRule(use: .track, preampDecibels: 0, missingPreampDecibels: 0, preventClipping: true))
        try engine.start()
        engine.play(TrackRef(token: 1, path: track))
        #expect(log.wait(seconds: 60) { $0.isFinished })
        engine.shutdown()
        let samples = output.data(OutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .s16))
            .withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        // -6 dB of a -6 dBFS sine: a peak near 8,200, not 16,400 (after the first
        // block, over which the gain stage ramps to the track's level).
        let peak = samples.dropFirst(2 * 8192).map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 7_000 && peak < 9_500, "peak \(peak)")
    }
}
