import Testing
@testable import JukeboxCore

/// The MPD 0.23 commands the box answers as an MPD that cannot do all they ask. MPD's own
/// replies are held against MPD in `MPDDifferentialTests`; these are the box's rules.
@Suite struct MPDSingleBoxCommandsTests {
    func session(password: String = "") -> (ControlSession, Player) {
        let player = Player(engine: FakeEngine())
        player.setTracks(["/srv/music/Album/song.flac", "http://radio.example/stream.mp3"])
        let s = ControlSession(player: player, scope: .init(musicDirectory: "/srv/music/"), local: password.isEmpty, password: password)
        return (s, player)
    }

    func say(_ s: ControlSession, _ line: String) -> String {
        guard case .reply(let text) = s.handle(line: line) else { return "" }
        return text
    }

    @Test func noPartitionIsMadeBesideDefault() {
        let (s, _) = session()
        #expect(say(s, "listpartitions") == "partition: default\nOK\n")
        #expect(say(s, "partition default") == "OK\n")
        #expect(say(s, "partition other") == "ACK [50@0] {partition} partition does not exist\n")
        // MPD's refusal at its limit: here the limit is the one partition there is.
        #expect(say(s, "newpartition other") == "ACK [5@0] {newpartition} too many partitions\n")
        #expect(say(s, "newpartition default") == "ACK [56@0] {newpartition} name already exists\n")
        #expect(say(s, "newpartition a.b") == "ACK [2@0] {newpartition} bad name\n")
        #expect(say(s, "delpartition default") == "ACK [5@0] {delpartition} cannot delete the default partition\n")
        #expect(say(s, "delpartition other") == "ACK [50@0] {delpartition} no such partition\n")
        #expect(say(s, "moveoutput default") == "OK\n")
        #expect(say(s, "moveoutput other") == "ACK [50@0] {moveoutput} No such output\n")
        #expect(ControlSession.isPartitionName("Kitchen_2-b") && !ControlSession.isPartitionName("") && !ControlSession.isPartitionName("é"))
    }

    @Test func mixRampIsTakenOnlyOff() {
        let (s, _) = session()
        for line in ["mixrampdb 0", "mixrampdb -0.0", "mixrampdelay 0", "mixrampdelay -1", "mixrampdelay nan"] {
            #expect(say(s, line) == "OK\n", "\(line)")
        }
        for line in ["mixrampdb -17", "mixrampdb nan", "mixrampdelay 2", "mixrampdelay inf"] {
            let name = line.prefix { $0 != " " }
            #expect(say(s, line) == "ACK [2@0] {\(name)} MixRamp is not supported: tracks play gapless, end to end\n", "\(line)")
        }
        #expect(say(s, "mixrampdelay x") == "ACK [2@0] {mixrampdelay} Float expected: x\n")
        #expect(!say(s, "status").contains("mixrampdelay"))
    }

    @Test func killIsRefusedToEveryone() {
        for password in ["", "sesame"] {
            let (s, _) = session(password: password)
            for line in ["kill", "kill now"] {
                #expect(say(s, line).hasPrefix("ACK [5@0] {kill} kill is not taken: the jukebox runs until its service is stopped"), "\(line)")
            }
            #expect(!say(s, "commands").contains("command: kill\n"))
        }
    }

    /// As an MPD built without chromaprint.
    @Test func getfingerprintIsNoCommand() {
        let (s, _) = session()
        #expect(say(s, "getfingerprint Album/song.flac") == "ACK [5@0] {} unknown command \"getfingerprint\"\n")
    }

    @Test func onlyTheWholeSongIsTakenAsARange() throws {
        let (s, player) = session()
        let (file, stream) = (player.listing.ids[0], player.listing.ids[1])
        #expect(say(s, "rangeid \(file) 0:") == "OK\n")
        #expect(say(s, "rangeid \(stream) :") == "OK\n")
        #expect(say(s, "rangeid \(file) 1:2") == "ACK [5@0] {rangeid} song ranges are not supported: the player plays whole songs\n")
        #expect(say(s, "rangeid 999 1:2") == "ACK [50@0] {rangeid} No such song\n")
        #expect(say(s, "rangeid -1 1:2") == "ACK [2@0] {rangeid} Number too large: -1\n")
        player.perform(.playPosition(0))
        #expect(say(s, "rangeid \(file) :") == "ACK [4@0] {rangeid} Cannot edit the current song\n")

        #expect(try ControlSession.songRange("1.5:") == (1.5, nil))
        #expect(try ControlSession.songRange(":2") == (0, 2))
        #expect(try ControlSession.songRange("0:0") == (0, nil))
        #expect(try ControlSession.songRange(" 1e1:2e1") == (10, 20))
        for bad in ["", "1", "1:1", "2:1", "-1:2", "1:x", "x:2", " :2", "nan:"] {
            #expect(throws: MPDProtocol.Ack(code: .argument, message: "Bad range"), "\(bad)") { try ControlSession.songRange(bad) }
        }
    }

    @Test func tagsAreEditedNeitherOnFilesNorOnStreams() {
        let (s, player) = session()
        let (file, stream) = (player.listing.ids[0], player.listing.ids[1])
        #expect(say(s, "addtagid \(file) artist X") == "ACK [4@0] {addtagid} Cannot edit tags of local file\n")
        #expect(say(s, "cleartagid \(file)") == "ACK [4@0] {cleartagid} Cannot edit tags of local file\n")
        let refused = "editing a stream's tags is not supported: it is shown as the stream names itself\n"
        #expect(say(s, "addtagid \(stream) artist X") == "ACK [5@0] {addtagid} " + refused)
        #expect(say(s, "cleartagid \(stream) title") == "ACK [5@0] {cleartagid} " + refused)
        // The tag before the song, as MPD checks them.
        #expect(say(s, "addtagid 999 bogus X") == "ACK [2@0] {addtagid} Unknown tag type: bogus\n")
        #expect(say(s, "cleartagid 999") == "ACK [50@0] {cleartagid} No such song\n")
    }

    @Test func commentsAreReadFromLibraryFilesOnly() {
        let (s, _) = session()
        #expect(say(s, "readcomments http://radio.example/stream.mp3")
            == "ACK [50@0] {readcomments} comments are read from the library's files only, not from streams\n")
        #expect(say(s, "readcomments Album/song.flac") == "ACK [50@0] {readcomments} No such song\n")
    }

    /// Each comment as written, in the file's order; one without a name or `=` is none.
    @Test func rawTagsAreTheFilesOwnNames() throws {
        let comments = VorbisComments.metadata(from: ["ARTIST=One", "=nameless", "no equals", "title=t=2", "ARTIST=Two"])
        #expect(comments.rawTags == [RawTag(name: "ARTIST", value: "One"), RawTag(name: "title", value: "t=2"), RawTag(name: "ARTIST", value: "Two")])

        var tag = ID3Builder(version: 4)
        tag.text("TIT2", "Title", .utf8)
        tag.text("TXXX", "MusicBrainz Album Id\u{0}album-id", .utf8)
        tag.text("TXXX", "REPLAYGAIN_TRACK_GAIN\u{0}-3.00 dB", .utf8)
        tag.text("TXXX", "Work\u{0}w", .utf8)
        let id3 = try #require(try ID3v2Reader.metadata(in: InMemoryTagBytes(bytes: tag.build()), mpegFrameSeconds: 0.026))
        // User texts only, as MPD lists them: not its MusicBrainz ids, nor the text frames.
        #expect(id3.rawTags == [RawTag(name: "REPLAYGAIN_TRACK_GAIN", value: "-3.00 dB"), RawTag(name: "Work", value: "w")])
        #expect(id3.first(.musicBrainzAlbumID) == "album-id")
    }
}
