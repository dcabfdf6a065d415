import Foundation
import Testing
@testable import JukeboxCore

/// MPD 0.24's tag and library side held against MPD 0.24.2 itself (`MPDDifferentialTests`'
/// library, with songs carrying 0.24's new tags beside it): its tag types, their readers
/// and fallbacks, `Added` and `added-since`, the new filter operators, and sorting by
/// time. The same lines go to both; replies must be the same, `Added`'s time aside (each
/// server stamps the scan that found the song), which must be there all the same.
@Suite struct MPD024TagDifferentialTests {
    static let scenarios: [(name: String, lines: [String])] = [
        ("tagtypes", ["tagtypes"]),
        ("new-tags-listed", ["lsinfo New"]),
        ("new-tags-found", ["find \"(mood == 'Calm')\"", "find \"(MUSICBRAINZ_RELEASEGROUPID == 'rg-0001')\"",
                            "search \"(showmovement == '1')\""]),
        ("new-tags-lists", ["list TitleSort", "list Mood", "list ShowMovement", "list MUSICBRAINZ_RELEASEGROUPID group Mood"]),
        ("title-sort-falls-back", ["find \"(titlesort starts_with 'Op')\"", "list ComposerSort", "count group TitleSort"]),
        ("explicit-case", ["find \"(title eq_ci 'opening')\"", "search \"(title eq_cs 'opening')\"",
                           "search \"(title !eq_cs 'opening')\" window 0:2", "find \"(album contains_ci 'FIRST')\"",
                           "search \"(album starts_with_cs 'first')\"", "find \"(title !starts_with_ci 'o')\" window 0:3",
                           "find \"(title eq 'x')\""]),
        // (Within folders of FLACs: MPD 0.24.2 decodes Vorbis to float, the box to 16 bits.)
        ("negations", ["find \"((base 'Artist One') AND (artist != 'Guest Singer'))\"",
                       "find \"((base 'Artist One') AND (artist !contains 'Guest'))\"",
                       "find \"((base 'Various') AND (genre != ''))\"", "find \"((base 'New') AND (any !contains 'e'))\""]),
        ("added", ["find \"(added-since '2000-01-01')\" window 0:3", "find \"(added-since '2000-01')\" window 0:1",
                   "find \"(added-since '4000000000')\"", "find added-since 0 title Opening",
                   "find \"(added-since 'yesterday')\"", "find \"(added-since '2024-01-01T25:00')\"",
                   "find \"(modified-since '946684800')\" window 0:1", "find \"(!(modified-since '2000-01-01T00:00:00+01:00'))\""]),
        ("sorted-by-time", ["find \"(base 'Artist One')\" sort Last-Modified", "find \"(mood == 'Calm')\" sort -Added",
                            "find \"(title == 'Opening')\" sort Title"]),
        ("audio-format", ["find \"(AudioFormat == '44100:16:2')\" window 0:2", "find \"((base 'Artist One') AND (audioformat =~ '*:16:*'))\"",
                          "find \"(AudioFormat =~ '48000:*:*')\"", "find \"(AudioFormat == '44100:*:2')\"",
                          "find \"(AudioFormat =~ '44100:16')\"", "find \"(AudioFormat != '44100:16:2')\""]),
        ("searchcount", ["searchcount \"(album == 'first album')\"", "searchcount album first group artist",
                         "count album first", "searchcount \"(title eq_cs 'opening')\""]),
        ("added-in-the-queue", ["clear", "add \"Artist One/First Album/01 Opening.flac\"", "playlistinfo", "clear"]),
        ("priority", ["clear", "add \"Artist One/First Album\"", "prio 7 1", "playlistfind \"(prio >= 5)\"",
                      "playlistsearch \"(prio >= 0)\"", "find \"((prio >= 0) AND (title == 'Opening'))\"", "find \"(prio >= 1)\"",
                      "playlistfind \"(prio > 5)\"", "playlistfind \"(prio >= 256)\"", "playlistfind \"(prio >= x)\"", "clear"]),
    ]

    /// `Added: TIME` as `Added: *`: present, but its time is the scan's.
    static func starredAdded(_ lines: [String]) -> [String] {
        lines.map { $0.hasPrefix("Added: ") ? "Added: *" : $0 }
    }

    @Test func repliesMatchMPD024() throws {
        let library = try DifferentialLibrary(name: "differential-024")
        defer { library.remove() }
        try Self.addNewTagSongs(to: library)
        let (mpd, box) = try Self.serve(library, songs: library.songs + 2)

        for (name, lines) in Self.scenarios {
            let replies = try [mpd.socket, box.socket].map { socket in
                let connection = try RawMPDConnection(socket: socket)
                return lines.flatMap { line in
                    // (Not `normalised(_:box:)`: against 0.23 it drops the box's Added, which 0.24 has.)
                    ["> " + line] + Self.starredAdded(MPDDifferentialTests.normalised(connection.reply(to: line)))
                }
            }
            // Each line answered with more than its OK.
            #expect(replies[0].count > lines.count * 2, "\(name): \(replies[0])")
            if replies[0] != replies[1] { Issue.record("\(name): the box's reply differs from MPD 0.24.2's") }
            MPDStickerMessageTests.expectSame(replies[0], replies[1])
        }
        // Every song has its Added, on both.
        for socket in [mpd.socket, box.socket] {
            let all = try RawMPDConnection(socket: socket).reply(to: "listallinfo")
            #expect(all.filter { $0.hasPrefix("Added: ") }.count == library.songs + 2, "\(socket)")
        }
    }

    /// A FLAC with MPD 0.24's four new tags as Vorbis comments, and an MP3 with TitleSort
    /// and Mood in ID3 frames (TSOT, TMOO) and the release group in a TXXX.
    static func addNewTagSongs(to library: DifferentialLibrary) throws {
        let folder = library.music + "/New"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let wav = library.folder + "/tone.wav"
        try Tools.run("flac", ["-s", "-f", "-T", "TITLE=Song", "-T", "TITLESORT=Song, The", "-T", "MOOD=Calm", "-T", "SHOWMOVEMENT=1",
                               "-T", "WORK=Suite", "-T", "MUSICBRAINZ_RELEASEGROUPID=rg-0001", "-T", "ARTIST=New Artist",
                               "-o", folder + "/tagged.flac", wav])
        var tag = ID3Builder(version: 4)
        tag.text("TIT2", "Id3 Song", .utf8)
        tag.text("TSOT", "Id3 Song, The", .utf8)
        tag.text("TMOO", "Lively", .utf8)
        tag.frames.append(("TXXX", [3] + ID3Builder.encode("MusicBrainz Release Group Id", .utf8, terminated: true)
                                   + ID3Builder.encode("rg-0002", .utf8)))
        // Without lame's ID3v1 at the end (MPD reads it only where there is no ID3v2).
        let mp3 = try Data(contentsOf: URL(fileURLWithPath: library.music + "/Mp3/Song.mp3"))
        let audio = mp3.dropFirst(Self.id3Size(mp3))
        let v1 = audio.suffix(128).prefix(3) == Data("TAG".utf8) ? 128 : 0
        try (Data(tag.build()) + audio.dropLast(v1)).write(to: URL(fileURLWithPath: folder + "/id3.mp3"))
    }

    /// The bytes of an ID3v2 tag at the start of `data` (lame writes one).
    static func id3Size(_ data: Data) -> Int {
        let b = [UInt8](data.prefix(10))
        guard b.count == 10, b[0] == 0x49, b[1] == 0x44, b[2] == 0x33 else { return 0 }
        return 10 + (Int(b[6]) << 21 | Int(b[7]) << 14 | Int(b[8]) << 7 | Int(b[9]))
    }

    /// MPD 0.24.2 and the box on the library, both scanned.
    static func serve(_ library: DifferentialLibrary, songs: Int) throws -> (mpd: MPDPeer, box: RunningDaemon) {
        let mpd = try MPDPeer(name: library.name, musicDirectory: library.music, playlistsDirectory: library.mpdPlaylists(.backports),
                              release: .backports)
        #expect(try mpd.scan(expecting: songs), "MPD did not scan the library: \(mpd.log)")
        let config = library.folder + "/jukebox.toml"
        try """
            [playback]
            autoplay = false
            [library]
            playlists_dir = "\(library.boxPlaylists)"
            [control]
            keyboard = false

            """.write(toFile: config, atomically: true, encoding: .utf8)
        let box = try RunningDaemon(name: library.name, config: config, musicDirectory: library.music, device: NullOutput.deviceName,
                                    stateFile: library.folder + "/box-state/state")
        #expect(box.wait(seconds: 30) { (try? RawMPDConnection(socket: box.socket).reply(to: "stats"))?.contains("songs: \(songs)") == true },
                "the box did not scan the library: \(box.log)")
        return (mpd, box)
    }
}
