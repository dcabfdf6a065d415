import Foundation
import Testing
@testable import JukeboxCore

/// Browsing the library as MPD clients do: lsinfo, listall, listallinfo, listfiles and
/// stats over the catalog the library service publishes, and the tags the index keeps.
@Suite struct DatabaseCommandsTests {
    func tags(_ title: String, artist: String, album: String, seconds: Double = 60) -> SongTags {
        var t = SongTags()
        t.title = title
        t.artist = artist
        t.album = album
        t.seconds = seconds
        t.format = "44100:16:2"
        return t
    }

    func session() -> ControlSession {
        let catalog = LibraryCatalog()
        var scan = LibraryScan()
        scan.tracks = [
            LibraryTrack(path: "/m/Abba/Gold/01 a.flac", tags: tags("A", artist: "Abba", album: "Gold")),
            LibraryTrack(path: "/m/Abba/Gold/02 b.flac", tags: tags("B", artist: "Abba", album: "Gold")),
            LibraryTrack(path: "/m/Bach/x.mp3", tags: tags("X", artist: "Bach", album: "Suites")),
            LibraryTrack(path: "/m/loose.flac", tags: tags("L", artist: "Abba", album: "Singles")),
        ]
        catalog.publish(scan)
        // A stored playlist, which the root lists.
        let playlists = try! Fixtures.shared.scratchFolder("database-playlists")
        try! "#EXTM3U\n/m/Bach/x.mp3\n".write(toFile: playlists + "/party.m3u", atomically: true, encoding: .utf8)
        return ControlSession(player: Player(engine: FakeEngine()), scope: .init(musicDirectory: "/m", playlistsDirectory: playlists), catalog: catalog)
    }

    func say(_ s: ControlSession, _ line: String) -> String {
        guard case .reply(let text) = s.handle(line: line) else { return "" }
        return text
    }

    @Test func lsinfoListsFoldersSongsAndAtTheRootPlaylists() {
        let s = session()
        let root = say(s, "lsinfo")
        #expect(root.hasPrefix("directory: Abba\ndirectory: Bach\nfile: loose.flac\nFormat: 44100:16:2\nTitle: L\nArtist: Abba\nAlbum: Singles\n"), "\(root)")
        #expect(root.contains("playlist: party\nLast-Modified: 20"), "\(root)")
        #expect(root.hasSuffix("Z\nOK\n"), "\(root)")
        #expect(say(s, "lsinfo \"/\"") == root)
        #expect(say(s, "lsinfo Abba") == "directory: Abba/Gold\nOK\n")
        let gold = say(s, "lsinfo Abba/Gold")
        #expect(gold.components(separatedBy: "file: ").count == 3 && gold.contains("file: Abba/Gold/02 b.flac\n"))
        // Tags in the order they were read, as MPD lists them.
        #expect(say(s, "lsinfo Bach/x.mp3").hasPrefix("file: Bach/x.mp3\nFormat: 44100:16:2\nTitle: X\nArtist: Bach\n"))
        for missing in ["Nobody", "../etc", "/etc", "Abba/../../etc"] {
            #expect(say(s, "lsinfo \"\(missing)\"") == "ACK [50@0] {lsinfo} No such directory\n", "\(missing)")
        }
    }

    @Test func listallGoesDownEveryFolder() {
        let s = session()
        #expect(say(s, "listall") == """
            directory: Abba
            directory: Abba/Gold
            file: Abba/Gold/01 a.flac
            file: Abba/Gold/02 b.flac
            directory: Bach
            file: Bach/x.mp3
            file: loose.flac
            OK

            """)
        let info = say(s, "listallinfo Abba")
        // The folder itself comes first, as in MPD.
        #expect(info.hasPrefix("directory: Abba\ndirectory: Abba/Gold\nfile: Abba/Gold/01 a.flac\nFormat:") && info.contains("Title: B\n"))
    }

    /// `listfiles` lists the folder on disk, as MPD lists its storage: covers and text
    /// files too, with their sizes and times, and subfolders with theirs.
    @Test func listfilesListsEveryFileWithSizeAndTime() throws {
        let music = try Fixtures.shared.scratchFolder("listfiles-music")
        try FileManager.default.createDirectory(atPath: music + "/Album/Disc 2", withIntermediateDirectories: true)
        try Data(repeating: 1, count: 300).write(to: URL(fileURLWithPath: music + "/Album/02 b.flac"))
        try Data(repeating: 2, count: 20).write(to: URL(fileURLWithPath: music + "/Album/cover.jpg"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)],
                                              ofItemAtPath: music + "/Album/cover.jpg")
        let s = ControlSession(player: Player(engine: FakeEngine()), scope: .init(musicDirectory: music), catalog: LibraryCatalog())
        let listed = say(s, "listfiles Album")
        #expect(listed.hasPrefix("file: 02 b.flac\nsize: 300\nLast-Modified: "), "\(listed)")
        #expect(listed.contains("file: cover.jpg\nsize: 20\nLast-Modified: 2020-09-13T12:26:40Z\ndirectory: Disc 2\nLast-Modified: "), "\(listed)")
        #expect(say(s, "listfiles Nothing").hasPrefix("ACK [50@0] {listfiles} No such directory"))
        #expect(say(s, "listfiles ../etc").hasPrefix("ACK "))
    }

    @Test func statsCountTheLibrary() {
        let s = session()
        let stats = say(s, "stats")
        #expect(stats.hasPrefix("uptime: ") && stats.contains("\nartists: 2\nalbums: 3\nsongs: 4\n"), "\(stats)")
        #expect(stats.contains("db_playtime: 240\n") && !stats.contains("db_update: 0\n"))
    }

    @Test func theIndexKeepsTheTags() throws {
        var scan = LibraryScan()
        var t = tags("Tab\there", artist: "Line\nbreak", album: "雪")
        t.track = 3
        t.disc = 1
        scan.tracks = [LibraryTrack(path: "/m/a.flac", tags: t), LibraryTrack(path: "/m/b.flac")]
        let index = LibraryIndex(musicDirectory: "/m", playlistsDirectory: "", scan: scan, folders: [:])
        let back = try LibraryIndex.decode(index.encoded(), path: "test")
        #expect(back.scan.tracks[0].tags.title == "Tab here" && back.scan.tracks[0].tags.artist == "Line break")
        #expect(back.scan.tracks[0].tags.album == "雪" && back.scan.tracks[0].tags.seconds == 60)
        #expect(back.scan.tracks[0].trackNumber == 3 && back.scan.tracks[0].discNumber == 1)
        #expect(back.scan.tracks[1].tags == SongTags())
    }
}
