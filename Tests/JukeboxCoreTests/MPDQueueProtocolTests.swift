import Testing
@testable import JukeboxCore

/// What a client sees of the queue: names relative to the music folder, ids that stay
/// with their entries, a version that moves with every change, MPD's status fields and
/// ranges. Driven through `ControlSession`, the code a socket's lines go through.
@Suite struct MPDQueueProtocolTests {
    func session(_ count: Int = 4) -> (ControlSession, Player, FakeEngine) {
        let engine = FakeEngine()
        let player = Player(engine: engine)
        player.setTracks((0..<count).map { "/srv/music/Album/song \($0).flac" })
        return (ControlSession(player: player, scope: .init(musicDirectory: "/srv/music/")), player, engine)
    }

    func reply(_ s: ControlSession, _ line: String) -> String {
        guard case .reply(let text) = s.handle(line: line) else { return "" }
        return text
    }

    func field(_ text: String, _ key: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
    }

    @Test func filesAreNamedRelativeToTheMusicFolder() {
        let (s, _, _) = session()
        let listed = reply(s, "playlistinfo")
        #expect(listed.hasPrefix("file: Album/song 0.flac\nPos: 0\nId: 1\n"), "\(listed)")
        #expect(!listed.contains("/srv/music"))
        #expect(LibraryPaths(musicDirectory: "/srv/music").uri("/elsewhere/a.flac") == "/elsewhere/a.flac")
        #expect(LibraryPaths(musicDirectory: "/").uri("/a.flac") == "a.flac")
    }

    /// As MPD: `next` and `previous` need a track, play on from a pause, and `previous`
    /// is the entry above, not the history's last.
    @Test func nextAndPreviousMoveAsMPDs() {
        let (s, _, _) = session(5)
        #expect(reply(s, "next") == "ACK [55@0] {next} Not playing\n")
        #expect(reply(s, "previous") == "ACK [55@0] {previous} Not playing\n")
        #expect(reply(s, "play 3") == "OK\n")
        #expect(reply(s, "pause 1") == "OK\n")
        #expect(reply(s, "next") == "OK\n")
        var status = reply(s, "status")
        #expect(field(status, "state") == "play" && field(status, "song") == "4", "\(status)")
        #expect(reply(s, "play 1") == "OK\n" && reply(s, "pause 1") == "OK\n")
        #expect(reply(s, "previous") == "OK\n")
        status = reply(s, "status")
        #expect(field(status, "state") == "play" && field(status, "song") == "0", "\(status)")
        #expect(reply(s, "previous") == "OK\n")
        #expect(field(reply(s, "status"), "song") == "0")
    }

    @Test func rangesAreHonoured() {
        let (s, _, _) = session(5)
        #expect(reply(s, "playlistinfo 2").components(separatedBy: "file: ").count == 2)
        #expect(field(reply(s, "playlistinfo 2"), "Pos") == "2")
        let middle = reply(s, "playlistinfo 1:3")
        #expect(middle.components(separatedBy: "file: ").count == 3 && middle.contains("Pos: 1\n") && middle.contains("Pos: 2\n") && !middle.contains("Pos: 3\n"))
        #expect(reply(s, "playlistinfo 3:").components(separatedBy: "file: ").count == 3)
        #expect(reply(s, "playlistinfo 9") == "ACK [2@0] {playlistinfo} Bad song index\n")
        // In MPD's words: a range written wrong, and -1 for everything (as older MPDs had it).
        #expect(reply(s, "playlistinfo 3:1") == "ACK [2@0] {playlistinfo} Malformed range: 3:1\n")
        #expect(reply(s, "playlistinfo x") == "ACK [2@0] {playlistinfo} Integer or range expected: x\n")
        #expect(reply(s, "playlistinfo -2") == "ACK [2@0] {playlistinfo} Number is negative: -2\n")
        #expect(reply(s, "playlistinfo -1").components(separatedBy: "file: ").count == 6)
        #expect(reply(s, "playlistinfo 2:99").components(separatedBy: "file: ").count == 4)
    }

    @Test func idsStayWithTheirEntriesAndTheVersionMoves() {
        let (s, player, _) = session(3)
        let before = player.listing
        #expect(before.ids == [1, 2, 3])
        player.setTracks(["/srv/music/Album/song 2.flac", "/srv/music/new.flac", "/srv/music/Album/song 0.flac"])
        let after = player.listing
        #expect(after.ids == [3, 4, 1] && after.version > before.version)
        #expect(field(reply(s, "status"), "playlist") == String(after.version))
        player.setTracks(after.paths)
        #expect(player.listing.version == after.version)  // nothing changed, nothing moves
        #expect(field(reply(s, "playlistid 4"), "file") == "new.flac")
        #expect(reply(s, "playlistid 99") == "ACK [50@0] {playlistid} No such song\n")
    }

    @Test func plchangesListsWhatChangedSinceAVersion() {
        let (s, player, _) = session(3)
        let first = player.listing.version
        #expect(reply(s, "plchanges 0").components(separatedBy: "file: ").count == 4)
        #expect(reply(s, "plchanges \(first)") == "OK\n")
        // The first two stay where they were; the third is new.
        player.setTracks(["/srv/music/Album/song 0.flac", "/srv/music/Album/song 1.flac", "/srv/music/x.flac"])
        let changed = reply(s, "plchanges \(first)")
        #expect(changed == "file: x.flac\nPos: 2\nId: 4\nOK\n", "\(changed)")
        #expect(reply(s, "plchangesposid \(first)") == "cpos: 2\nId: 4\nOK\n")
        #expect(reply(s, "plchangesposid \(first) 0:2") == "OK\n")
        // A version this queue never had (another run's): everything.
        #expect(reply(s, "plchangesposid 999").components(separatedBy: "cpos: ").count == 4)
        #expect(reply(s, "plchanges x") == "ACK [2@0] {plchanges} Integer expected: x\n")
    }

    @Test func statusHasTheSongWhileStoppedAndWhatComesNext() {
        let (s, _, engine) = session(3)
        _ = reply(s, "playid 2")
        #expect(engine.lastPlayToken != nil)
        var status = reply(s, "status")
        #expect(field(status, "song") == "1" && field(status, "songid") == "2")
        #expect(field(status, "nextsong") == "2" && field(status, "nextsongid") == "3")
        #expect(field(status, "mixrampdb") == "0" && field(status, "partition") == "default")
        _ = reply(s, "stop")
        status = reply(s, "status")
        #expect(field(status, "state") == "stop" && field(status, "song") == "1" && field(status, "songid") == "2")
        #expect(field(status, "elapsed") == nil)
        #expect(reply(s, "currentsong").hasPrefix("file: Album/song 1.flac\n"))
        #expect(reply(s, "playid 77") == "ACK [50@0] {playid} No such song\n")
    }

    @Test func tagTypesNarrowWhatIsListed() {
        let (s, player, engine) = session(1)
        _ = reply(s, "play 0")
        var metadata = TrackMetadata()
        metadata.title = "T"
        metadata.artist = "A"
        metadata.genre = "G"
        metadata.composer = "C"
        player.engineEvent(.trackOpened(token: engine.lastPlayToken!, info: StreamInfo(sampleRate: 44100, channels: 2, sampleFormat: .s16, totalFrames: 441_000), metadata: metadata))
        let all = reply(s, "currentsong")
        #expect(all.contains("Format: 44100:16:2\n") && all.contains("Title: T\nArtist: A\nGenre: G\nComposer: C\n"), "\(all)")
        #expect(reply(s, "tagtypes").contains("tagtype: AlbumArtist\n"))
        _ = reply(s, "tagtypes clear")
        _ = reply(s, "tagtypes enable title genre")
        let narrowed = reply(s, "currentsong")
        #expect(narrowed.contains("Title: T\nGenre: G\n") && !narrowed.contains("Artist:"), "\(narrowed)")
        #expect(reply(s, "tagtypes") == "tagtype: Title\ntagtype: Genre\nOK\n")
        #expect(reply(s, "tagtypes enable Colour") == "ACK [2@0] {tagtypes} Unknown tag type\n")
        _ = reply(s, "tagtypes all")
        #expect(reply(s, "currentsong").contains("Artist: A\n"))
    }

    /// MPD 0.24's connection settings: the protocol features a client turns on, and the
    /// tag types it starts again from.
    @Test func protocolFeaturesAndTagTypesAsMPD024() {
        let (s, _, _) = session(1)
        #expect(reply(s, "protocol") == "OK\n")
        #expect(reply(s, "protocol available") == "feature: hide_playlists_in_root\nOK\n")
        #expect(reply(s, "protocol enable Hide_Playlists_In_Root") == "OK\n")
        #expect(reply(s, "protocol") == "feature: hide_playlists_in_root\nOK\n")
        #expect(reply(s, "protocol clear") == "OK\n" && reply(s, "protocol") == "OK\n")
        #expect(reply(s, "protocol enable bogus") == "ACK [2@0] {protocol} Unknown protcol feature\n")
        #expect(reply(s, "protocol all x") == "ACK [2@0] {protocol} Too many arguments\n")
        #expect(reply(s, "tagtypes available").hasPrefix("tagtype: Artist\n"))
        #expect(reply(s, "tagtypes reset title genre") == "OK\n")
        #expect(reply(s, "tagtypes") == "tagtype: Title\ntagtype: Genre\nOK\n")
        // As MPD: reset clears before it reads the names, so a wrong one leaves none.
        #expect(reply(s, "tagtypes reset bogus") == "ACK [2@0] {tagtypes} Unknown tag type\n")
        #expect(reply(s, "tagtypes") == "OK\n")
    }
}

/// The rest of what clients ask on connecting: decoders, urlhandlers, notcommands,
/// config (local clients only), clearerror, and a commands list that holds only what works.
@Suite struct MPDServerCommandsTests {
    @Test func smallCommandsAnswerAsMPDDoes() {
        let player = Player(engine: FakeEngine())
        let local = ControlSession(player: player, scope: .init(musicDirectory: "/srv/music/"))
        let remote = ControlSession(player: player, scope: .init(musicDirectory: "/srv/music"), local: false)
        func say(_ s: ControlSession, _ line: String) -> String {
            guard case .reply(let text) = s.handle(line: line) else { return "" }
            return text
        }
        #expect(say(local, "decoders").hasPrefix("plugin: flac\nsuffix: flac\n"))
        #expect(say(local, "decoders").contains("plugin: vorbis\nsuffix: ogg\n") && say(local, "decoders").contains("plugin: opus\nsuffix: opus\n"))
        // AAC and ALAC in MP4 come through FFmpeg, as MPD's ffmpeg plugin lists them.
        #expect(say(local, "decoders").contains("plugin: ffmpeg\nsuffix: m4a\nsuffix: m4b\n"))
        #expect(say(local, "urlhandlers") == "handler: http://\nhandler: https://\nOK\n" && say(local, "notcommands") == "OK\n")
        #expect(say(local, "config") == "music_directory: /srv/music\npcre: 1\nOK\n")
        let withPlaylists = ControlSession(player: player, scope: .init(musicDirectory: "/srv/music", playlistsDirectory: "/srv/playlists"))
        #expect(say(withPlaylists, "config") == "music_directory: /srv/music\nplaylist_directory: /srv/playlists\npcre: 1\nOK\n")
        #expect(say(remote, "config") == "ACK [4@0] {config} Command only permitted to local clients\n")
        #expect(say(local, "clearerror") == "OK\n")
        let switches = OutputSwitches(devices: ["hw:CARD=DAC", "default"])
        let routed = ControlSession(player: player, outputs: switches)
        var told: [IdleSubsystems] = []
        routed.announce = { told.append($0) }
        #expect(say(routed, "outputs") == "outputid: 0\noutputname: hw:CARD=DAC\nplugin: alsa\noutputenabled: 1\n"
            + "outputid: 1\noutputname: default\nplugin: alsa\noutputenabled: 1\nOK\n")
        // Switching outputs: by id, told to idle clients, and the route follows.
        let routes = ConditionLocked<[[String]]>([])
        switches.whenChanged { enabled in routes.withLock { $0.wholeValue.append(enabled) } }
        #expect(say(routed, "disableoutput 0") == "OK\n")
        #expect(say(routed, "outputs").contains("outputid: 0\noutputname: hw:CARD=DAC\nplugin: alsa\noutputenabled: 0\n"))
        #expect(say(routed, "disableoutput 0") == "OK\n")
        #expect(say(routed, "toggleoutput 1") == "OK\n")
        #expect(say(routed, "enableoutput 0") == "OK\n")
        #expect(say(routed, "toggleoutput 2") == "ACK [50@0] {toggleoutput} No such audio output\n")
        #expect(say(routed, "enableoutput x") == "ACK [2@0] {enableoutput} Integer expected: x\n")
        #expect(routes.current == [["default"], [], ["hw:CARD=DAC"]])
        #expect(told == [[.output], [.output], [.output]])
        // A config edit keeps what is still configured switched as it was.
        switches.configure(["default", "hw:CARD=DAC", "hw:CARD=USB"])
        #expect(switches.enabled == ["hw:CARD=DAC", "hw:CARD=USB"])
        // Every command listed is answered by something other than "unknown command".
        let listed = say(local, "commands").split(separator: "\n").filter { $0.hasPrefix("command: ") }.map { $0.dropFirst(9) }
        #expect(listed.count > 50)
        for command in listed where !["close", "idle", "command_list_begin", "command_list_ok_begin", "command_list_end"].contains(String(command)) {
            let s = ControlSession(player: Player(engine: FakeEngine()), scope: .init(musicDirectory: "/srv/music"))
            #expect(!say(s, String(command)).contains("unknown command"), "\(command)")
        }
    }
}
