import Foundation
import Testing
@testable import JukeboxCore

@Suite struct ConfigTests {
    func parse(_ text: String) throws -> JukeboxConfig { try ConfigLoader.parse(text, path: "j.toml") }

    func error(_ text: String) -> ConfigError? {
        do { _ = try parse(text); return nil } catch { return error as? ConfigError }
    }

    /// The shipped reference file parses, and every key in it is one the loader knows.
    @Test func shippedConfigIsValid() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let config = try ConfigLoader.load(path: root.appendingPathComponent("config/jukebox.toml").path)
        #expect(config.playback.player.mode == .repeatAll)
        #expect(config.audio.output.device == "default")
        #expect(config.control.socketPath == "/run/jukebox/control")
        #expect(config.input.buttons.count == 5 && config.input.encoders.count == 1 && config.input.keys.count == 3)
    }

    @Test func emptyFileGivesDefaults() throws {
        #expect(try parse("") == JukeboxConfig())
    }

    @Test func values() throws {
        let c = try parse("""
            [playback]
            mode = "shuffle"
            start_volume = 40
            min_volume = 10
            previous_restart_seconds = 2.5
            [audio]
            device = "hw:1,0"
            buffer_ms = 200
            [control]
            tcp_port = 6600
            """)
        #expect(c.playback.player.mode == .shuffle)
        #expect(c.playback.player.startVolume == 40)
        #expect(c.playback.player.minimumVolume == 10)
        #expect(c.playback.player.previousRestartSeconds == 2.5)
        #expect(c.audio.output.device == "hw:1,0")
        #expect(c.audio.output.bufferMilliseconds == 200)
        #expect(c.control.tcpPort == 6600)
    }

    @Test func syntaxErrorsAreLocated() {
        let e = error("[playback]\nautoplay = tru\n")
        #expect(e?.line == 2)
        #expect(e?.description.hasPrefix("j.toml:2:") == true)
    }

    @Test func typosAreNamedWithASuggestion() {
        let e = error("[playback]\nmode = \"once\"\n  autoplya = true\n")
        #expect(e?.line == 3)
        #expect(e?.column == 3)
        #expect(e?.reason.contains("unknown key \"autoplya\" in [playback]; did you mean \"autoplay\"?") == true)
        #expect(error("[plaback]\n")?.reason.contains("unknown key \"plaback\"") == true)
    }

    @Test func wrongTypesAndRanges() {
        #expect(error("[playback]\nautoplay = \"yes\"")?.reason == "autoplay must be true or false")
        let range = error("[playback]\n\nstart_volume = 150")
        #expect(range?.line == 3)
        #expect(range?.reason == "start_volume is 150; it must be from 0 to 100")
        #expect(error("[playback]\nmode = \"loop\"")?.reason.contains("mode must be one of once, repeat-all") == true)
        #expect(error("[playback]\nmin_volume = 80\nmax_volume = 20")?.reason.contains("above max_volume") == true)
        #expect(error("[audio]\nbuffer_ms = 40\nperiod_ms = 30")?.reason.contains("at most half") == true)
        #expect(error("playback = 3")?.reason.contains("section") == true)
    }

    @Test func missingFile() {
        #expect(throws: ConfigError.self) { try ConfigLoader.load(path: "/nonexistent/jukebox.toml") }
    }
}
