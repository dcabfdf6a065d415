import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// The field's MPD clients against the control socket, on a scanned library: python-mpd2
/// (Debian's python3-mpd) browses, searches, queues, plays, waits in idle for another
/// connection's change and fetches pictures; ncmpcpp runs in a tmux pane and its screens
/// are compared as text.
@Suite(.serialized) struct RealClientsTests {
    final class Library: @unchecked Sendable {
        let folder: String
        let server: ControlServer
        let player: Player
        let socket: String

        init(_ name: String) throws {
            folder = NSTemporaryDirectory() + "jukebox-clients-\(getpid())-\(name)"
            try? FileManager.default.removeItem(atPath: folder)
            for album in ["Abba/Gold", "Bach"] {
                try FileManager.default.createDirectory(atPath: "\(folder)/\(album)", withIntermediateDirectories: true)
            }
            let songs = [("Abba/Gold/01 Dancing Queen.flac", "Dancing Queen", "ABBA", "Gold", "1"),
                         ("Abba/Gold/02 Waterloo.flac", "Waterloo", "ABBA", "Gold", "2"),
                         ("Bach/Air.flac", "Air", "J. S. Bach", "Suites", "3")]
            for (file, title, artist, album, track) in songs {
                try Tools.run("flac", ["-s", "-f", "-T", "TITLE=\(title)", "-T", "ARTIST=\(artist)", "-T", "ALBUM=\(album)",
                                       "-T", "TRACKNUMBER=\(track)", "-T", "GENRE=Test",
                                       "--picture", "3|image/png|front|100x64x24|\(Fixtures.shared.path("cover.png"))",
                                       "-o", "\(folder)/\(file)", Fixtures.shared.path("music16.wav")])
            }
            try FileManager.default.copyItem(atPath: Fixtures.shared.path("cover.png"), toPath: "\(folder)/Abba/Gold/cover.png")
            let catalog = LibraryCatalog()
            let scan = LibraryScanner.scan(musicDirectory: folder, playlistsDirectory: nil)
            catalog.publish(scan)
            player = Player(engine: FakeEngine())
            player.setTracks(scan.tracks.map(\.path))
            server = ControlServer(player: player, logger: Logger(label: "test"), scope: .init(musicDirectory: folder), catalog: catalog)
            socket = folder + ".sock"
            try server.start(socketPath: socket, tcpPort: 0)
        }

        func close() {
            server.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    static let script = #"""
    import sys, threading, time
    from mpd import MPDClient
    c = MPDClient(); c.connect(sys.argv[1])
    print("stats", c.stats()["songs"], c.stats()["artists"], c.stats()["albums"])
    print("lsinfo", sorted(e.get("directory") or e.get("file") for e in c.lsinfo()))
    print("lsinfo Abba/Gold", [e["title"] for e in c.lsinfo("Abba/Gold")])
    print("search", [s["file"] for s in c.search("any", "water")])
    print("find", [s["title"] for s in c.find("(artist == 'ABBA')")])
    print("list", [a["album"] for a in c.list("album")])
    c.clear(); c.add("Abba"); c.findadd("album", "Suites")
    print("queue", [(s["pos"], s["title"]) for s in c.playlistinfo()])
    c.play(1)
    st = c.status(); print("status", st["state"], st["song"], st["nextsong"])
    other = MPDClient(); other.connect(sys.argv[1])
    c.idle()  # what this client changed itself is reported first, as by MPD
    threading.Thread(target=lambda: (time.sleep(0.3), other.setvol(42))).start()
    print("idle", c.idle())
    pic = c.readpicture("Bach/Air.flac"); print("readpicture", pic["type"], pic["binary"][:4] == b"\x89PNG")
    art = c.albumart("Abba/Gold/02 Waterloo.flac"); print("albumart", len(art["binary"]))
    c.random(1); c.repeat(1); c.random(0); st = c.status(); print("options", st["repeat"], st["random"], st["single"])
    """#

    @Test func pythonMPD2BrowsesQueuesPlaysAndWaits() throws {
        let library = try Library("python")
        defer { library.close() }
        let scriptPath = library.folder + "/client.py"
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let run = try Tools.run("/usr/bin/python3", [scriptPath, library.socket], check: false)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.text.split(separator: "\n").map(String.init)
        #expect(lines == [
            "stats 3 2 2",
            "lsinfo ['Abba', 'Bach']",
            "lsinfo Abba/Gold ['Dancing Queen', 'Waterloo']",
            "search ['Abba/Gold/02 Waterloo.flac']",
            "find ['Dancing Queen', 'Waterloo']",
            "list ['Gold', 'Suites']",
            "queue [('0', 'Dancing Queen'), ('1', 'Waterloo'), ('2', 'Air')]",
            "status play 1 2",
            "idle ['mixer']",
            "readpicture image/png True",
            "albumart \(try Data(contentsOf: URL(fileURLWithPath: Fixtures.shared.path("cover.png"))).count)",
            "options 1 0 0",
        ], "\(run.text)\n\(run.stderr)")
    }

    /// Polls every 50 ms for up to 10 s: what a screen shows follows a key by a redraw.
    func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<200 {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    @Test func ncmpcppShowsTheLibraryPlaysAndQuits() throws {
        let library = try Library("ncmpcpp")
        defer { library.close() }
        let home = library.folder + "-home"
        try FileManager.default.createDirectory(atPath: home + "/.config/ncmpcpp", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try "mpd_host = \"\(library.socket)\"\n".write(toFile: home + "/.config/ncmpcpp/config", atomically: true, encoding: .utf8)
        let terminal = try TmuxPane(socket: library.folder + ".tmux", command: "env HOME=\(home) LANG=C.UTF-8 ncmpcpp")
        defer { terminal.close() }

        // 1: the queue, which is the library.
        #expect(eventually { terminal.screen.contains("Playlist (3 items") }, "\(terminal.screen)")
        let queue = terminal.screen
        for title in ["Dancing Queen", "Waterloo", "Air", "ABBA", "J. S. Bach", "Gold", "Suites"] {
            #expect(queue.contains(title), "screen 1 lacks \(title):\n\(queue)")
        }
        // 2: the browser, at the root.
        try terminal.keys("2")
        #expect(eventually { terminal.screen.contains("Browse: /") && terminal.screen.contains("Abba") && terminal.screen.contains("Bach") },
                "\(terminal.screen)")
        // 4: the media library: artists, the first one's albums.
        try terminal.keys("4")
        #expect(eventually { let s = terminal.screen; return s.contains("Artists") && s.contains("ABBA") && s.contains("J. S. Bach") && s.contains("Gold") },
                "\(terminal.screen)")
        // Back to the queue: Enter plays the first entry, p pauses, > goes on to the next.
        try terminal.keys("1")
        #expect(eventually { terminal.screen.contains("Playlist (3 items") })
        try terminal.keys("Enter")
        // (The fake engine never reports a track heard: "playing" is loading, as for MPD.)
        let playing: Set<PlayerState> = [.playing, .loading]
        #expect(eventually { playing.contains(library.player.status.state) && library.player.status.queuePosition == 0 }, "\(terminal.screen)")
        try terminal.keys("p")
        #expect(eventually { library.player.status.state == .paused }, "\(terminal.screen)")
        try terminal.keys("p")
        #expect(eventually { playing.contains(library.player.status.state) })
        try terminal.keys(">")
        #expect(eventually { library.player.status.queuePosition == 1 }, "\(terminal.screen)")
        #expect(eventually { terminal.screen.contains("Playing") && terminal.screen.contains("Waterloo") }, "\(terminal.screen)")
        // q quits: the pane, and with it the terminal, ends.
        try terminal.keys("q")
        #expect(eventually { !terminal.isRunning }, "\(terminal.screen)")
    }

    /// mpc's commands, in the order a person would use them, against the real daemon
    /// playing to the paced null sink: every one that MPD's own server answers is
    /// answered, and what each prints is what MPD's would.
    @Test func mpcsWholeCommandSet() throws {
        let music = try Fixtures.shared.scratchFolder("mpc-all")
        try? FileManager.default.removeItem(atPath: music)
        for (file, artist, title, album) in [("Abba/1.flac", "ABBA", "One", "Gold"), ("Abba/2.flac", "ABBA", "Two", "Gold"),
                                             ("Bach/air.flac", "Bach", "Air", "Suites")] {
            try FileManager.default.createDirectory(atPath: "\(music)/\(file)".replacingOccurrences(of: "/[^/]*$", with: "", options: .regularExpression),
                                                    withIntermediateDirectories: true)
            try Tools.run("sox", ["-n", "-r", "8000", "-c", "1", "-b", "16", "\(music)/\(file)", "synth", "60", "sine", "440"])
            try Tools.run("metaflac", ["--set-tag=ARTIST=\(artist)", "--set-tag=TITLE=\(title)", "--set-tag=ALBUM=\(album)", "\(music)/\(file)"])
        }
        let playlists = music + "-playlists"
        try? FileManager.default.removeItem(atPath: playlists)
        let config = Fixtures.shared.path("mpc-all.toml")
        try "[playback]\nautoplay = false\n[library]\nplaylists_dir = \"\(playlists)\"\n[control]\nkeyboard = false\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: "mpc-all", config: config, musicDirectory: music, device: NullOutput.deviceName)
        #expect(daemon.wait(seconds: 30) { daemon.ctl(["stats"])?.contains("songs: 3\n") ?? false }, "\(daemon.log)")
        func mpc(_ args: String...) -> String {
            let run = try? Tools.run("mpc", ["--host", daemon.socket, "-f", "%file%"] + args, check: false)
            return (run?.text ?? "") + (run?.stderr ?? "")
        }
        func lines(_ args: String...) -> [String] {
            let run = try? Tools.run("mpc", ["--host", daemon.socket, "-f", "%file%"] + args, check: false)
            return (run?.text ?? "").split(separator: "\n").map(String.init)
        }
        // Browsing and searching.
        #expect(lines("ls") == ["Abba", "Bach"])
        #expect(lines("ls", "Abba") == ["Abba/1.flac", "Abba/2.flac"])
        #expect(lines("listall") == ["Abba/1.flac", "Abba/2.flac", "Bach/air.flac"])
        #expect(lines("search", "title", "o") == ["Abba/1.flac", "Abba/2.flac"])
        #expect(lines("find", "artist", "Bach") == ["Bach/air.flac"])
        #expect(lines("list", "artist") == ["ABBA", "Bach"])
        #expect(lines("list", "album", "artist", "ABBA") == ["Gold"])
        #expect(mpc("stats").contains("Songs:        3"))
        // Queueing.
        _ = mpc("clear")
        _ = mpc("add", "Bach")
        _ = mpc("findadd", "artist", "ABBA")
        #expect(lines("playlist") == ["Bach/air.flac", "Abba/1.flac", "Abba/2.flac"])
        _ = mpc("move", "1", "3")
        _ = mpc("del", "1")
        #expect(lines("playlist") == ["Abba/2.flac", "Bach/air.flac"])
        // Nothing is current once the entry that was is deleted: mpc inserts at the top.
        _ = mpc("insert", "Abba/1.flac")
        #expect(lines("playlist") == ["Abba/1.flac", "Abba/2.flac", "Bach/air.flac"])
        // Playing.
        #expect(mpc("play", "2").contains("[playing] #2/3"))
        #expect(lines("current") == ["Abba/2.flac"])
        #expect(lines("queued") == ["Bach/air.flac"])
        #expect(mpc("next").contains("#3/3"))
        #expect(mpc("prev").contains("#2/3"))
        #expect(mpc("pause").contains("[paused]"))
        // Seeks while paused: playing on, a slow second between two mpc runs would show.
        #expect(mpc("seek", "50%").contains("0:30/1:00"))
        #expect(mpc("seek", "+5").contains("0:35/1:00"))
        #expect(mpc("toggle").contains("[playing]"))
        #expect(mpc("volume", "30").contains("volume: 30%"))
        #expect(mpc("volume", "+5").contains("volume: 35%"))
        #expect(mpc("single", "once").contains("single: once"))
        #expect(mpc("repeat", "on").contains("repeat: on"))
        #expect(mpc("random", "on").contains("random: on"))
        #expect(mpc("random", "off").contains("repeat: on    random: off   single: once"))
        #expect(mpc("consume", "on").contains("consume: on"))
        _ = mpc("consume", "off")
        #expect(mpc("searchplay", "Air").contains("#3/3"))
        #expect(mpc("crop").isEmpty && lines("playlist") == ["Bach/air.flac"])
        // Stored playlists.
        _ = mpc("add", "Abba")
        _ = mpc("save", "mix")
        #expect(lines("lsplaylists") == ["mix"])
        #expect(lines("playlist", "mix") == ["Bach/air.flac", "Abba/1.flac", "Abba/2.flac"])
        _ = mpc("clear")
        #expect(mpc("load", "mix").contains("loading: mix"))
        #expect(lines("playlist").count == 3)
        _ = mpc("rm", "mix")
        #expect(lines("lsplaylists").isEmpty)
        // Outputs, the database, pictures, the rest.
        #expect(mpc("outputs") == "Output 1 (null-sink) is enabled\n")
        #expect(mpc("disable", "1") == "Output 1 (null-sink) is disabled\n")
        #expect(mpc("enable", "1") == "Output 1 (null-sink) is enabled\n")
        // (Three tracks scan faster than mpc asks for the status that would show the job.)
        #expect(!mpc("update").contains("error"))
        #expect(!mpc("rescan").contains("error"))
        #expect(mpc("version") == "mpd version: 0.24.0\n")
        #expect(!mpc("clearerror").contains("error"))
        #expect(mpc("stop").contains("volume: 35%"))
        #expect(mpc("replaygain").contains("replay_gain_mode: auto"))
        _ = mpc("replaygain", "track")
        #expect(mpc("replaygain").contains("replay_gain_mode: track"))
        #expect(mpc("replaygain", "loud").contains("Unrecognized replay gain mode"))
        // Priorities, as MPD takes them; a refusal is a plain error, and the connection goes on.
        #expect(mpc("prio", "5", "1") == "")
        #expect(mpc("crossfade", "5").contains("crossfade is not supported"))
        #expect(mpc("status").contains("volume: 35%"))
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 10))
    }
}
