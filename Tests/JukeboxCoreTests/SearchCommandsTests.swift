import Testing
@testable import JukeboxCore

/// find, search, count and list as MPD clients send them: filter expressions and the
/// old TYPE VALUE pairs, case as MPD has it, groups, sort and window.
@Suite struct SearchCommandsTests {
    func session() -> (ControlSession, Player) {
        func tags(_ title: String, _ artist: String, _ album: String, _ genre: String? = nil, seconds: Double = 100) -> SongTags {
            var t = SongTags()
            (t.title, t.artist, t.album, t.genre, t.seconds) = (title, artist, album, genre, seconds)
            t.albumArtist = artist
            return t
        }
        var scan = LibraryScan()
        scan.tracks = [
            LibraryTrack(path: "/m/Abba/Gold/01.flac", tags: tags("Dancing Queen", "ABBA", "Gold", "Pop")),
            LibraryTrack(path: "/m/Abba/Gold/02.flac", tags: tags("Waterloo", "ABBA", "Gold", "Pop")),
            LibraryTrack(path: "/m/Abba/Arrival/01.flac", tags: tags("Money", "ABBA", "Arrival")),
            LibraryTrack(path: "/m/Bach/01.flac", tags: tags("Air", "Bach", "Suites", "Classical", seconds: 300)),
        ]
        let catalog = LibraryCatalog()
        catalog.publish(scan)
        let player = Player(engine: FakeEngine())
        return (ControlSession(player: player, scope: .init(musicDirectory: "/m"), catalog: catalog), player)
    }

    func say(_ s: ControlSession, _ line: String) -> String {
        guard case .reply(let text) = s.handle(line: line) else { return "" }
        return text
    }

    func files(_ reply: String) -> [String] {
        reply.split(separator: "\n").filter { $0.hasPrefix("file: ") }.map { String($0.dropFirst(6)) }
    }

    @Test func findIsExactAndSearchIgnoresCase() {
        let (s, _) = session()
        #expect(files(say(s, "find artist ABBA")).count == 3)
        #expect(files(say(s, "find artist abba")).isEmpty)
        #expect(files(say(s, "search artist abb")).count == 3)
        #expect(files(say(s, "find artist ABBA album Gold")) == ["Abba/Gold/01.flac", "Abba/Gold/02.flac"])
        #expect(files(say(s, #"find "(artist == 'ABBA')""#)).count == 3)
        #expect(files(say(s, #"search "(any contains 'queen')""#)) == ["Abba/Gold/01.flac"])
        #expect(files(say(s, #"find "((artist == 'ABBA') AND (!(album == 'Gold')))""#)) == ["Abba/Arrival/01.flac"])
        #expect(files(say(s, #"find "(genre == '')""#)) == ["Abba/Arrival/01.flac"])
        #expect(files(say(s, #"find "(base 'Abba/Gold')""#)).count == 2)
        #expect(files(say(s, #"find "(title =~ '^W.*o$')""#)) == ["Abba/Gold/02.flac"])
        #expect(files(say(s, #"find "(file starts_with 'Bach/')""#)) == ["Bach/01.flac"])
        #expect(files(say(s, "find artist ABBA sort -title window 0:2")) == ["Abba/Gold/02.flac", "Abba/Arrival/01.flac"])
    }

    @Test func badFiltersAreRefused() {
        let (s, _) = session()
        #expect(say(s, #"find "(artist == 'ABBA'""#).hasPrefix("ACK [2@0] {find} "))
        #expect(say(s, #"find "(colour == 'red')""#) == "ACK [2@0] {find} Unknown filter type: colour\n")
        #expect(say(s, #"find "(title =~ '(')""#).hasPrefix("ACK [2@0] {find} Invalid regular expression"))
        #expect(say(s, "find artist") == "ACK [2@0] {find} Incorrect number of filter arguments\n")
        #expect(files(say(s, #"find "(label == 'x')""#)).isEmpty)  // a tag MPD has and the box does not read
    }

    @Test func countAndListGroup() {
        let (s, _) = session()
        #expect(say(s, "count artist ABBA") == "songs: 3\nplaytime: 300\nOK\n")
        #expect(say(s, "count group artist") == "Artist: ABBA\nsongs: 3\nplaytime: 300\nArtist: Bach\nsongs: 1\nplaytime: 300\nOK\n")
        #expect(say(s, "list artist") == "Artist: ABBA\nArtist: Bach\nOK\n")
        #expect(say(s, "list album ABBA") == "Album: Arrival\nAlbum: Gold\nOK\n")
        #expect(say(s, #"list album "(artist == 'Bach')""#) == "Album: Suites\nOK\n")
        #expect(say(s, "list album group albumartist") == "AlbumArtist: ABBA\nAlbum: Arrival\nAlbum: Gold\nAlbumArtist: Bach\nAlbum: Suites\nOK\n")
        // Arrival has no genre: the empty value reaches it, as in MPD.
        #expect(say(s, "list genre") == "Genre: \nGenre: Classical\nGenre: Pop\nOK\n")
        #expect(files(say(s, "find genre \"\"")) == ["Abba/Arrival/01.flac"])
        // No song has a label: each gives the empty value.
        #expect(say(s, "list label") == "Label: \nOK\n")
        #expect(say(s, "list colour") == "ACK [2@0] {list} Unknown tag type: colour\n")
    }

    /// As MPD: a song without an album artist is found, listed and counted under its
    /// artist; its own listing still shows only the tags it has.
    @Test func albumArtistFallsBackToArtist() {
        var scan = LibraryScan()
        var alone = SongTags()
        (alone.title, alone.artist, alone.album) = ("Song", "Solo", "Own")
        var credited = alone
        (credited.title, credited.albumArtist) = ("Other", "Various")
        scan.tracks = [LibraryTrack(path: "/m/a.flac", tags: alone), LibraryTrack(path: "/m/b.flac", tags: credited)]
        let catalog = LibraryCatalog()
        catalog.publish(scan)
        let s = ControlSession(player: Player(engine: FakeEngine()), scope: .init(musicDirectory: "/m"), catalog: catalog)
        #expect(say(s, "list albumartist") == "AlbumArtist: Solo\nAlbumArtist: Various\nOK\n")
        #expect(files(say(s, "find albumartist Solo")) == ["a.flac"])
        #expect(say(s, "count albumartist Solo").hasPrefix("songs: 1\n"))
        #expect(!say(s, "lsinfo a.flac").contains("AlbumArtist"))
    }

    @Test func findaddQueuesWhatItFinds() {
        let (s, player) = session()
        #expect(say(s, "findadd album Gold") == "OK\n")
        #expect(player.listing.paths == ["/m/Abba/Gold/01.flac", "/m/Abba/Gold/02.flac"])
        #expect(say(s, "searchadd title air position 0") == "OK\n")
        #expect(player.listing.paths.first == "/m/Bach/01.flac")
    }

    /// A song with two artists is found, listed and counted under each, as in MPD.
    @Test func aSecondArtistIsASecondArtist() {
        var m = TrackMetadata()
        m.add(.title, "Duet")
        m.add(.artist, "Singer")
        m.add(.artist, "Guest")
        m.add(.album, "Pairs")
        var scan = LibraryScan()
        var solo = TrackMetadata()
        solo.add(.artist, "Singer")
        solo.add(.album, "Alone")
        scan.tracks = [LibraryTrack(path: "/m/duet.flac", tags: SongTags(m, info: nil)), LibraryTrack(path: "/m/solo.flac", tags: SongTags(solo, info: nil))]
        let catalog = LibraryCatalog()
        catalog.publish(scan)
        let s = ControlSession(player: Player(engine: FakeEngine()), scope: .init(musicDirectory: "/m"), catalog: catalog)
        #expect(say(s, "list artist") == "Artist: Guest\nArtist: Singer\nOK\n")
        #expect(say(s, "list album group artist") == "Artist: Guest\nAlbum: Pairs\nArtist: Singer\nAlbum: Alone\nAlbum: Pairs\nOK\n")
        #expect(say(s, "count group artist") == "Artist: Guest\nsongs: 1\nplaytime: 0\nArtist: Singer\nsongs: 2\nplaytime: 0\nOK\n")
        let found = say(s, "find artist Guest")
        #expect(found.hasPrefix("file: duet.flac\n") && found.contains("Artist: Singer\n") && found.contains("Artist: Guest\n"), "\(found)")
        // `!=` matches a song when none of its values is the one named, as MPD 0.24.2's
        // filter does (asked): a duet with the singer is not found.
        #expect(say(s, "find \"(artist != 'Singer')\"") == "OK\n")
        #expect(say(s, "find \"(artist != 'Guest')\"").hasPrefix("file: solo.flac\n"))
        #expect(say(s, "stats").contains("artists: 2\nalbums: 2\nsongs: 2\n"))
    }
}

/// `search`'s case folding without copies, and numbers written without strings.
@Suite struct CaseFoldTests {
    @Test func asciiAndOtherTextFoldAlike() {
        #expect(CaseFold.equal("Dancing QUEEN", "dancing queen"))
        #expect(!CaseFold.equal("Dancing Queen!", "dancing queen"))
        #expect(CaseFold.contains("Dancing Queen", "queen") && CaseFold.contains("Dancing Queen", ""))
        #expect(!CaseFold.contains("Queen", "queens") && !CaseFold.contains("Dancing", "x"))
        #expect(CaseFold.contains("aaab", "aab"))
        #expect(CaseFold.hasPrefix("ABBA Gold", "abba") && !CaseFold.hasPrefix("Gold", "abba"))
        // Past ASCII: lowercased first, as before.
        #expect(CaseFold.equal("ÄRZTE", "ärzte") && CaseFold.contains("Die Ärzte", "ärzte"))
        #expect(CaseFold.contains("王菲 Faye", "faye") && CaseFold.hasPrefix("Ωmega", "ωm"))
        // Bytes that are not letters are not folded.
        #expect(!CaseFold.equal("[", "{") && !CaseFold.equal("@", "`"))
    }

    @Test func decimalsAreWrittenAsText() {
        for n in [0, 7, 10, 999, 1000, 123_456_789, -42, Int.max, Int.min] {
            var out: [UInt8] = []
            ControlSession.appendDecimal(n, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(n))
        }
    }
}
