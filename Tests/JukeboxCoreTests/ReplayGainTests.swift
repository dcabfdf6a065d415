import Foundation
import Testing
@testable import JukeboxCore

/// The rules alone: which gain a track gets, and how the mode settles.
@Suite struct ReplayGainRuleTests {
    let tagged = ReplayGainTags(trackGain: -6, trackPeak: 0.5, albumGain: -3, albumPeak: 0.9)

    func rule(_ use: ReplayGainRule.Use, preamp: Double = 0, missing: Double = 0, limit: Bool = true) -> ReplayGainRule {
        ReplayGainRule(use: use, preampDecibels: preamp, missingPreampDecibels: missing, preventClipping: limit)
    }

    @Test func eachModeTakesItsGain() {
        #expect(rule(.none).scale(for: tagged) == 1)
        #expect(abs(rule(.track).scale(for: tagged) - 0.501187) < 1e-6)  // −6 dB
        #expect(abs(rule(.album).scale(for: tagged) - 0.707946) < 1e-6)  // −3 dB
        #expect(abs(rule(.album, preamp: 3).scale(for: tagged) - 1) < 1e-9)
    }

    @Test func aMissingGainFallsBackToTheOther() {
        let trackOnly = ReplayGainTags(trackGain: -6)
        let albumOnly = ReplayGainTags(albumGain: -3)
        #expect(rule(.album).scale(for: trackOnly) == rule(.track).scale(for: trackOnly))
        #expect(rule(.track).scale(for: albumOnly) == rule(.album).scale(for: albumOnly))
    }

    @Test func untaggedFilesGetTheMissingPreampOnlyWhileOn() {
        #expect(abs(rule(.track, missing: -6).scale(for: ReplayGainTags()) - 0.501187) < 1e-6)
        #expect(rule(.none, missing: -6).scale(for: ReplayGainTags()) == 1)
    }

    @Test func thePeakHoldsAGainBack() {
        // +12 dB would take a 0.5 peak to 2.0: held at full scale instead.
        let quiet = ReplayGainTags(trackGain: 12, trackPeak: 0.5)
        #expect(rule(.track).scale(for: quiet) == 2)  // 1 / 0.5
        #expect(abs(rule(.track, limit: false).scale(for: quiet) - 3.981072) < 1e-6)
        // Without a peak tag nothing is known to hold back.
        #expect(abs(rule(.track).scale(for: ReplayGainTags(trackGain: 12)) - 3.981072) < 1e-6)
    }

    @Test func autoIsAlbumInOrderAndTrackInShuffle() {
        var settings = ReplayGainSettings()
        settings.preampDecibels = 2
        #expect(settings.rule(shuffling: false).use == .album)
        #expect(settings.rule(shuffling: true).use == .track)
        #expect(settings.rule(shuffling: true).preampDecibels == 2)
        settings.mode = .off
        #expect(settings.rule(shuffling: false).use == .none)
    }

    @Test func aGainAboveOneIsHeldAtFullScaleNotWrapped() {
        let format = OutputFormat(sampleRate: 1000, channels: 1, sampleFormat: .s16)
        let gain = GainStage()
        gain.setReplayGain(4)
        let samples: [Int16] = [10_000, -10_000, 100, -100]
        _ = samples.withUnsafeBytes { gain.process($0, frames: 4, format: format) }  // the ramp up
        let out: [Int16] = samples.withUnsafeBytes { Array(gain.process($0, frames: 4, format: format).bindMemory(to: Int16.self)) }
        #expect(out == [32767, -32768, 400, -400])
        let s24 = OutputFormat(sampleRate: 1000, channels: 1, sampleFormat: .s24)
        var loud: [UInt8] = [0x00, 0x00, 0x40]  // 0x400000, a quarter past half scale
        loud.withUnsafeMutableBytes { GainRamp.apply($0.baseAddress!, frames: 1, format: s24, from: 4, to: 4) }
        #expect(loud == [0xFF, 0xFF, 0x7F])
    }
}

/// The player tells the engine the rule as it changes: at start, when the queue starts or
/// stops shuffling, when a client sets the mode, and when the config is edited.
@Suite struct ReplayGainPlayerTests {
    @Test func theRuleFollowsShuffleAndTheClientsMode() {
        let engine = FakeEngine()
        let player = Player(engine: engine)
        player.setTracks(["/m/a.flac", "/m/b.flac"])
        _ = player.status
        #expect(engine.replayGainRules.last?.use == .album)
        player.perform(.setOption(.random(true)))
        #expect(engine.replayGainRules.last?.use == .track)

        let session = ControlSession(player: player)
        #expect(session.handle(line: "replay_gain_status") == .reply("replay_gain_mode: auto\nOK\n"))
        #expect(session.handle(line: "replay_gain_mode off") == .reply("OK\n"))
        #expect(engine.replayGainRules.last?.use == ReplayGainRule.Use.none)
        #expect(session.handle(line: "replay_gain_status") == .reply("replay_gain_mode: off\nOK\n"))
        #expect(session.handle(line: "replay_gain_mode loud") == .reply("ACK [2@0] {replay_gain_mode} Unrecognized replay gain mode\n"))
        #expect(player.status.replayGainMode == .off)
    }

    @Test func aClientsModeIsKeptUntilTheConfigsModeIsEdited() {
        let engine = FakeEngine()
        let player = Player(engine: engine)
        player.perform(.setReplayGainMode(.track))
        var settings = Player.Settings()
        settings.replayGain.preampDecibels = 6  // an edit that leaves the mode alone
        player.updateSettings(settings)
        #expect(player.status.replayGainMode == .track)
        #expect(engine.replayGainRules.last == ReplayGainRule(use: .track, preampDecibels: 6, missingPreampDecibels: 0, preventClipping: true))
        settings.replayGain.mode = .off
        player.updateSettings(settings)
        #expect(player.status.replayGainMode == .off)
    }

    @Test func aModeChangeIsAnOptionsChange() {
        final class Seen: @unchecked Sendable { var changes: [PlayerChanges] = [] }
        let seen = Seen()
        let player = Player(engine: FakeEngine())
        _ = player.status
        _ = player.observeChanges { seen.changes.append($0) }
        player.perform(.setReplayGainMode(.album))
        player.perform(.setReplayGainMode(.album))  // no change: nothing to tell
        _ = player.status
        #expect(seen.changes.filter { $0.contains(.options) }.count == 1)
    }
}

@Suite struct ReplayGainConfigTests {
    @Test func keysAreReadAndChecked() throws {
        let c = try ConfigLoader.parse("""
            [playback]
            replay_gain = "album"
            replay_gain_preamp = 4.5
            replay_gain_missing_preamp = -3
            replay_gain_limit = false
            """, path: "j.toml")
        var expected = ReplayGainSettings()
        expected.mode = .album
        expected.preampDecibels = 4.5
        expected.missingPreampDecibels = -3
        expected.preventClipping = false
        #expect(c.playback.player.replayGain == expected)
        #expect(try ConfigLoader.parse("", path: "j.toml").playback.player.replayGain.mode == .auto)
        let word = #expect(throws: ConfigError.self) { try ConfigLoader.parse("[playback]\nreplay_gain = \"loud\"\n", path: "j.toml") }
        #expect(word?.line == 2)
        #expect(word?.reason == "replay_gain must be one of off, track, album, auto, not \"loud\"")
        #expect(throws: ConfigError.self) { try ConfigLoader.parse("[playback]\nreplay_gain_preamp = 40\n", path: "j.toml") }
    }
}

/// The point of it on a kids' box: a loud album and a quiet one, tagged as a ReplayGain 2.0
/// tagger does (EBU R128, to −18 LUFS), played through the real engine and alsa-lib, and
/// measured by ffmpeg's R128 meter.
@Suite struct ReplayGainLoudnessTests {
    /// Two tracks as one album, mastered at `gain` dB: `sounds` are sox synth arguments.
    func album(_ name: String, gain: Double, _ sounds: [[String]]) throws -> [String] {
        let folder = try Fixtures.shared.scratchFolder("replaygain-\(name)")
        let tracks = sounds.indices.map { "\(folder)/\($0 + 1).flac" }
        for (track, sound) in zip(tracks, sounds) {
            _ = try Tools.run("sox", ["-n", "-r", "44100", "-b", "16", "-c", "2", track, "synth", "4"] + sound + ["gain", "\(gain)"])
        }
        // The album's loudness and peak over both tracks, as a tagger measures an album.
        let whole = "\(folder)/album.wav"
        _ = try Tools.run("sox", tracks + [whole])
        let (integrated, peak) = try meter(["-i", whole])
        for track in tracks {
            _ = try Tools.run("metaflac", ["--set-tag=REPLAYGAIN_ALBUM_GAIN=\(-18 - integrated) dB",
                                           "--set-tag=REPLAYGAIN_ALBUM_PEAK=\(pow(10, peak / 20))", track])
        }
        return tracks
    }

    /// The album played gaplessly under `rule`, recorded as raw PCM.
    func play(_ tracks: [String], _ rule: ReplayGainRule, into name: String) throws -> String {
        let log = EventLog()
        let path = Fixtures.shared.path(name)
        try? FileManager.default.removeItem(atPath: path)
        let engine = AudioEngine(output: ALSAOutput(.init(device: "file:FILE=\(path),FORMAT=raw", allowConversion: false))) { log.append($0) }
        try engine.start()
        engine.setReplayGain(rule)
        engine.play(TrackRef(token: 1, path: tracks[0]), next: TrackRef(token: 2, path: tracks[1]))
        #expect(log.wait { $0.isFinished })
        engine.shutdown()
        return path
    }

    /// Integrated loudness (LUFS) and sample peak (dBFS) from ffmpeg's `ebur128` filter.
    func meter(_ input: [String]) throws -> (integrated: Double, peak: Double) {
        let out = try Tools.run("ffmpeg", ["-nostats", "-hide_banner"] + input + ["-af", "ebur128=peak=sample", "-f", "null", "-"])
        // The summary comes last: "I:  -23.0 LUFS" and, under "Sample peak:", "Peak:  -5.2 dBFS".
        func figure(_ label: String) throws -> Double {
            let line = try #require(out.stderr.split(separator: "\n").last { $0.split(separator: " ").first == Substring(label) })
            return try #require(line.split(separator: " ").dropFirst().first.flatMap { Double($0) })
        }
        return (try figure("I:"), try figure("Peak:"))
    }

    func loudness(_ raw: String) throws -> Double {
        try meter(["-f", "s16le", "-ar", "44100", "-ac", "2", "-i", raw]).integrated
    }

    @Test func albumsEightDecibelsApartPlayWithinOne() throws {
        // Other sounds on each, as two real albums.
        let loud = try album("loud", gain: -5, [["pinknoise"], ["pluck", "C3", "pluck", "G3"]])
        let quiet = try album("quiet", gain: -11.3, [["pinknoise", "lowpass", "5000"], ["pluck", "E2", "pluck", "B3", "pluck", "E4"]])
        var album = ReplayGainSettings()
        album.mode = .album
        let rule = album.rule(shuffling: false)
        let asMastered = try loudness(play(loud, .off, into: "rg-loud-off.raw")) - loudness(play(quiet, .off, into: "rg-quiet-off.raw"))
        let levelled = try loudness(play(loud, rule, into: "rg-loud.raw")) - loudness(play(quiet, rule, into: "rg-quiet.raw"))
        #expect(abs(asMastered - 8) < 0.5)
        #expect(abs(levelled) < 1)
        print("ReplayGain: albums \(asMastered) dB apart as mastered, \(levelled) dB with album gain")
    }
}
