import Foundation
import Testing
@testable import JukeboxCore

/// A card the box does not know, on a real box with nothing playing: its jingle is
/// written to the device alone, at the jingles' level, and nothing else is.
@Suite(.serialized) struct JingleDaemonTests {
    let fx = Fixtures.shared

    @Test func anUnknownCardSoundsTheUnknownJingle() throws {
        let folder = try fx.scratchFolder("jingle-daemon")
        let music = "\(folder)/music"
        try FileManager.default.createDirectory(atPath: "\(music)/Songs", withIntermediateDirectories: true)
        _ = try Tools.run("sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", "\(music)/Songs/1.flac", "synth", "30", "sine", "440"])
        _ = try Tools.run("sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", "\(folder)/what.wav", "synth", "0.4", "sine", "880", "gain", "-3"])
        let config = "\(folder)/jukebox.toml"
        try "[playback]\nautoplay = false\n[control]\nkeyboard = false\n[jingles]\nunknown = \"what.wav\"\nvolume = 40\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        try "[card.1001]\nplay = \"Songs\"\n".write(toFile: "\(folder)/cards.toml", atomically: true, encoding: .utf8)
        let recording = "\(folder)/out.raw"
        try? FileManager.default.removeItem(atPath: recording)
        let daemon = try RunningDaemon(name: "jingle-daemon", config: config, musicDirectory: music,
                                       device: "file:FILE=\(recording),FORMAT=raw", stateFile: "")
        #expect(daemon.wait(seconds: 30) { daemon.log.contains("cards: ") && daemon.ctl(["status"]) != nil }, "\(daemon.log)")
        #expect(daemon.ctl(["card", "FFFF"]) != nil)
        #expect(daemon.wait(seconds: 10) { (try? FileManager.default.attributesOfItem(atPath: recording)[.size] as? Int).flatMap { $0 } ?? 0 >= 4 * 17_640 }, "\(daemon.log)")
        Thread.sleep(forTimeInterval: 0.5)
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 10))
        let samples = try Data(contentsOf: URL(fileURLWithPath: recording)).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let sound = try JingleSound.load("\(folder)/what.wav", gain: 1)
        let peak = Double(samples.map { abs(Int($0)) }.max() ?? 0)
        let expected = Double(sound.samples.map(abs).max() ?? 0) * VolumeCurve.amplitude(40) * 32_767
        #expect(abs(peak - expected) <= 2, "peak \(peak), expected \(expected)")
        let sounding = samples.lastIndex { $0 != 0 }.map { $0 / 2 + 1 } ?? 0
        #expect(abs(sounding - sound.frames) <= 44, "\(sounding) frames sound, the jingle has \(sound.frames)")
    }
}
