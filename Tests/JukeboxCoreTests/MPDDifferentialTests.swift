import Foundation
import Testing
@testable import JukeboxCore

/// The box's MPD protocol held against MPD itself: Debian's `mpd` and `jukebox run` on the
/// same generated library, each scenario's raw command lines sent to both, and the replies
/// compared once what may differ is normalised (ids, times, versions, bitrates). A scenario
/// whose replies still differ must be listed in `Golden/mpd-differences.txt` with the
/// reason; a listed one that no longer differs must leave the list, so it only shrinks.
@Suite(.serialized) struct MPDDifferentialTests {
    /// What each server is asked, scenario by scenario. Every scenario starts on a new
    /// connection, stopped, with an empty queue, no error and every play mode off. A seek
    /// past a track's end is not among them: MPD answers it `OK` or "Decoder failed to
    /// seek" depending on whether its decoder has already reached the end.
    static let scenarios: [(name: String, lines: [String])] = [
        ("stats", ["stats"]),
        ("tagtypes", ["tagtypes"]),
        ("commands", ["commands"]),
        ("notcommands", ["notcommands"]),
        ("decoders", ["decoders"]),
        ("urlhandlers", ["urlhandlers"]),
        ("outputs", ["outputs"]),
        ("status-stopped", ["status"]),
        ("lsinfo-root", ["lsinfo", "lsinfo \"\"", "lsinfo /"]),
        ("lsinfo-folders", ["lsinfo \"Artist One\"", "lsinfo \"Artist One/First Album\"", "lsinfo \"Various/Two Discs\""]),
        ("lsinfo-song", ["lsinfo \"Artist One/First Album/01 Opening.flac\""]),
        ("lsinfo-missing", ["lsinfo \"No Such Folder\""]),
        ("listall", ["listall", "listall \"Various\""]),
        ("listallinfo", ["listallinfo \"Various\""]),
        ("listfiles", ["listfiles \"Artist One/First Album\""]),
        ("list-artist", ["list artist"]),
        ("list-albumartist", ["list albumartist"]),
        ("list-album", ["list album", "list album artist \"Artist One\""]),
        ("list-album-group", ["list album group albumartist"]),
        ("list-genre-date", ["list genre", "list date"]),
        ("list-filter", ["list title \"(album == 'First Album')\""]),
        ("find-artist", ["find artist \"Artist One\""]),
        ("find-expression", ["find \"(album == 'Two Discs')\""]),
        ("find-multivalue", ["find artist \"Guest Singer\""]),
        ("find-albumartist-fallback", ["find albumartist \"Björk\"", "count albumartist \"Mp3 Artist\""]),
        ("find-empty", ["find title \"\"", "list album \"(artist == '')\""]),
        ("search-case", ["search title \"ALPHA\"", "search any \"ünï\""]),
        ("count", ["count artist \"Artist One\"", "count group artist"]),
        ("queue-add", ["add \"Artist One\"", "playlistinfo", "status"]),
        ("queue-addid", ["addid \"Various/Two Discs/1-01 Alpha.flac\"", "playlistinfo"]),
        ("queue-delete-move", ["add \"\"", "delete 0", "move 0 2", "playlist", "status"]),
        ("queue-findadd", ["findadd album \"Two Discs\"", "playlistinfo"]),
        ("queue-search", ["add \"\"", "playlistfind album \"First Album\"", "playlistsearch title \"beta\""]),
        ("queue-range", ["add \"\"", "playlistinfo 1:3", "delete 1:3", "playlistinfo"]),
        ("queue-errors", ["add \"No Such File.flac\"", "delete 5", "move 9 0", "playid 999"]),
        ("play", ["add \"\"", "play 1", "currentsong", "status"]),
        ("pause", ["add \"\"", "play 0", "pause 1", "status", "pause 0", "status"]),
        ("next-paused", ["add \"\"", "play 0", "pause 1", "next", "status"]),
        ("next-stopped", ["add \"\"", "next", "status"]),
        ("previous", ["add \"\"", "play 2", "previous", "status"]),
        ("previous-paused", ["add \"\"", "play 2", "pause 1", "previous", "status"]),
        ("previous-first", ["add \"\"", "play 0", "previous", "status"]),
        ("previous-stopped", ["add \"\"", "previous", "status"]),
        ("stop", ["add \"\"", "play 0", "stop", "status"]),
        ("seek", ["add \"\"", "play 0", "seek 0 0.5", "seekid 1 0.5", "seekcur 0.2"]),
        ("prio", ["add \"\"", "prio 5 1:3", "prio 200 8", "playlistinfo 0:2", "plchangesposid 0", "prioid 7 1", "prio 300 0", "prio -1 0",
                  "prio x 0", "prio 1 20", "prioid 1 999", "random 1", "play 0", "status"]),
        ("options", ["repeat 1", "random 1", "single 1", "consume 1", "status", "single oneshot", "status"]),
        ("volume", ["setvol 50", "status", "volume 5", "status"]),
        ("playlists", ["listplaylists", "listplaylist saved", "listplaylistinfo saved", "load saved", "playlistinfo"]),
        ("playlist-in-folder", ["lsinfo \"Artist One/First Album\"", "listplaylist \"Artist One/First Album/album.m3u\""]),
        ("playlist-edit", ["save made", "playlistadd made \"Mp3/Song.mp3\"", "listplaylist made", "rm made"]),
        ("albumart", ["albumart \"Artist One/First Album/01 Opening.flac\" 0"]),
        ("readpicture", ["readpicture \"Artist One/First Album/01 Opening.flac\" 0"]),
        ("errors-unknown", ["bogus", "status extra"]),
        ("errors-quoting", ["lsinfo \"unbalanced"]),
        ("command-list", ["command_list_ok_begin", "status", "bogus", "command_list_end"]),
        ("ping", ["ping"]),
        ("outputset", ["outputset 0 dop 1", "outputset 5 dop 1"]),
        ("seekcur-stopped", ["add \"\"", "seekcur 10", "seekcur +5"]),
        ("crossfade-off", ["crossfade 0", "status"]),
        ("mounts", ["listmounts", "mount usb foo://bar", "unmount usb", "unmount \"\"", "listneighbors"]),
        ("argument-counts", ["add", "playlistinfo 1 2", "load", "cleartagid", "cleartagid 1 artist x", "searchaddpl x"]),
        ("partitions", ["listpartitions", "partition default", "partition nosuch", "partition \"\"", "newpartition default",
                        "newpartition \"a b\"", "newpartition é", "delpartition default", "delpartition nosuch", "delpartition \"\"", "status"]),
        // MPD makes it; the box has one player and one set of outputs.
        ("partition-new", ["newpartition other", "listpartitions", "delpartition other"]),
        ("moveoutput", ["moveoutput null-sink", "moveoutput nosuch", "moveoutput \"\"", "outputs"]),
        ("mixramp-off", ["mixrampdb 0", "mixrampdelay -1", "mixrampdelay nan", "mixrampdelay 0", "mixrampdb x", "mixrampdelay x", "status"]),
        ("mixramp-on", ["mixrampdb -17", "mixrampdelay 2", "status", "mixrampdelay -1", "mixrampdb 0"]),
        // Debian's MPD is built with chromaprint; one without has no such command.
        ("getfingerprint", ["getfingerprint"]),
        ("searchaddpl", ["searchaddpl found title alpha", "searchaddpl found \"(album == 'First Album')\" position 0", "listplaylist found",
                         "searchaddpl none artist nobody", "listplaylist none", "searchaddpl \"a/b\" title alpha", "searchaddpl found artist",
                         "searchaddpl found title beta window 0:1", "listplaylist found", "rm found"]),
        ("readcomments", ["readcomments \"Artist One/First Album/01 Opening.flac\"", "readcomments \"Artist One/First Album/02 Second.flac\"",
                          "readcomments Mp3/Song.mp3", "readcomments Ogg/Song.ogg", "readcomments Untagged/noise.flac",
                          "readcomments \"Ünïcødé/Björk 曲.flac\"", "readcomments \"No Such.flac\"", "readcomments \"Artist One\""]),
        ("song-edits", ["add Ogg/Song.ogg", "addtagid 999 artist X", "addtagid x artist X", "addtagid -1 artist X", "addtagid 999 bogus X",
                        "cleartagid 999", "cleartagid 999 bogus", "rangeid 999 1:2", "rangeid 999 x", "rangeid x 1:2", "rangeid -1 1:2",
                        "rangeid 999 :", "rangeid 999 1", "rangeid 999 2:1", "rangeid 999 \"\""]),
    ]

    /// Reply lines whose values legitimately differ between two servers (and runs): the
    /// value is replaced by `*`. `playlist` and `time` are volatile only as numbers (the
    /// status's queue version and elapsed time); a stored playlist's name stays.
    static let volatileKeys: Set<String> = [
        "Id", "songid", "nextsongid", "elapsed", "uptime", "playtime", "db_update", "mixrampdb",
    ]
    /// Status lines that come and go with timing: MPD gives the stream's format and bitrate
    /// only once its decoder has reported them, which may be after `play` has answered.
    static let timingKeys: Set<Substring> = ["audio", "bitrate", "updating_db"]

    /// Volatile values starred, and each song's lines in one order: MPD gives a song's tags
    /// in the order the file holds them, which no client relies on. Lines of one key keep
    /// their order (a second artist stays second).
    /// The box's own status keys, after MPD's (where the audio goes, the network's buffer,
    /// the speed): clients skip keys they do not know, so they are left out of the box's
    /// replies before comparing.
    /// (`Added` is MPD 0.24's, which 0.23 does not give; MPD024TagDifferentialTests holds it.)
    static let boxOwnKeys: Set<Substring> = ["output", "mixer", "buffered", "buffering", "speed", "Added"]

    static func normalised(_ lines: [String], box: Bool) -> [String] {
        normalised(lines.filter {
            let key = $0.prefix { $0 != ":" }
            return !timingKeys.contains(key) && !(box && boxOwnKeys.contains(key))
        })
    }

    static func normalised(_ lines: [String]) -> [String] {
        var out: [String] = []
        var song: [String] = []
        func key(_ line: String) -> Substring { line.prefix { $0 != ":" } }
        func endSong() {
            out += song.prefix(1) + song.dropFirst().enumerated().sorted { (key($0.element), $0.offset) < (key($1.element), $1.offset) }.map(\.element)
            song = []
        }
        for line in starred(lines) {
            if line.hasPrefix("file: ") { endSong(); song = [line]; continue }
            if !song.isEmpty, line.contains(": "), !line.hasPrefix("directory: "), !line.hasPrefix("playlist: ") {
                song.append(line)
                continue
            }
            endSong()
            out.append(line)
        }
        endSong()
        return out
    }

    /// `listfiles` entries sorted by name: MPD lists a folder in the order the file
    /// system returns it (readdir's), which is no order at all; the box sorts.
    static func sortedEntries(_ lines: [String]) -> [String] {
        var entries: [[String]] = []
        var end: [String] = []
        for line in lines {
            if line == "OK" || line.hasPrefix("ACK ") {
                end.append(line)
            } else if line.hasPrefix("file: ") || line.hasPrefix("directory: ") || entries.isEmpty {
                entries.append([line])
            } else {
                entries[entries.count - 1].append(line)
            }
        }
        return entries.sorted { $0[0] < $1[0] }.flatMap { $0 } + end
    }

    static func starred(_ lines: [String]) -> [String] {
        lines.map { line in
            guard let colon = line.firstIndex(of: ":") else { return line }
            let key = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            let volatile = volatileKeys.contains(key)
                || (key == "playlist" && Int(value) != nil)
                || (key == "time" && value.contains(":") && value.allSatisfy { $0.isNumber || $0 == ":" })
            return volatile ? "\(key): *" : line
        }
    }

    /// The allowed differences: scenario name, then the reason, one a line.
    static func allowed(_ file: String = "mpd-differences.txt") throws -> [String: String] {
        let path = ScreenGoldenTests.folder + "/" + file
        var entries: [String: String] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            entries[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return entries
    }

    @Test func repliesMatchMPD() throws {
        let library = try DifferentialLibrary(name: "differential")
        defer { library.remove() }
        let (mpd, box) = try library.serve()

        let allowed = try Self.allowed()
        #expect(allowed.count <= Self.scenarios.count)
        for (name, lines) in Self.scenarios {
            let replies = try [mpd.socket, box.socket].map { socket in
                let connection = try RawMPDConnection(socket: socket)
                for line in ["stop", "clear", "clearerror", "repeat 0", "random 0", "single 0", "consume 0", "setvol 100"] {
                    _ = connection.reply(to: line)
                }
                return lines.flatMap { line in
                    let reply = Self.normalised(connection.reply(to: line), box: socket == box.socket)
                    return ["> " + line] + (line.hasPrefix("listfiles") ? Self.sortedEntries(reply) : reply)
                }
            }
            let (theirs, ours) = (replies[0], replies[1])
            let differs = theirs != ours
            if differs, allowed[name] == nil {
                func shown(_ lines: [String]) -> String { lines.prefix(60).map { "    " + $0 }.joined(separator: "\n") }
                Issue.record("\(name): the box's reply differs from MPD's\n  MPD:\n\(shown(theirs))\n  box:\n\(shown(ours))")
            }
            if !differs, allowed[name] != nil {
                Issue.record("\(name): now the same as MPD's; take it out of Golden/mpd-differences.txt")
            }
        }
        for name in allowed.keys where !Self.scenarios.contains(where: { $0.name == name }) {
            Issue.record("Golden/mpd-differences.txt names \(name), which is no scenario")
        }
    }
}

/// The library both servers serve: albums with track and disc numbers, a second artist in
/// one song, an album artist over several artists, Unicode names and tags, a file with no
/// tags, MP3 and Ogg beside FLAC, a cover, a playlist inside the music folder and a stored
/// one.
struct DifferentialLibrary {
    let folder: String
    var music: String { folder + "/music" }
    var mpdPlaylists: String { folder + "/mpd-playlists" }
    var boxPlaylists: String { folder + "/box-playlists" }
    let songs = 9

    let name: String

    init(name: String) throws {
        self.name = name
        folder = NSTemporaryDirectory() + "jukebox-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        let fm = FileManager.default
        for sub in ["music/Artist One/First Album", "music/Various/Two Discs", "music/Ünïcødé", "music/Untagged",
                    "music/Mp3", "music/Ogg", "mpd-playlists", "box-playlists"] {
            try fm.createDirectory(atPath: "\(folder)/\(sub)", withIntermediateDirectories: true)
        }
        let wav = folder + "/tone.wav"
        try Tools.run("sox", ["-n", "-r", "44100", "-b", "16", "-c", "2", wav, "synth", "30", "sine", "440", "gain", "-12"])
        func flac(_ path: String, _ tags: [(String, String)]) throws {
            try Tools.run("flac", ["-s", "-f"] + tags.flatMap { ["-T", "\($0.0)=\($0.1)"] } + ["-o", "\(music)/\(path)", wav])
        }
        let album = [("ALBUM", "First Album"), ("ALBUMARTIST", "Artist One"), ("DATE", "2001"), ("GENRE", "Rock")]
        try flac("Artist One/First Album/01 Opening.flac",
                 album + [("TITLE", "Opening"), ("ARTIST", "Artist One"), ("TRACKNUMBER", "1"), ("COMPOSER", "Writer"),
                          ("MUSICBRAINZ_TRACKID", "0b5e9a3c-0000-4000-8000-000000000001"), ("LABEL", "Own Label"),
                          ("COMMENT", "first"), ("ORIGINALDATE", "1999")])
        try flac("Artist One/First Album/02 Second.flac",
                 album + [("TITLE", "Second"), ("ARTIST", "Artist One"), ("ARTIST", "Guest Singer"), ("TRACKNUMBER", "2")])
        let discs = [("ALBUM", "Two Discs"), ("ALBUMARTIST", "Various Artists"), ("DATE", "2010"), ("GENRE", "Pop")]
        try flac("Various/Two Discs/1-01 Alpha.flac",
                 discs + [("TITLE", "Alpha"), ("ARTIST", "Band A"), ("TRACKNUMBER", "1"), ("DISCNUMBER", "1")])
        try flac("Various/Two Discs/1-02 Gamma.flac",
                 discs + [("TITLE", "Gamma"), ("ARTIST", "Band B"), ("TRACKNUMBER", "2"), ("DISCNUMBER", "1")])
        try flac("Various/Two Discs/2-01 Beta.flac",
                 discs + [("TITLE", "Beta"), ("ARTIST", "Band A"), ("TRACKNUMBER", "1"), ("DISCNUMBER", "2")])
        try flac("Ünïcødé/Björk 曲.flac", [("TITLE", "Ünïcødé 曲"), ("ARTIST", "Björk"), ("ALBUM", "Ålbum")])
        try flac("Untagged/noise.flac", [])
        try Tools.run("lame", ["--quiet", "--tt", "Song", "--ta", "Mp3 Artist", "--tl", "Mp3 Album", "--tn", "3",
                               "--ty", "2003", wav, "\(music)/Mp3/Song.mp3"])
        try Tools.run("oggenc", ["-Q", "-t", "Vorbis Song", "-a", "Ogg Artist", "-l", "Ogg Album", "-N", "4",
                                 "-o", "\(music)/Ogg/Song.ogg", wav])
        try fm.copyItem(atPath: Fixtures.shared.path("cover.png"), toPath: "\(music)/Artist One/First Album/cover.png")
        try "01 Opening.flac\n02 Second.flac\n".write(toFile: "\(music)/Artist One/First Album/album.m3u", atomically: true, encoding: .utf8)
        let saved = "Various/Two Discs/2-01 Beta.flac\nArtist One/First Album/01 Opening.flac\n"
        for playlists in [mpdPlaylists, boxPlaylists] {
            try saved.write(toFile: "\(playlists)/saved.m3u", atomically: true, encoding: .utf8)
        }
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// MPD and the box serving the library, each with its own copy of the stored
    /// playlists, both scanned: a failed scan is recorded as an issue.
    func serve() throws -> (mpd: MPDPeer, box: RunningDaemon) {
        // Stickers on for both: the box keeps them beside its state file.
        let mpd = try MPDPeer(name: name, musicDirectory: music, playlistsDirectory: mpdPlaylists, stickerFile: folder + "/mpd-stickers.sql")
        #expect(try mpd.scan(expecting: songs), "MPD did not scan the library: \(mpd.log)")
        let config = folder + "/jukebox.toml"
        try """
            [playback]
            autoplay = false
            [library]
            playlists_dir = "\(boxPlaylists)"
            [control]
            keyboard = false

            """.write(toFile: config, atomically: true, encoding: .utf8)
        let box = try RunningDaemon(name: name, config: config, musicDirectory: music, device: NullOutput.deviceName,
                                    stateFile: folder + "/box-state/state")
        #expect(box.wait(seconds: 30) { (try? RawMPDConnection(socket: box.socket).reply(to: "stats"))?.contains("songs: \(songs)") == true },
                "the box did not scan the library: \(box.log)")
        return (mpd, box)
    }
}
