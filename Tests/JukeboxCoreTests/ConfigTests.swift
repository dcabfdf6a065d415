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

    @Test func stateAndResumeKeys() throws {
        let c = try parse("""
            [library]
            music_dir = "/m"
            remember_position = ["Books", "/elsewhere/Plays"]
            [playback]
            resume = "always"
            [state]
            file = "/data/state"
            interval = 2.5
            """)
        #expect(c.library.rememberedFolders == ["/m/Books", "/elsewhere/Plays"])
        #expect(c.playback.resume == .always)
        #expect(c.state == JukeboxConfig.State(file: "/data/state", interval: 2.5))
        #expect(throws: ConfigError.self) { try parse("[playback]\nresume = \"sometimes\"\n") }
        #expect(throws: ConfigError.self) { try parse("[state]\ninterval = 0\n") }
        #expect(throws: ConfigError.self) { try parse("[library]\nremember_position = \"Books\"\n") }
    }

    @Test func systemdFoldersGiveTheDefaults() throws {
        let env = ["STATE_DIRECTORY": "/var/lib/jukebox:/var/lib/other", "RUNTIME_DIRECTORY": "/run/jukebox"]
        let c = try ConfigLoader.parse("", path: "t.toml", environment: env)
        #expect(c.state.file == "/var/lib/jukebox/state")
        #expect(c.control.socketPath == "/run/jukebox/control")
        // A key in the file still wins.
        let set = try ConfigLoader.parse("[state]\nfile = \"\"\n", path: "t.toml", environment: env)
        #expect(set.state.file == "")
        #expect(try parse("").state.file == "/var/lib/jukebox/state")
    }

    /// Issue 33 #12: `--music-dir` replaces music_dir only; a configured playlists_dir stays.
    @Test func musicDirLeavesAConfiguredPlaylistsFolderAlone() throws {
        let folder = try Fixtures.shared.scratchFolder("music-dir-override")
        let configured = "\(folder)/configured.toml"
        try "[library]\nmusic_dir = \"/srv/music\"\nplaylists_dir = \"/srv/lists\"\n".write(toFile: configured, atomically: true, encoding: .utf8)
        let c = try ConfigSource(path: configured, musicDirectory: "/home/pi/Music").load()
        #expect(c.library.musicDirectory == "/home/pi/Music")
        #expect(c.library.playlistsDirectory == "/srv/lists")
        // Set to the default's own value, it is still the admin's choice.
        try "[library]\nplaylists_dir = \"/srv/music/playlists\"\n".write(toFile: configured, atomically: true, encoding: .utf8)
        #expect(try ConfigSource(path: configured, musicDirectory: "/m").load().library.playlistsDirectory == "/srv/music/playlists")
        // Empty: no playlists folder, as configured.
        try "[library]\nplaylists_dir = \"\"\n".write(toFile: configured, atomically: true, encoding: .utf8)
        #expect(try ConfigSource(path: configured, musicDirectory: "/m").load().library.playlistsDirectory == "")
        // Not set: playlists live with the music given.
        try "".write(toFile: configured, atomically: true, encoding: .utf8)
        let unset = try ConfigSource(path: configured, musicDirectory: "/m").load()
        #expect(unset.library.musicDirectory == "/m" && unset.library.playlistsDirectory == "/m")
        #expect(try ConfigSource(path: configured).load().library == JukeboxConfig().library)
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

    @Test func audioRoute() throws {
        let c = try parse("""
            [audio]
            devices = ["hw:CARD=DAC,DEV=0", "hw:CARD=Headphones,DEV=0"]
            on_output_lost = "continue"
            resume_on_reconnect = false
            """)
        #expect(c.audio.devices == ["hw:CARD=DAC,DEV=0", "hw:CARD=Headphones,DEV=0"])
        #expect(c.audio.output.device == "hw:CARD=DAC,DEV=0")
        #expect(c.audio.onOutputLost == .continue)
        #expect(!c.playback.player.resumeOnReconnect)
        #expect(try parse("[audio]\ndevice = \"hw:CARD=DAC\"").audio.devices == ["hw:CARD=DAC"])
        #expect(error("[audio]\ndevice = \"a\"\ndevices = [\"b\"]")?.description.contains("either device or devices") == true)
        #expect(error("[audio]\ndevices = []")?.description == "j.toml:2:1: devices is empty; name at least one device, such as \"default\"")
        #expect(error("[audio]\ndevices = [1]")?.description.contains("strings in quotes") == true)
        #expect(error("[audio]\non_output_lost = \"stop\"")?.description.contains("\"pause\" or \"continue\"") == true)
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

/// Files as editors and accidents leave them: CRLF, a stray NUL, bytes that are not UTF-8,
/// dotted keys. Each error still names its own line.
@Suite struct ConfigTextTests {
    func error(_ text: String) -> ConfigError? {
        do { _ = try ConfigLoader.parse(text, path: "j.toml"); return nil } catch { return error as? ConfigError }
    }

    func loadError(_ bytes: [UInt8]) throws -> ConfigError? {
        let path = NSTemporaryDirectory() + "jukebox-config-\(UUID().uuidString).toml"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do { _ = try ConfigLoader.load(path: path); return nil } catch { return error as? ConfigError }
    }

    @Test func crlfErrorsAreOnTheirLine() {
        let range = error("[playback]\r\nautoplay = true\r\n\r\nstart_volume = 150\r\n")
        #expect(range?.line == 4)
        #expect(range?.column == 1)
        let typo = error("[playback]\r\n  autoplya = true\r\n")
        #expect(typo?.line == 2)
        #expect(typo?.column == 3)
    }

    @Test func nulIsRefusedWithItsPosition() throws {
        let text = "[playback]\n# a comment with a \0 in it\nstart_volume = 101\n"
        let e = error(text)
        #expect(e?.line == 2)
        #expect(e?.column == 20)
        #expect(e?.reason.contains("NUL") == true)
        #expect(try loadError(Array(text.utf8))?.line == 2)
    }

    @Test func invalidUTF8IsRefusedWithItsPosition() throws {
        let bytes = Array("[library]\nmusic_dir = \"/srv/m".utf8) + [0xE9] + Array("sica\"\n".utf8)
        let e = try loadError(bytes)
        #expect(e?.line == 2)
        #expect(e?.column == 20)
        #expect(e?.reason.contains("0xE9") == true)
        #expect(e?.reason.contains("not UTF-8") == true)
    }

    @Test func dottedKeysAreLocatedOnTheirOwnLine() {
        let inside = error("[playback]\nmode = \"once\"\nplayback.autoplay = true\n")
        #expect(inside?.line == 3)
        #expect(inside?.reason.contains("unknown key \"playback\" in [playback]") == true)
        let top = error("\n\nplayback.start_volume = 150\n[library]\n")
        #expect(top?.line == 3)
        #expect(top?.reason.contains("start_volume is 150") == true)
        let relative = error("[library]\n\nplayback.start_volume = 150\n")
        #expect(relative?.line == 3)
        #expect(relative?.reason.contains("unknown key \"playback\" in [library]") == true)
        let table = error("[playback]\nautoplay = true\n[playback.extra]\nx = 1\n")
        #expect(table?.line == 3)
    }

    @Test func commentsAreNotTakenForKeys() {
        let e = error("[playback]\n# start_volume = 50 is a good value\nstart_volume = 150\n")
        #expect(e?.line == 3)
    }
}

/// `jukebox check-config`: the same check as run, without running.
@Suite struct CheckConfigCommandTests {
    let fx = Fixtures.shared

    @Test func aValidFileExitsZeroAndSaysWhatItSets() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let out = try Tools.run(Tools.jukebox, ["check-config", root.appendingPathComponent("config/jukebox.toml").path], check: false)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.text.contains("jukebox.toml: ok"))
        #expect(out.text.contains("audio    default, mixer auto"))
    }

    @Test func aBrokenFileExitsOneWithItsPlace() throws {
        let path = fx.path("check-broken.toml")
        try "[playback]\nresume = \"sometimes\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let out = try Tools.run(Tools.jukebox, ["check-config", path], check: false)
        #expect(out.status == 1)
        #expect(out.stderr.contains("\(path):2:1: resume must be one of playing, always, never, not \"sometimes\""), "\(out.stderr)")
        let missing = try Tools.run(Tools.jukebox, ["check-config", fx.path("no-such.toml")], check: false)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no-such.toml"))
    }
}

/// Which parts a config edit touches: only those are restarted by a live reload.
@Suite struct ConfigChangeTests {
    @Test func eachEditTouchesOnlyItsPart() throws {
        let old = JukeboxConfig()
        var new = old
        #expect(ConfigChange(from: old, to: new).isEmpty)
        new.playback.player.volumeStep = 7
        #expect(ConfigChange(from: old, to: new).parts == [.player])
        new = old
        new.library.rememberPosition = ["Audiobooks"]
        #expect(ConfigChange(from: old, to: new).parts == [.player])
        new = old
        new.library.musicDirectory = "/media/usb"
        // The remembered folders are relative to it, but there are none.
        #expect(ConfigChange(from: old, to: new).parts == [.library])
        new = old
        new.control.limits.maximumConnections = 5
        #expect(ConfigChange(from: old, to: new).parts == [.control])
        new = old
        new.control.keyboard = false
        new.playback.autoplay = false
        #expect(ConfigChange(from: old, to: new).parts == [.startOnly])
        new = old
        new.audio.devices = ["hw:CARD=DAC"]
        new.state.interval = 3
        #expect(ConfigChange(from: old, to: new).parts == [.audio, .state])
    }
}

@Suite struct DisplayConfigTests {
    func parse(_ text: String) throws -> JukeboxConfig { try ConfigLoader.parse(text, path: "j.toml") }
    func error(_ text: String) -> String? {
        do { _ = try parse(text); return nil } catch { return "\(error)" }
    }

    @Test func displayKeysParse() throws {
        let c = try parse("[display]\ndevice = \"png:/tmp/screen.png\"\nrotate = 90\nsize = \"240x240\"\nfonts = [\"/a.ttf\", \"/b.ttc\"]\n")
        #expect(c.display.device == .png("/tmp/screen.png") && c.display.rotate == .quarter)
        #expect(c.display.pngWidth == 240 && c.display.pngHeight == 240 && c.display.fonts == ["/a.ttf", "/b.ttc"])
        #expect(try parse("[display]\ndevice = \"/dev/fb1\"").display.device == .framebuffer("/dev/fb1"))
        #expect(try parse("").display.device == .auto)
        #expect(try parse("").display.fillRate == 10 && parse("[display]\nfill_rate = 25").display.fillRate == 25)
        #expect(ConfigChange(from: JukeboxConfig(), to: try parse("[display]\nrotate = 180")).parts == [.display])
    }

    @Test func displayMistakesAreNamedWithTheirLine() {
        #expect(error("[display]\ndevice = \"hdmi\"") == "j.toml:2:1: device is \"hdmi\"; it must be \"auto\", \"none\", a DRM card such as \"/dev/dri/card1\", a framebuffer such as \"/dev/fb1\", or \"png:PATH\"")
        #expect(error("[display]\nrotate = 45") == "j.toml:2:1: rotate is 45; it must be 0, 90, 180 or 270")
        #expect(error("[display]\nsize = \"320*240\"")?.contains("WIDTHxHEIGHT") == true)
        #expect(error("[display]\nfonts = []")?.contains("fonts is empty") == true)
        #expect(error("[display]\nfill_rate = 60")?.contains("fill_rate") == true)
        #expect(error("[display]\nrotae = 90")?.contains("did you mean \"rotate\"") == true)
    }
}
