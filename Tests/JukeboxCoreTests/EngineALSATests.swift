import Foundation
import Testing
@testable import JukeboxCore

/// The whole engine through real alsa-lib: its `file` PCM (with a `null` slave) records
/// exactly what the player sent, which is compared with the decoder's own output.
@Suite(.serialized) struct EngineALSATests {
    let fx = Fixtures.shared

    func engine(recordingTo path: String, log: EventLog) throws -> AudioEngine {
        try? FileManager.default.removeItem(atPath: path)
        let output = ALSAOutput(.init(device: "file:FILE=\(path),FORMAT=raw", allowConversion: false))
        let engine = AudioEngine(output: output) { log.append($0) }
        try engine.start()
        return engine
    }

    func recording(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func playsOneTrackSampleForSample() throws {
        let log = EventLog()
        let file = fx.path("rec-one.raw")
        let engine = try engine(recordingTo: file, log: log)
        engine.play(TrackRef(token: 1, path: fx.path("music24.flac")))
        #expect(log.wait { $0.isFinished })
        engine.shutdown()
        #expect(log.all.compactMap(\.failure).isEmpty)
        #expect(isAudioThenSilence(try recording(file), try fx.flacReference("music24.flac"), bytesPerFrame: 6, sampleRate: 96_000))
    }

    @Test func gaplessAcrossTwoTracksCutFromOneSignal() throws {
        // One continuous signal, cut at a sample boundary into two files.
        try Tools.run("sox", [fx.path("music16.wav"), fx.path("part-a.flac"), "trim", "0", "100003s"])
        try Tools.run("sox", [fx.path("music16.wav"), fx.path("part-b.flac"), "trim", "100003s"])
        let log = EventLog()
        let file = fx.path("rec-gapless.raw")
        let engine = try engine(recordingTo: file, log: log)
        engine.play(TrackRef(token: 1, path: fx.path("part-a.flac")), next: TrackRef(token: 2, path: fx.path("part-b.flac")))
        #expect(log.wait { $0.isFinished })
        engine.shutdown()
        let whole = try Tools.run("sox", [fx.path("music16.wav"), "-t", "raw", "-"]).stdout
        #expect(isAudioThenSilence(try recording(file), whole))
        #expect(log.all.contains { if case .trackStarted(2) = $0 { true } else { false } })
    }

    /// Plays `first` with `next` named after it, while a slow player answers the event
    /// `answers` picks by naming `following`, `seconds` later; then checks that the
    /// recording is the whole signal and that `following` was heard.
    func playWithASlowPlayer(_ first: String, next: String, seconds: Double, answers: @escaping @Sendable (EngineEvent) -> Bool,
                             following: String, recordingTo name: String) throws {
        let file = fx.path(name)
        try? FileManager.default.removeItem(atPath: file)
        let log = EventLog()
        final class Late: @unchecked Sendable { var engine: AudioEngine? }
        let late = Late()
        let player = DispatchQueue(label: "test.slow-player")
        let third = TrackRef(token: 3, path: fx.path(following))
        let output = ALSAOutput(.init(device: "file:FILE=\(file),FORMAT=raw", allowConversion: false))
        let engine = AudioEngine(output: output) { event in
            log.append(event)
            if answers(event) { player.asyncAfter(deadline: .now() + seconds) { late.engine?.setNext(third) } }
        }
        late.engine = engine
        try engine.start()
        engine.play(TrackRef(token: 1, path: fx.path(first)), next: TrackRef(token: 2, path: fx.path(next)))
        #expect(log.wait { $0.isFinished })
        engine.shutdown()
        let whole = try Tools.run("sox", [fx.path("music16.wav"), "-t", "raw", "-"]).stdout
        #expect(isAudioThenSilence(try recording(file), whole))
        #expect(log.all.contains { if case .trackStarted(3) = $0 { true } else { false } })
    }

    /// A track shorter than the player's answer to "moved into the next track": its end
    /// waits for the word on what follows instead of ending the stream with a gap. (The
    /// decoder reads 0.1 s of audio in well under the 50 ms this player takes.)
    @Test func aShortTrackWaitsForThePlayerToNameTheNext() throws {
        try Tools.run("sox", [fx.path("music16.wav"), fx.path("short-a.flac"), "trim", "0", "100003s"])
        try Tools.run("sox", [fx.path("music16.wav"), fx.path("short-b.flac"), "trim", "100003s", "4410s"])
        try Tools.run("sox", [fx.path("music16.wav"), fx.path("short-c.flac"), "trim", "104413s"])
        try playWithASlowPlayer("short-a.flac", next: "short-b.flac", seconds: 0.05,
                                answers: { if case .decoderAdvanced(2) = $0 { true } else { false } },
                                following: "short-c.flac", recordingTo: "rec-short.raw")
    }

    /// The track named next cannot be opened: the end of the current one waits for the
    /// player to name the one after it (here late, after the first track is decoded to its
    /// end), and the music goes on into that one without a gap.
    @Test func aNextTrackThatFailsWaitsForTheOneAfterIt() throws {
        try Tools.run("sox", [fx.path("music16.wav"), fx.path("passed-a.flac"), "trim", "0", "100003s"])
        try Tools.run("sox", [fx.path("music16.wav"), fx.path("passed-c.flac"), "trim", "100003s"])
        try playWithASlowPlayer("passed-a.flac", next: "gone.flac", seconds: 0.2,
                                answers: { if case .trackFailed(2, _) = $0 { true } else { false } },
                                following: "passed-c.flac", recordingTo: "rec-passed-over.raw")
    }

    /// The same with the real player: a queue of a track, a file gone since it was queued
    /// and the track that continues the first. The recording is the whole signal.
    @Test func thePlayerPassesOverAQueuedFileThatIsGone() throws {
        try Tools.run("sox", [fx.path("music16.wav"), fx.path("passed-a.flac"), "trim", "0", "100003s"])
        try Tools.run("sox", [fx.path("music16.wav"), fx.path("passed-c.flac"), "trim", "100003s"])
        let file = fx.path("rec-player-passed-over.raw")
        try? FileManager.default.removeItem(atPath: file)
        final class Holder: @unchecked Sendable { var player: Player? }
        let holder = Holder(), events = Recorder<PlayerEvent>()
        let output = ALSAOutput(.init(device: "file:FILE=\(file),FORMAT=raw", allowConversion: false))
        let engine = AudioEngine(output: output) { holder.player?.engineEvent($0) }
        try engine.start()
        var settings = Player.Settings()
        settings.startVolume = 100
        let player = Player(engine: engine, settings: settings)
        holder.player = player
        player.observe { event in if case .changed = event {} else { events.append(event) } }
        player.setTracks([fx.path("passed-a.flac"), fx.path("gone.flac"), fx.path("passed-c.flac")])
        player.perform(.play)
        let deadline = Date().addingTimeInterval(30)
        while !events.items.contains(.completed(position: 2, queueEnded: true)), Date() < deadline { usleep(10_000) }
        engine.shutdown()
        #expect(events.items.first { if case .trackSkipped = $0 { true } else { false } } != nil)
        #expect(events.items.contains(.completed(position: 0, queueEnded: false)))
        let whole = try Tools.run("sox", [fx.path("music16.wav"), "-t", "raw", "-"]).stdout
        #expect(isAudioThenSilence(try recording(file), whole))
    }

    @Test func pauseAndResumeLoseAndRepeatNothing() throws {
        let log = EventLog()
        let file = fx.path("rec-pause.raw")
        let engine = try engine(recordingTo: file, log: log)
        engine.play(TrackRef(token: 1, path: fx.path("music16.flac")))
        // Pause as soon as it plays, then resume. (It waited for frame 50,000 once: a
        // busy machine could miss that moment until the track had ended, and the pause,
        // ignored when stopped, then never came.)
        func within10Seconds(_ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while !condition() {
                if Date() > deadline { return false }
                usleep(200)
            }
            return true
        }
        guard within10Seconds({ engine.snapshot.frame > 0 }) else {
            engine.shutdown()
            Issue.record("the track never started")
            return
        }
        engine.pause()
        guard within10Seconds({ engine.snapshot.state == .paused }) else {
            engine.shutdown()
            Issue.record("the pause never took effect: \(engine.snapshot.state)")
            return
        }
        let pausedAt = engine.snapshot.frame
        usleep(100_000)
        #expect(engine.snapshot.frame == pausedAt)
        engine.resume()
        #expect(log.wait { $0.isFinished })
        engine.shutdown()

        let reference = try fx.flacReference("music16.flac")
        let recorded = try recording(file)
        // Nothing lost, nothing repeated: the recording is the track, frame for frame,
        // except for the fade-in after the resume; then silence to the end of the period.
        var expected = reference
        expected.replaceSubrange((Int(pausedAt) * 4)..<(Int(pausedAt) * 4 + 44_100 * 5 / 1000 * 4), with: recorded[(Int(pausedAt) * 4)..<(Int(pausedAt) * 4 + 44_100 * 5 / 1000 * 4)])
        #expect(isAudioThenSilence(recorded, expected))
        let audio = recorded.prefix(reference.count)
        let fade = 44_100 * 5 / 1000
        let resumeByte = Int(pausedAt) * 4
        expectSame(audio.prefix(resumeByte), reference.prefix(resumeByte))
        expectSame(audio.suffix(from: resumeByte + fade * 4), reference.suffix(from: resumeByte + fade * 4))
    }

    @Test func seekContinuesFromTheTarget() throws {
        let log = EventLog()
        let file = fx.path("rec-seek.raw")
        let engine = try engine(recordingTo: file, log: log)
        engine.play(TrackRef(token: 1, path: fx.path("music16.flac")), paused: true)
        engine.seek(toFrame: 200_000)
        engine.resume()
        #expect(log.wait { $0.isFinished })
        engine.shutdown()
        let reference = try fx.flacReference("music16.flac")
        let fade = 44_100 * 5 / 1000
        let expected = reference.count - 200_000 * 4
        let recorded = try recording(file)
        // After the fade-in, the rest of the track, then silence.
        #expect(isAudioThenSilence(recorded.suffix(from: fade * 4), reference.suffix(from: 200_000 * 4 + fade * 4)))
        #expect(recorded.count >= expected)
    }

    @Test func anUndecodableTrackIsReported() throws {
        let log = EventLog()
        let engine = try engine(recordingTo: fx.path("rec-bad.raw"), log: log)
        engine.play(TrackRef(token: 9, path: try fx.write("engine-junk.flac", [1, 2, 3])))
        #expect(log.wait { if case .trackFailed(9, _) = $0 { true } else { false } })
        engine.shutdown()
    }
}

/// M4A through the whole engine: what alsa-lib records is what the decoder gives.
extension EngineALSATests {
    @Test func playsAnALACTrackAsItsSourceAndAACPartsGapless() throws {
        let mp4 = MP4Fixtures.shared
        let log = EventLog()
        let file = fx.path("rec-alac.raw")
        let first = try engine(recordingTo: file, log: log)
        first.play(TrackRef(token: 1, path: mp4.path("alac44s.m4a")))
        #expect(log.wait { $0.isFinished })
        first.shutdown()
        #expect(log.all.compactMap(\.failure).isEmpty)
        #expect(isAudioThenSilence(try recording(file), try mp4.wavData("music16.wav")))

        // Two AAC parts of one signal: their decodes follow each other with no gap.
        let joinedLog = EventLog()
        let joined = fx.path("rec-aac-gapless.raw")
        let second = try engine(recordingTo: joined, log: joinedLog)
        second.play(TrackRef(token: 1, path: mp4.path("part1.m4a")), next: TrackRef(token: 2, path: mp4.path("part2.m4a")))
        #expect(joinedLog.wait { $0.isFinished })
        second.shutdown()
        let expected = Data(try AudioFile.open(mp4.path("part1.m4a")).readAll() + AudioFile.open(mp4.path("part2.m4a")).readAll())
        #expect(isAudioThenSilence(try recording(joined), expected))
        #expect(joinedLog.all.contains { if case .trackStarted(2) = $0 { true } else { false } })
    }
}
