import Foundation
import Testing
@testable import JukeboxCore

/// Stored playlists as MPD clients keep them: M3U files in the playlists folder, written
/// atomically, that only ever name the library's tracks.
@Suite struct PlaylistCommandsTests {
    static let tracks = ["Abba/Gold/01 a.flac", "Abba/Gold/02 b.flac", "Bach/x.mp3"]

    final class Box {
        let music: String
        let playlists: String
        let session: ControlSession
        let player: Player
        var announced: [IdleSubsystems] = []

        init(_ name: String, playlistsInside: Bool = true) throws {
            let music = try Fixtures.shared.scratchFolder("stored-\(name)")
            try? FileManager.default.removeItem(atPath: music)
            try FileManager.default.createDirectory(atPath: music + "/Abba", withIntermediateDirectories: true)
            let elsewhere = try Fixtures.shared.scratchFolder("stored-\(name)-elsewhere")
            self.music = music
            playlists = playlistsInside ? music + "/playlists" : elsewhere
            // A playlist of the music folder itself: readable, not for clients to change.
            try "Gold/01 a.flac\n../Bach/x.mp3\n".write(toFile: music + "/Abba/best.m3u", atomically: true, encoding: .utf8)
            var scan = LibraryScan()
            scan.tracks = PlaylistCommandsTests.tracks.map { LibraryTrack(path: "\(music)/\($0)", tags: SongTags()) }
            scan.playlists = [LibraryPlaylist(path: music + "/Abba/best.m3u")]
            let catalog = LibraryCatalog()
            catalog.publish(scan)
            player = Player(engine: FakeEngine())
            player.setTracks(scan.tracks.map(\.path))
            session = ControlSession(player: player, scope: .init(musicDirectory: music, playlistsDirectory: playlists), catalog: catalog)
            session.announce = { [unowned self] in self.announced.append($0) }
        }

        func say(_ line: String) -> String {
            guard case .reply(let text) = session.handle(line: line) else { return "" }
            return text
        }

        func file(_ name: String) -> String? { try? String(contentsOfFile: "\(playlists)/\(name)", encoding: .utf8) }
    }

    /// As the server runs them: the playlist file is read (and written) by `background`
    /// (the server's file thread), never by the thread that handles the line, and the
    /// reply waits for it.
    @Test func playlistsAreReadOffTheControlThread() throws {
        let box = try Box("offthread")
        #expect(box.say("save mix") == "OK\n")
        #expect(box.say("clear") == "OK\n")
        var jobs: [@Sendable () -> Void] = []
        box.session.streamsReplies = true
        box.session.background = { jobs.append($0) }
        for line in ["listplaylist mix", "load mix", "listplaylist nothing", "playlistclear mix"] {
            guard case .stream(let stream) = box.session.handle(line: line) else { Issue.record("\(line): not streamed"); continue }
            var out: [UInt8] = []
            // Not read yet: the reply waits, with nothing of it made.
            #expect(try stream.produce(into: &out) == .waiting && out.isEmpty, "\(line)")
            #expect(jobs.count == 1)
            jobs.removeFirst()()
            while try stream.produce(into: &out) != .done {}
            let text = String(decoding: out, as: UTF8.self)
            switch line {
            case "listplaylist mix": #expect(text == Self.tracks.map { "file: \($0)\n" }.joined() + "OK\n")
            case "load mix": #expect(text == "OK\n" && box.player.listing.paths.count == Self.tracks.count)
            case "playlistclear mix": #expect(text == "OK\n" && box.file("mix.m3u") == "#EXTM3U\n")
            default: #expect(text == "ACK [50@0] {listplaylist} No such playlist\n")
            }
        }
    }

    @Test func saveListAndLoadAQueue() throws {
        let box = try Box("save")
        #expect(box.say("listplaylists") == "OK\n")
        #expect(box.say("save mix") == "OK\n")
        #expect(box.announced == [[.storedPlaylist]])
        // Relative to the playlist's folder, which is inside the music folder.
        #expect(box.file("mix.m3u") == "#EXTM3U\n../Abba/Gold/01 a.flac\n../Abba/Gold/02 b.flac\n../Bach/x.mp3\n")
        #expect(box.say("save mix") == "ACK [56@0] {save} Playlist already exists\n")
        let listed = box.say("listplaylists")
        #expect(listed.hasPrefix("playlist: mix\nLast-Modified: 20") && listed.hasSuffix("Z\nOK\n"), "\(listed)")
        #expect(box.say("listplaylist mix") == Self.tracks.map { "file: \($0)\n" }.joined() + "OK\n")
        #expect(box.say("listplaylist mix 1:") == "file: Abba/Gold/02 b.flac\nfile: Bach/x.mp3\nOK\n")
        #expect(box.say("listplaylistinfo mix 2").hasPrefix("file: Bach/x.mp3\n"))
        #expect(box.say("clear") == "OK\n")
        #expect(box.say("load mix 0:2") == "OK\n")
        #expect(box.player.listing.paths == Self.tracks.prefix(2).map { "\(box.music)/\($0)" })
        #expect(box.say("load mix 2:3 0") == "OK\n")
        #expect(box.player.listing.paths.first == "\(box.music)/Bach/x.mp3")
        // MPD 0.24's save modes.
        #expect(box.say("save mix append") == "OK\n")
        #expect(box.say("listplaylist mix").components(separatedBy: "file: ").count == 7)
        #expect(box.say("save mix replace") == "OK\n")
        #expect(box.say("listplaylist mix").components(separatedBy: "file: ").count == 4)
        #expect(box.say("save mix sideways") == "ACK [2@0] {save} Unrecognized save mode, expected one of 'create', 'append', 'replace'\n")
        // As MPD 0.24: append and replace only to a playlist that is there.
        #expect(box.say("save other append") == "ACK [50@0] {save} No such playlist\n")
        #expect(box.say("save other replace") == "ACK [50@0] {save} No such playlist\n")
    }

    /// A stored playlist MPD wrote (moved over with its playlists folder) names files
    /// relative to the music folder; one the box wrote inside the music folder climbs out
    /// of the playlists folder (`../`). Both are read as meant.
    @Test func mpdsStoredPlaylistsAreReadAgainstTheMusicFolder() throws {
        for inside in [false, true] {
            let box = try Box("mpd-style-\(inside)", playlistsInside: inside)
            try FileManager.default.createDirectory(atPath: box.playlists, withIntermediateDirectories: true)
            try "Bach/x.mp3\nAbba/Gold/01 a.flac\n".write(toFile: box.playlists + "/fromMPD.m3u", atomically: true, encoding: .utf8)
            #expect(box.say("listplaylist fromMPD") == "file: Bach/x.mp3\nfile: Abba/Gold/01 a.flac\nOK\n", "inside: \(inside)")
            #expect(box.say("clear") == "OK\n" && box.say("load fromMPD") == "OK\n")
            #expect(box.player.listing.paths == ["\(box.music)/Bach/x.mp3", "\(box.music)/Abba/Gold/01 a.flac"])
            #expect(box.say("save own") == "OK\n")
            #expect(box.say("listplaylist own") == "file: Bach/x.mp3\nfile: Abba/Gold/01 a.flac\nOK\n", "inside: \(inside)")
        }
    }

    @Test func editPlaylistsInPlace() throws {
        let box = try Box("edit")
        #expect(box.say("playlistadd new \"Bach/x.mp3\"") == "OK\n")
        #expect(box.say("playlistadd new Abba 0") == "OK\n")
        #expect(box.say("listplaylist new") == "file: Abba/Gold/01 a.flac\nfile: Abba/Gold/02 b.flac\nfile: Bach/x.mp3\nOK\n")
        #expect(box.say("playlistmove new 2 0") == "OK\n")
        #expect(box.say("listplaylist new") == "file: Bach/x.mp3\nfile: Abba/Gold/01 a.flac\nfile: Abba/Gold/02 b.flac\nOK\n")
        #expect(box.say("playlistdelete new 1:3") == "OK\n")
        #expect(box.say("listplaylist new") == "file: Bach/x.mp3\nOK\n")
        #expect(box.say("playlistdelete new 5") == "ACK [2@0] {playlistdelete} Bad song index\n")
        #expect(box.say("playlistmove new 0 3") == "ACK [2@0] {playlistmove} Bad range\n")
        #expect(box.say("rename new old") == "OK\n")
        #expect(box.say("save other") == "OK\n")
        #expect(box.say("rename old other") == "ACK [56@0] {rename} Playlist exists already\n")
        #expect(box.say("playlistclear old") == "OK\n")
        #expect(box.say("listplaylist old") == "OK\n")
        #expect(box.say("rm old") == "OK\n")
        #expect(box.say("rm old") == "ACK [50@0] {rm} No such playlist\n")
        #expect(box.say("listplaylist old") == "ACK [50@0] {listplaylist} No such playlist\n")
        #expect(box.say("listplaylists").hasPrefix("playlist: other\n"))
        #expect(box.announced.count == 8)
    }

    /// A long playlist is read as it is listed, over many steps of the reply; a range far
    /// into it is passed over a step at a time, and a range past its end is refused.
    /// MPD 0.24's look into a stored playlist without loading it: its length, and a search
    /// that names each match's place in it.
    @Test func aPlaylistIsCountedAndSearchedWhereItIs() throws {
        let box = try Box("length-search")
        #expect(box.say("save mix") == "OK\n")
        #expect(box.say("playlistadd mix http://radio.example/live.mp3") == "OK\n")
        #expect(box.say("playlistlength mix") == "songs: 4\nplaytime: 0\nOK\n")
        #expect(box.say("playlistlength none") == "ACK [50@0] {playlistlength} No such playlist\n")
        #expect(box.say("searchplaylist mix \"(file contains 'abba')\"")
            == "file: Abba/Gold/01 a.flac\nPos: 0\nfile: Abba/Gold/02 b.flac\nPos: 1\nOK\n")
        #expect(box.say("searchplaylist mix \"(file contains 'abba')\" window 1:") == "file: Abba/Gold/02 b.flac\nPos: 1\nOK\n")
        #expect(box.say("searchplaylist mix file x.mp3") == "file: Bach/x.mp3\nPos: 2\nOK\n")
        #expect(box.say("searchplaylist mix \"(bogus == 'x')\"") == "ACK [2@0] {searchplaylist} Unknown filter type: bogus\n")
        #expect(box.say("searchplaylist none \"(file == 'x')\"") == "ACK [50@0] {searchplaylist} No such playlist\n")
    }

    @Test func aLongPlaylistIsListedAsItIsRead() throws {
        let box = try Box("long")
        try FileManager.default.createDirectory(atPath: box.playlists, withIntermediateDirectories: true)
        let lines = (0..<6000).map { "../Far/\($0).flac" }
        try ("#EXTM3U\n" + lines.map { $0 + "\n" }.joined()).write(toFile: box.playlists + "/long.m3u", atomically: true, encoding: .utf8)
        let whole = box.say("listplaylist long")
        #expect(whole.hasSuffix("file: Far/5999.flac\nOK\n"))
        #expect(whole.components(separatedBy: "\n").count == 6002)
        #expect(box.say("listplaylist long 5000:5002") == "file: Far/5000.flac\nfile: Far/5001.flac\nOK\n")
        #expect(box.say("listplaylist long 5999") == "file: Far/5999.flac\nOK\n")
        // Past the end, as MPD 0.24: what there is, which is nothing.
        #expect(box.say("listplaylist long 6000:6001") == "OK\n")
    }

    @Test func aPlaylistInTheMusicIsReadByItsFileName() throws {
        let box = try Box("in-music")
        #expect(box.say("lsinfo Abba").contains("playlist: Abba/best.m3u\nLast-Modified: "))
        #expect(box.say("listplaylist Abba/best.m3u") == "file: Abba/Gold/01 a.flac\nfile: Bach/x.mp3\nOK\n")
        #expect(box.say("rm Abba/best.m3u") == "ACK [2@0] {rm} Bad playlist name\n")
        #expect(FileManager.default.fileExists(atPath: box.music + "/Abba/best.m3u"))
    }

    @Test func namesAndEntriesStayInsideTheirFolders() throws {
        let box = try Box("safety", playlistsInside: false)
        for name in ["../escape", "a/b", ".hidden", "\"\"", "/etc/passwd"] {
            #expect(box.say("save \(name)").hasPrefix("ACK [2@0] {save} Bad playlist name") || box.say("save \(name)").hasPrefix("ACK [50@0]"), "\(name)")
        }
        #expect(box.say("playlistadd x /etc/passwd") == "ACK [50@0] {playlistadd} No such directory\n")
        #expect(box.say("playlistadd x ../../etc/passwd") == "ACK [50@0] {playlistadd} No such directory\n")
        // A playlist that names files outside the library loads only the library's.
        try "#EXTM3U\n/etc/passwd\n\(box.music)/Bach/x.mp3\n".write(toFile: box.playlists + "/odd.m3u", atomically: true, encoding: .utf8)
        #expect(box.say("clear") == "OK\n")
        #expect(box.say("load odd") == "OK\n")
        #expect(box.player.listing.paths == ["\(box.music)/Bach/x.mp3"])
        // A folder elsewhere: written so that it reads back the same.
        #expect(box.say("save abs") == "OK\n")
        #expect(box.say("listplaylist abs") == "file: Bach/x.mp3\nOK\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.playlists).sorted() == ["abs.m3u", "odd.m3u"])
    }

    @Test func withoutAPlaylistsFolderClientsAreToldSo() {
        let session = ControlSession(player: Player(engine: FakeEngine()))
        guard case .reply(let text) = session.handle(line: "save x") else { return #expect(Bool(false)) }
        #expect(text == "ACK [50@0] {save} no playlists folder is configured ([library] playlists_dir)\n")
        guard case .reply(let list) = session.handle(line: "listplaylists") else { return #expect(Bool(false)) }
        #expect(list == "OK\n")
    }

    /// Issue 33 #6: a link planted under the temporary name is never written through.
    @Test func saveNeverWritesThroughAPlantedLink() throws {
        let box = try Box("planted-link")
        try FileManager.default.createDirectory(atPath: box.playlists, withIntermediateDirectories: true)
        let victim = try Fixtures.shared.scratchFolder("planted-link-victim") + "/precious"
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        // The name earlier versions wrote through, and the names this process would use next.
        var planted = ["\(box.playlists)/.evil.m3u.new"]
        planted += (1...64).map { "\(box.playlists)/\(AtomicFile.temporaryPrefix)\(getpid())-\($0)\(AtomicFile.temporarySuffix)" }
        for link in planted { try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim) }
        #expect(box.say("save evil") == "OK\n")
        for _ in 0..<8 { #expect(box.say("save evil replace") == "OK\n") }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(box.file("evil.m3u")?.hasPrefix("#EXTM3U\n../Abba/") == true)
        let attributes = try FileManager.default.attributesOfItem(atPath: box.playlists + "/evil.m3u")
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }

    /// Issue 33 #16: any name that passes the check saves (250 bytes, the longest).
    @Test func everyNameThatValidatesSaves() throws {
        let box = try Box("long-names", playlistsInside: false)
        for length in 245...250 {
            let name = String(repeating: "n", count: length - 2) + "é"  // 2 bytes in UTF-8
            #expect(box.say("save \"\(name)\"") == "OK\n", "\(length) bytes")
            #expect(box.say("playlistadd \"\(name)\" Bach/x.mp3") == "OK\n", "\(length) bytes")
            #expect(box.say("listplaylist \"\(name)\"").hasSuffix("file: Bach/x.mp3\nOK\n"), "\(length) bytes")
        }
        #expect(box.say("save \"\(String(repeating: "n", count: 251))\"") == "ACK [2@0] {save} Bad playlist name\n")
        // Nothing but the playlists is left in the folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.playlists).allSatisfy { $0.hasSuffix(".m3u") })
    }

    /// Issue 33 #8: a URL in a stored playlist is kept exactly, through reads and edits.
    @Test func urlsInAStoredPlaylistStayExact() throws {
        let box = try Box("urls", playlistsInside: false)
        let urls = ["http://radio.example/stream.mp3", "https://host:8443//a/../b/./c.mp3?x=1//2", "HTTP://Upper.example/x.mp3"]
        try ("#EXTM3U\n" + urls.joined(separator: "\n") + "\n").write(toFile: box.playlists + "/radio.m3u", atomically: true, encoding: .utf8)
        #expect(box.say("listplaylist radio") == urls.map { "file: \($0)\n" }.joined() + "OK\n")
        #expect(box.say("playlistadd radio Bach/x.mp3") == "OK\n")
        #expect(box.say("playlistadd radio \"http://other.example//x.mp3\"") == "OK\n")
        let file = box.file("radio.m3u") ?? ""
        #expect(file.hasPrefix("#EXTM3U\n" + urls.joined(separator: "\n") + "\n") && file.hasSuffix("Bach/x.mp3\nhttp://other.example//x.mp3\n"), "\(file)")
        #expect(box.say("playlistadd radio \"http://bad url\"") == "ACK [2@0] {playlistadd} Malformed URL\n")
        #expect(box.say("clear") == "OK\n")
        #expect(box.say("add \"http://radio.example/live\"") == "OK\n")
        #expect(box.say("save queue") == "OK\n")
        #expect(box.file("queue.m3u") == "#EXTM3U\nhttp://radio.example/live\n")
        #expect(LibraryScanner.canonical(.url("http://a.example//b/../c")) == "http://a.example//b/../c")
        #expect(LibraryScanner.canonical(.file("/srv/music/playlists/../b/./c")) == "/srv/music/b/c")
    }

    @Test func linesAreRelativeWhereTheFoldersMeet() {
        #expect(StoredPlaylists.relative(.file("/srv/music/A/x.flac"), from: "/srv/music/playlists") == "../A/x.flac")
        #expect(StoredPlaylists.relative(.file("/srv/music/playlists/x.flac"), from: "/srv/music/playlists") == "x.flac")
        #expect(StoredPlaylists.relative(.file("/srv/music/x.flac"), from: "/var/lib/playlists") == "/srv/music/x.flac")
        #expect(StoredPlaylists.relative(.url("http://srv/music/x.flac"), from: "/srv/music") == "http://srv/music/x.flac")
    }
}
