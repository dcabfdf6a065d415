import Foundation
import Testing
@testable import JukeboxCore

/// Cards through the socket's virtual reader (`card UID`, `card-removed`) on a real box:
/// a card plays its folder, lifting pauses, the same card resumes, each card keeps its
/// own place across a SIGKILL, and a broken or huge cards file never stops the music.
@Suite(.serialized) struct CardsDaemonTests {
    let fx = Fixtures.shared

    /// Two folders of two long tracks each, a config with no autoplay, and its cards file.
    private func box(_ name: String, cards: String) throws -> (music: String, config: String, cardsFile: String, state: String) {
        let music = try fx.scratchFolder("\(name)-music")
        for (folder, pitches) in [("Dinosaurs", [440, 550]), ("Songs", [660, 770])] {
            try FileManager.default.createDirectory(atPath: "\(music)/\(folder)", withIntermediateDirectories: true)
            for (i, pitch) in pitches.enumerated() where !FileManager.default.fileExists(atPath: "\(music)/\(folder)/\(i + 1).flac") {
                _ = try Tools.run("sox", ["-n", "-r", "8000", "-c", "1", "-b", "16", "\(music)/\(folder)/\(i + 1).flac", "synth", "600", "sine", "\(pitch)"])
            }
        }
        let folder = try fx.scratchFolder("\(name)-config")
        let state = "\(folder)/state"
        for leftover in [state, state + ".prev", state + ".queue.m3u"] { try? FileManager.default.removeItem(atPath: leftover) }
        let config = "\(folder)/jukebox.toml"
        try "[playback]\nautoplay = false\n[state]\ninterval = 1\n[control]\nkeyboard = false\n[cards]\nremoval_grace_ms = 300\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let cardsFile = "\(folder)/cards.toml"
        try cards.write(toFile: cardsFile, atomically: true, encoding: .utf8)
        return (music, config, cardsFile, state)
    }

    static let twoCards = """
        # Lena's dinosaur book
        [card.0A1B2C3D4E]
        name = "Dinosaurs"
        play = "Dinosaurs"
        resume = true

        [card.12345678]
        name = "Songs"
        play = "Songs"

        """

    private func field(_ name: String, _ daemon: RunningDaemon) -> String? {
        daemon.ctl(["status"]).flatMap { PowerCutTests.field(name, $0) }
    }

    private func current(_ daemon: RunningDaemon) -> String? {
        daemon.ctl(["currentsong"]).flatMap { PowerCutTests.field("file", $0) }
    }

    @Test func aCardPlaysItsFolderPausesWhenLiftedAndResumes() throws {
        let box = try box("cards-play", cards: Self.twoCards)
        let daemon = try RunningDaemon(name: "cards-play", config: box.config, musicDirectory: box.music, device: NullOutput.deviceName, stateFile: box.state)
        #expect(daemon.wait(seconds: 30) { daemon.log.contains("cards: ") && daemon.ctl(["status"]) != nil }, "\(daemon.log)")
        #expect(daemon.ctl(["card", "0a1b2c3d4e"]) != nil)
        #expect(daemon.wait(seconds: 10) { field("state", daemon) == "play" && current(daemon) == "Dinosaurs/1.flac" }, "\(daemon.log)")
        #expect(field("playlistlength", daemon) == "2")
        // Seen again and again while it lies there: one placement, nothing restarts.
        Thread.sleep(forTimeInterval: 1.2)
        #expect(daemon.ctl(["card", "0A1B2C3D4E"]) != nil)
        Thread.sleep(forTimeInterval: 0.3)
        #expect((field("elapsed", daemon).flatMap(Double.init) ?? 0) >= 1, "\(daemon.log)")
        // Lifted: paused at once; back within the grace period: plays on.
        #expect(daemon.ctl(["card-removed"]) != nil)
        #expect(daemon.wait(seconds: 5) { field("state", daemon) == "pause" })
        #expect(daemon.ctl(["card", "0A1B2C3D4E"]) != nil)
        #expect(daemon.wait(seconds: 5) { field("state", daemon) == "play" })
        #expect(daemon.log.contains("input: card Dinosaurs"), "the card's action is logged for the latency figure")
        // Another card switches.
        #expect(daemon.ctl(["card", "12345678"]) != nil)
        #expect(daemon.wait(seconds: 10) { current(daemon) == "Songs/1.flac" && field("state", daemon) == "play" }, "\(daemon.log)")
        // An unknown card is offered for linking, and the music plays on.
        #expect(daemon.ctl(["card", "FFFF"]) != nil)
        #expect(daemon.wait(seconds: 5) { daemon.log.contains("card FFFF is not in") }, "\(daemon.log)")
        #expect(field("state", daemon) == "play")
        #expect(daemon.ctl(["card", "not a card"]) == nil, "a bad number is refused")
        #expect(daemon.ctl(["commands"]).map { !$0.contains("command: card") } ?? false, "unlisted, as MPD lists its own")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 10))
    }

    @Test func eachCardKeepsItsPlaceAcrossAPowerCut() throws {
        let box = try box("cards-resume", cards: Self.twoCards)
        let first = try RunningDaemon(name: "cards-resume", config: box.config, musicDirectory: box.music, device: NullOutput.deviceName, stateFile: box.state)
        #expect(first.wait(seconds: 30) { first.log.contains("cards: ") && first.ctl(["status"]) != nil }, "\(first.log)")
        #expect(first.ctl(["card", "0A1B2C3D4E"]) != nil)
        #expect(first.wait(seconds: 10) { current(first) == "Dinosaurs/1.flac" })
        #expect(first.ctl(["next"]) != nil)
        #expect(first.wait(seconds: 10) { current(first) == "Dinosaurs/2.flac" && (field("elapsed", first).flatMap(Double.init) ?? 0) > 0 })
        Thread.sleep(forTimeInterval: 3)
        // Another card plays; the book's place is kept for it.
        #expect(first.ctl(["card", "12345678"]) != nil)
        #expect(first.wait(seconds: 10) { current(first) == "Songs/1.flac" })
        Thread.sleep(forTimeInterval: 2)
        first.send(SIGKILL)
        #expect(first.waitForExit(seconds: 10))

        let second = try RunningDaemon(name: "cards-resume", config: box.config, musicDirectory: box.music, device: NullOutput.deviceName, stateFile: box.state)
        #expect(second.wait(seconds: 30) { second.log.contains("cards: ") && second.ctl(["status"]) != nil }, "\(second.log)")
        #expect(second.ctl(["card", "0A1B2C3D4E"]) != nil)
        #expect(second.wait(seconds: 10) {
            current(second) == "Dinosaurs/2.flac" && (field("elapsed", second).flatMap(Double.init) ?? 0) >= 2
        }, "\(second.log)")
        second.send(SIGTERM)
        #expect(second.waitForExit(seconds: 10))
    }

    @Test func aBrokenEditOrAMissingFolderKeepsTheMusicPlaying() throws {
        let box = try box("cards-broken", cards: Self.twoCards + "[card.777]\nplay = \"Gone\"\n")
        let daemon = try RunningDaemon(name: "cards-broken", config: box.config, musicDirectory: box.music, device: NullOutput.deviceName, stateFile: box.state)
        #expect(daemon.wait(seconds: 30) { daemon.log.contains("cards: ") && daemon.ctl(["status"]) != nil }, "\(daemon.log)")
        #expect(daemon.ctl(["card", "12345678"]) != nil)
        #expect(daemon.wait(seconds: 10) { current(daemon) == "Songs/1.flac" && field("state", daemon) == "play" })
        // A card whose folder is gone: said, refused, the music plays on.
        #expect(daemon.ctl(["card", "777"]) != nil)
        #expect(daemon.wait(seconds: 5) { daemon.log.contains("Gone is not in the music folder") }, "\(daemon.log)")
        #expect(current(daemon) == "Songs/1.flac" && field("state", daemon) == "play")
        // Saved as nonsense: refused with its line, the last good cards still work.
        try "[card.0A1B2C3D4E]\nname = \"Dinosaurs\"\nplay = \"Dinosaurs\"\nvolume = 3\n".write(toFile: box.cardsFile, atomically: true, encoding: .utf8)
        #expect(daemon.wait(seconds: 5) { daemon.log.contains("cards.toml:4:1: card 0A1B2C3D4E has both play and volume") }, "\(daemon.log)")
        #expect(field("state", daemon) == "play")
        #expect(daemon.ctl(["card", "0A1B2C3D4E"]) != nil)
        #expect(daemon.wait(seconds: 10) { current(daemon) == "Dinosaurs/1.flac" }, "the last good file is kept: \(daemon.log)")
        // Fixed: taken up.
        try "[card.0A1B2C3D4E]\nplay = \"Songs\"\n".write(toFile: box.cardsFile, atomically: true, encoding: .utf8)
        #expect(daemon.wait(seconds: 5) { daemon.log.contains("cards.toml saved: 1 cards") }, "\(daemon.log)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 10))
    }

    /// 10,000 cards load, and the time and memory it takes are reported (not asserted).
    @Test func tenThousandCardsLoad() throws {
        var text = "# A very large family\n"
        for i in 0..<10_000 {
            text += "[card.\(String(i * 7919 + 1_000_000, radix: 16, uppercase: true))]\nname = \"Card \(i)\"\nplay = \"Songs\"\nresume = true\n\n"
        }
        let box = try box("cards-many", cards: text)
        let daemon = try RunningDaemon(name: "cards-many", config: box.config, musicDirectory: box.music, device: NullOutput.deviceName, stateFile: box.state)
        #expect(daemon.wait(seconds: 60) { daemon.log.contains("10000 cards") && daemon.ctl(["status"]) != nil }, "\(daemon.log)")
        let line = daemon.log.split(separator: "\n").first { $0.contains("10000 cards") } ?? ""
        print("cards: \(text.utf8.count) bytes, 10,000 cards: \(line); daemon peak RSS \(daemon.memory().peak >> 10) KiB")
        #expect(daemon.ctl(["card", String(9999 * 7919 + 1_000_000, radix: 16, uppercase: true)]) != nil)
        #expect(daemon.wait(seconds: 10) { current(daemon) == "Songs/1.flac" }, "\(daemon.log)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 10))
    }
}
