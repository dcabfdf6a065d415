import Foundation
import Testing
@testable import JukeboxCore

/// `jukebox run` as the box runs it: the binary, a config file, a library, and ALSA's
/// `file` PCM recording what it plays.
@Suite(.serialized) struct RunCommandTests {
    let fx = Fixtures.shared

    @Test func playsTheLibraryInOrderGaplesslyAndExits() throws {
        let library = try fx.scratchFolder("run-library")
        try? FileManager.default.removeItem(atPath: library)
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        // Three tracks cut from one signal at sample boundaries, named so that only
        // natural order puts them right.
        try Tools.run("sox", [fx.path("music16.wav"), "\(library)/track 1.flac", "trim", "0", "70001s"])
        try Tools.run("sox", [fx.path("music16.wav"), "\(library)/track 2.flac", "trim", "70001s", "90000s"])
        try Tools.run("sox", [fx.path("music16.wav"), "\(library)/track 10.flac", "trim", "160001s"])
        try Data([9, 9, 9]).write(to: URL(fileURLWithPath: "\(library)/track 3.flac"))  // bad: skipped, logged
        let config = fx.path("run.toml")
        try """
            [playback]
            mode = "once"
            start_volume = 100
            [control]
            keyboard = false
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let recording = fx.path("run-recording.raw")
        try? FileManager.default.removeItem(atPath: recording)
        let socket = NSTemporaryDirectory() + "jukebox-run-\(getpid()).sock"
        let out = try Tools.run("timeout", ["60", Tools.jukebox, "run", "--state", "", "--config", config, "--music-dir", library,
                                            "--device", "file:FILE=\(recording),FORMAT=raw", "--socket", socket,
                                            "--exit-when-done"], check: false)
        #expect(out.status == 0, "\(out.stderr)")
        let whole = try Tools.run("sox", [fx.path("music16.wav"), "-t", "raw", "-"]).stdout
        let recorded = try Data(contentsOf: URL(fileURLWithPath: recording))
        #expect(isAudioThenSilence(recorded, whole))
        #expect(out.stderr.contains("track 3.flac"))
        #expect(out.stderr.contains("library: 3 tracks"))
        #expect(out.stderr.contains("end of the queue"))
    }

    @Test func aChosenPlaylistIsTheQueue() throws {
        let library = try fx.scratchFolder("run-playlist")
        try? FileManager.default.removeItem(atPath: library)
        try FileManager.default.createDirectory(atPath: "\(library)/lists", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fx.path("music24.flac"), toPath: "\(library)/a.flac")
        try FileManager.default.copyItem(atPath: fx.path("mono8k.flac"), toPath: "\(library)/b.flac")
        try "#EXTM3U\n#EXTINF:4,Only A\n../a.flac\n../missing.flac\n".write(toFile: "\(library)/lists/Only A.m3u8", atomically: true, encoding: .utf8)
        let config = fx.path("run-playlist.toml")
        try "[library]\nplaylist = \"Only A\"\n[playback]\nmode = \"once\"\nstart_volume = 100\n[control]\nkeyboard = false\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let recording = fx.path("run-playlist.raw")
        try? FileManager.default.removeItem(atPath: recording)
        let out = try Tools.run("timeout", ["60", Tools.jukebox, "run", "--state", "", "--config", config, "--music-dir", library,
                                            "--device", "file:FILE=\(recording),FORMAT=raw",
                                            "--socket", NSTemporaryDirectory() + "jukebox-pl-\(getpid()).sock", "--exit-when-done"], check: false)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.contains("playlist Only A: 1 tracks, 1 not found or not playable"))
        #expect(isAudioThenSilence(try Data(contentsOf: URL(fileURLWithPath: recording)), try fx.flacReference("music24.flac"),
                                   bytesPerFrame: 6, sampleRate: 96_000))
    }

    @Test func badConfigIsRefusedWithItsPosition() throws {
        let config = fx.path("bad.toml")
        try "[playback]\nvolume_stpe = 3\n".write(toFile: config, atomically: true, encoding: .utf8)
        let out = try Tools.run(Tools.jukebox, ["run", "--state", "", "--config", config], check: false)
        #expect(out.status == 2)
        #expect(out.stderr.contains("\(config):2:1: unknown key \"volume_stpe\" in [playback]; did you mean \"volume_step\"?"))
    }
}
