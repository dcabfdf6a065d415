import Testing
@testable import JukeboxCore

/// The queue as clients edit it: add, delete, move, swap, shuffle, clear and consume,
/// with what plays carrying on, ids staying with their entries, names that can only
/// reach the library, and a library rescan that leaves a client's queue alone.
@Suite struct QueueEditTests {
    let info = StreamInfo(sampleRate: 1000, channels: 2, sampleFormat: .s16, totalFrames: 60_000)
    static let library = ["A/1.flac", "A/2.flac", "B/1.flac", "B/2.flac", "B/3.flac"].map { "/srv/music/" + $0 }

    func setUp(_ options: PlayOptions = PlayOptions()) -> (ControlSession, Player, FakeEngine) {
        let engine = FakeEngine()
        let player = Player(engine: engine)
        player.setTracks(Self.library)
        for change in [PlayOptions.Switch.repeat(options.repeat), .random(options.random), .single(options.single), .consume(options.consume)] {
            player.perform(.setOption(change))
        }
        let catalog = LibraryCatalog()
        catalog.publish(LibraryScan(tracks: Self.library.map { LibraryTrack(path: $0) }))
        return (ControlSession(player: player, scope: .init(musicDirectory: "/srv/music"), catalog: catalog), player, engine)
    }

    func say(_ s: ControlSession, _ line: String) -> String {
        guard case .reply(let text) = s.handle(line: line) else { return "" }
        return text
    }

    func files(_ player: Player) -> [String] { player.listing.paths.map { String($0.dropFirst("/srv/music/".count)) } }

    func hear(_ player: Player, _ engine: FakeEngine) {
        _ = player.status
        let token = engine.lastPlayToken!
        player.engineEvent(.trackOpened(token: token, info: info, metadata: TrackMetadata()))
        engine.snapshot = EngineSnapshot(state: .playing, token: token, frame: 0, sampleRate: 1000)
        player.engineEvent(.trackStarted(token: token))
        _ = player.status
    }

    @Test func addTakesFilesAndFoldersOfTheLibraryOnly() {
        let (s, player, _) = setUp()
        #expect(say(s, "clear") == "OK\n" && player.listing.paths.isEmpty)
        #expect(say(s, "add B") == "OK\n")
        #expect(files(player) == ["B/1.flac", "B/2.flac", "B/3.flac"])
        #expect(say(s, "addid A/2.flac 0") == "Id: 9\nOK\n")
        #expect(files(player).first == "A/2.flac")
        #expect(say(s, "addid A") == "ACK [50@0] {addid} No such song\n")
        for sneaky in ["/etc/passwd", "../etc/passwd", "A/../../etc/passwd", "./A/1.flac", "C", "A/1.fla"] {
            #expect(say(s, "add \"\(sneaky)\"") == "ACK [50@0] {add} No such directory\n", "\(sneaky)")
        }
        #expect(files(player).count == 4)
        #expect(say(s, "add \"\"").hasSuffix("OK\n") && files(player).count == 9)
    }

    @Test func deleteMoveSwapByPositionAndById() {
        let (s, player, _) = setUp()
        let ids = player.listing.ids
        #expect(say(s, "delete 1:3") == "OK\n")
        #expect(files(player) == ["A/1.flac", "B/2.flac", "B/3.flac"] && player.listing.ids == [ids[0], ids[3], ids[4]])
        #expect(say(s, "deleteid \(ids[3])") == "OK\n" && files(player) == ["A/1.flac", "B/3.flac"])
        #expect(say(s, "deleteid \(ids[3])") == "ACK [50@0] {deleteid} No such song\n")
        #expect(say(s, "delete 5") == "ACK [2@0] {delete} Bad song index\n")
        _ = say(s, "add B")
        #expect(files(player) == ["A/1.flac", "B/3.flac", "B/1.flac", "B/2.flac", "B/3.flac"])
        #expect(say(s, "move 2:4 0") == "OK\n" && files(player) == ["B/1.flac", "B/2.flac", "A/1.flac", "B/3.flac", "B/3.flac"])
        let a1 = player.listing.ids[2]
        #expect(say(s, "moveid \(a1) 4") == "OK\n" && files(player).last == "A/1.flac")
        #expect(say(s, "swap 0 4") == "OK\n" && files(player).first == "A/1.flac")
        #expect(say(s, "swapid \(a1) \(player.listing.ids[1])") == "OK\n" && files(player)[1] == "A/1.flac")
        #expect(say(s, "move 0 9") == "ACK [2@0] {move} Number too large: 9\n")
        #expect(say(s, "move 0:9 0") == "ACK [2@0] {move} Bad song index\n")
        let before = player.listing.paths
        #expect(say(s, "shuffle 1:4") == "OK\n")
        #expect(player.listing.paths[0] == before[0] && player.listing.paths[4] == before[4])
        #expect(Set(player.listing.paths[1..<4]) == Set(before[1..<4]))
    }

    @Test func whatPlaysCarriesOnThroughEdits() {
        let (s, player, engine) = setUp()
        _ = say(s, "play 2")
        hear(player, engine)
        let plays = engine.calls.filter { if case .play = $0 { true } else { false } }.count
        let playing = player.status.selected!.id
        _ = say(s, "delete 0")
        _ = say(s, "add A")
        _ = say(s, "move 0 3")
        let status = player.status
        #expect(status.selected?.id == playing && status.state == .playing)
        #expect(player.listing.paths[status.queuePosition!] == "/srv/music/B/1.flac")
        // Not restarted: no new play call.
        #expect(engine.calls.filter { if case .play = $0 { true } else { false } }.count == plays)
        // Deleting the playing entry plays the one now in its place.
        let at = status.queuePosition!
        let following = player.listing.paths[at + 1]
        _ = say(s, "delete \(at)")
        #expect(engine.calls.last { if case .play = $0 { true } else { false } } != nil)
        guard case .play(_, let path, _, _) = engine.calls.last(where: { if case .play = $0 { true } else { false } })! else { return }
        #expect(path == following && player.status.selected?.position == at)
    }

    /// MPD gives an entry's priority back to 0 when it starts playing: it asked for the
    /// entry to come soon, and it has. The queue's version moves, for `plchanges`.
    @Test func playingAnEntryClearsItsPriority() {
        let (s, player, engine) = setUp()
        #expect(say(s, "prio 9 1:3") == "OK\n")
        let before = player.listing.version
        _ = say(s, "play 1")
        hear(player, engine)
        #expect(Array(player.listing.priorities.prefix(3)) == [0, 0, 9] && player.listing.version > before)
        #expect(!say(s, "currentsong").contains("Prio:"))
        _ = say(s, "next")
        #expect(player.listing.priorities.isEmpty)
    }

    /// A seek right after play, before the track has opened, applies once it opens, as
    /// MPD's waits for its decoder (a client resuming a place sends both at once).
    @Test func aSeekBeforeTheTrackOpensAppliesWhenItDoes() {
        let (s, player, engine) = setUp()
        _ = say(s, "play 1")
        _ = player.status
        #expect(say(s, "seekcur 12") == "OK\n")
        #expect(!engine.calls.contains { if case .seek = $0 { true } else { false } })
        hear(player, engine)
        #expect(engine.calls.contains(.seek(12_000)))
    }

    @Test func consumeRemovesWhatWasPlayed() {
        let (s, player, engine) = setUp(PlayOptions(consume: true))
        _ = say(s, "play 0")
        hear(player, engine)
        player.engineEvent(.finished)
        hear(player, engine)
        #expect(files(player) == ["A/2.flac", "B/1.flac", "B/2.flac", "B/3.flac"])
        #expect(player.status.selected?.position == 0)
        _ = say(s, "next")
        #expect(files(player) == ["B/1.flac", "B/2.flac", "B/3.flac"])
        #expect(say(s, "status").contains("consume: 1\n"))
        _ = say(s, "consume 0")
        _ = say(s, "next")
        #expect(files(player).count == 3)
    }

    /// MPD 0.24's one-shot consume: the track that ends by itself leaves the queue, and
    /// consume is off after it.
    @Test func aOneShotConsumeTakesOneTrack() {
        let (s, player, engine) = setUp()
        #expect(say(s, "consume oneshot") == "OK\n" && say(s, "status").contains("consume: oneshot\n"))
        _ = say(s, "play 0")
        hear(player, engine)
        player.engineEvent(.finished)
        hear(player, engine)
        #expect(files(player) == ["A/2.flac", "B/1.flac", "B/2.flac", "B/3.flac"])
        #expect(say(s, "status").contains("consume: 0\n") && player.status.options.consume == .off)
        _ = say(s, "next")
        #expect(files(player).count == 4)
        #expect(say(s, "consume on") == "ACK [2@0] {consume} Unrecognized consume mode, expected 0, 1, or oneshot\n")
    }

    @Test func aRescanLeavesAClientsQueueAndAnEmptyOneGoesBackToTheLibrary() {
        let (s, player, engine) = setUp()
        _ = say(s, "clear")
        _ = say(s, "add A/1.flac")
        player.setTracks(Self.library + ["/srv/music/C/new.flac"])
        #expect(files(player) == ["A/1.flac"])
        #expect(player.library.count == 6)
        _ = say(s, "clear")
        player.perform(.play)  // a button on an empty queue
        #expect(player.listing.paths.count == 6 && player.status.state == .loading)
        #expect(engine.lastPlayToken != nil)
    }

    @Test func remapKeepsHistoryAndShuffleCycle() {
        var q = PlayQueue(count: 4, options: PlayOptions(repeat: true, random: true), generator: SplitMix(seed: 3))
        let first = q.next()!
        let second = q.next()!
        // Remove `first`, add one new entry at the end.
        var moved: [Int?] = Array(0..<4)
        moved[first] = nil
        for i in 0..<4 where i > first { moved[i] = i - 1 }
        q.remap(count: 4, moved: moved)
        #expect(q.current == moved[second]!)
        #expect(q.history.isEmpty)  // `first` was all the history, and it is gone
        var rest: [Int] = []
        for _ in 0..<3 { rest.append(q.advanceAfterNaturalEnd()!) }
        #expect(Set(rest).union([moved[second]!]) == Set(0..<4))
    }

    @Test func seekAndSeekidStartAnotherEntryAtItsTime() {
        let engine = FakeEngine()
        let player = Player(engine: engine)
        player.setTracks(Self.library)
        var tags = SongTags()
        tags.format = "1000:16:2"
        tags.title = "Two"
        let catalog = LibraryCatalog()
        catalog.publish(LibraryScan(tracks: Self.library.map { LibraryTrack(path: $0, tags: tags) }))
        let s = ControlSession(player: player, scope: .init(musicDirectory: "/srv/music"), catalog: catalog)
        // Another entry: it starts at that time (1000 frames a second, from its format).
        #expect(say(s, "seek 1 12.5") == "OK\n")
        func lastPlay() -> FakeEngine.Call? { engine.calls.last { if case .play = $0 { true } else { false } } }
        #expect(lastPlay() == .play(token: engine.lastPlayToken!, path: Self.library[1], frame: 12_500, paused: false))
        hear(player, engine)
        // The one playing: a seek within it.
        #expect(say(s, "seekid \(player.listing.ids[1]) 3") == "OK\n")
        #expect(engine.calls.last == .seek(3000))
        #expect(say(s, "seekid \(player.listing.ids[3]) 1") == "OK\n")
        #expect(lastPlay() == .play(token: engine.lastPlayToken!, path: Self.library[3], frame: 1000, paused: false))
        #expect(say(s, "seek 99 1") == "ACK [2@0] {seek} Bad song index\n")
        #expect(say(s, "seekid 999 1") == "ACK [50@0] {seekid} No such song\n")
        #expect(say(s, "seek 0 nan") == "ACK [2@0] {seek} Float expected: nan\n")
        #expect(say(s, "seek 0 -5") == "ACK [2@0] {seek} Negative value not allowed: -5\n")
        // Priorities: listed with their entries, and a change of the queue for clients.
        let before = player.listing.version
        #expect(say(s, "prio 10 0:2") == "OK\n")
        #expect(player.listing.version > before && Array(player.listing.priorities.prefix(3)) == [10, 10, 0])
        #expect(say(s, "playlistinfo 1").contains("Id: \(player.listing.ids[1])\nPrio: 10\n"))
        #expect(say(s, "prioid 0 \(player.listing.ids[0]) \(player.listing.ids[1])") == "OK\n" && player.listing.priorities.isEmpty)
        #expect(say(s, "commands").contains("command: prio\n"))
    }

    @Test func playlistfindAndPlaylistsearchLookInTheQueue() {
        let (s, _, _) = setUp()
        #expect(say(s, "delete 0") == "OK\n")
        let found = say(s, "playlistfind file B/2.flac")
        #expect(found.hasPrefix("file: B/2.flac\n") && found.contains("Pos: 2\n") && found.hasSuffix("OK\n"), "\(found)")
        #expect(say(s, "playlistfind file b/2.flac") == "OK\n")
        let searched = say(s, "playlistsearch \"(file contains 'b/')\"")
        #expect(searched.components(separatedBy: "file: ").count == 4, "\(searched)")
        #expect(say(s, "playlistsearch file") .hasPrefix("ACK [2@0] {playlistsearch}"))
    }
}
