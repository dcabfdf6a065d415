import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// The player's memory (what a restart needs) and folders that keep their place.
@Suite struct PlayerMemoryTests {
    let info = StreamInfo(sampleRate: 1000, channels: 2, sampleFormat: .s16, totalFrames: 60_000)
    static let books = ["/music/Books/1.mp3", "/music/Books/2.mp3", "/music/Books/3.mp3"]
    static let songs = ["/music/Songs/a.flac", "/music/Songs/b.flac"]

    func player(_ paths: [String] = songs + books, remember: [String] = ["/music/Books"]) -> (Player, FakeEngine) {
        var settings = Player.Settings()
        settings.rememberFolders = remember
        let engine = FakeEngine()
        let player = Player(engine: engine, settings: settings)
        player.setTracks(paths)
        return (player, engine)
    }

    /// Plays the engine's part for the track just started, heard at `frame`.
    func hear(_ player: Player, _ engine: FakeEngine, at frame: Int64) {
        _ = player.status
        let token = engine.lastPlayToken!
        player.engineEvent(.trackOpened(token: token, info: info, metadata: TrackMetadata()))
        engine.snapshot = EngineSnapshot(state: .playing, token: token, frame: frame, sampleRate: 1000)
        player.engineEvent(.trackStarted(token: token))
        _ = player.status
    }

    /// The memory of a player that played the tracks at `positions` in turn, the last one
    /// heard at `frame`.
    func memory(afterPlaying positions: [Int], heardAt frame: Int64) -> PlaybackMemory {
        let (player, engine) = player()
        for (n, position) in positions.enumerated() {
            player.perform(.playPosition(position))
            hear(player, engine, at: n == positions.count - 1 ? frame : 100)
        }
        return player.memory
    }

    func lastPlay(_ engine: FakeEngine) -> FakeEngine.Call? {
        engine.calls.last { if case .play = $0 { true } else { false } }
    }

    @Test func memoryNamesTheTrackFrameAndEverythingAround() {
        let (player, engine) = player()
        player.perform(.setVolume(33))
        player.perform(.setMode(.repeatAll))
        player.perform(.playPosition(1))
        hear(player, engine, at: 7000)
        let memory = player.memory
        #expect(memory.state == .playing)
        #expect(memory.path == "/music/Songs/b.flac")
        #expect(memory.frame == 7000)
        #expect(memory.volume == 33)
        #expect(memory.mode == .repeatAll)
        #expect(memory.queueFingerprint == QueueFingerprint(paths: Self.songs + Self.books))
        player.perform(.pause)
        #expect(player.memory.state == .paused)
    }

    @Test func restoreCuesTheSavedTrackAtItsFrame() {
        let saved = memory(afterPlaying: [0, 1], heardAt: 2200)

        let (player, engine) = player()
        player.restore(saved, play: true)
        _ = player.status
        #expect(lastPlay(engine) == .play(token: engine.lastPlayToken!, path: "/music/Songs/b.flac", frame: 2200, paused: false))
        hear(player, engine, at: 2200)
        #expect(player.status.queuePosition == 1)
        // The history came back too: previous goes to what was played before.
        player.perform(.previous)
        #expect(player.status.path == "/music/Songs/a.flac")

        let (cued, cuedEngine) = self.player()
        cued.restore(saved, play: false)
        _ = cued.status
        #expect(lastPlay(cuedEngine) == .play(token: cuedEngine.lastPlayToken!, path: "/music/Songs/b.flac", frame: 2200, paused: true))
        #expect(cued.status.state == .paused)
    }

    @Test func aTrackStartedBeforeItsListKeepsPlayingWhenTheListArrives() {
        let saved = memory(afterPlaying: [0, 2, 1], heardAt: 2200)

        // The daemon's early resume: the saved track alone, then the library's list.
        let (player, engine) = player(["/music/Songs/b.flac"])
        player.restore(saved, play: true)
        _ = player.status
        #expect(lastPlay(engine) == .play(token: engine.lastPlayToken!, path: "/music/Songs/b.flac", frame: 2200, paused: false))
        hear(player, engine, at: 2300)
        let plays = engine.calls.count { if case .play = $0 { true } else { false } }
        player.setTracks(Self.songs + Self.books)
        player.restoreQueueMemory(saved)
        #expect(player.status.queuePosition == 1)
        #expect(player.status.path == "/music/Songs/b.flac")
        #expect(engine.calls.count { if case .play = $0 { true } else { false } } == plays)
        // The history came back with its list: previous goes to what was played before
        // (not to the track before in the list).
        player.perform(.previous)
        #expect(player.status.path == "/music/Books/1.mp3")
    }

    @Test func aTrackStartedAheadThatEndsFirstWaitsForItsList() {
        var settings = Player.Settings()
        settings.mode = .repeatAll
        let engine = FakeEngine()
        let player = Player(engine: engine, settings: settings)
        player.setTracks(["/music/Songs/a.flac"], provisional: true)
        var saved = player.memory
        saved.path = "/music/Songs/a.flac"
        saved.frame = 59_000
        saved.state = .playing
        saved.mode = .repeatAll
        player.restore(saved, play: true)
        hear(player, engine, at: 59_000)
        // Nothing opened ahead: what follows is not known yet (repeat-all would name a.flac).
        #expect(!engine.calls.contains { if case .setNext(.some) = $0 { true } else { false } })
        player.engineEvent(.finished)
        let plays = engine.calls.count { if case .play = $0 { true } else { false } }
        _ = player.status
        #expect(engine.calls.count { if case .play = $0 { true } else { false } } == plays)
        player.setTracks(Self.songs)
        _ = player.status
        #expect(lastPlay(engine) == .play(token: engine.lastPlayToken!, path: "/music/Songs/b.flac", frame: 0, paused: false))
    }

    @Test func queueMemoryForAnotherListChangesNothing() {
        let saved = memory(afterPlaying: [0, 1], heardAt: 2200)

        let (player, engine) = player(Self.books)
        player.perform(.playPosition(1))
        hear(player, engine, at: 500)
        player.restoreQueueMemory(saved)
        #expect(player.status.path == "/music/Books/2.mp3")
        #expect(player.status.queuePosition == 1)
    }

    @Test func aSavedTrackNoLongerThereStartsTheQueue() {
        let (player, engine) = player()
        var saved = player.memory
        saved.path = "/music/Songs/gone.flac"
        saved.frame = 999
        player.restore(saved, play: true)
        _ = player.status
        #expect(lastPlay(engine) == .play(token: engine.lastPlayToken!, path: "/music/Songs/a.flac", frame: 0, paused: false))
    }

    @Test func aBookContinuesWhereItWasLeftAfterOtherMusic() {
        let (player, engine) = player()
        player.perform(.playPosition(3))  // Books/2
        hear(player, engine, at: 30_000)
        player.perform(.playPosition(0))  // a song in between
        hear(player, engine, at: 500)
        player.perform(.playPosition(2))  // the book's first chapter, chosen again
        _ = player.status
        #expect(lastPlay(engine) == .play(token: engine.lastPlayToken!, path: "/music/Books/2.mp3", frame: 30_000, paused: false))
        #expect(player.status.queuePosition == 3)
        // Within the book, moves are plain.
        hear(player, engine, at: 30_000)
        player.perform(.next)
        _ = player.status
        #expect(lastPlay(engine) == .play(token: engine.lastPlayToken!, path: "/music/Books/3.mp3", frame: 0, paused: false))
    }

    @Test func aBookPlaceSurvivesARestart() {
        let (first, firstEngine) = player()
        first.perform(.playPosition(4))  // Books/3
        hear(first, firstEngine, at: 12_000)
        first.perform(.playPosition(1))
        hear(first, firstEngine, at: 10)
        let saved = first.memory
        #expect(saved.places == [FolderPlaces.Place(folder: "/music/Books", path: "/music/Books/3.mp3", frame: 12_000, speed: 1)])

        let (player, engine) = player()
        player.restore(saved, play: true)
        hear(player, engine, at: 10)
        player.perform(.playPosition(2))
        _ = player.status
        #expect(lastPlay(engine) == .play(token: engine.lastPlayToken!, path: "/music/Books/3.mp3", frame: 12_000, paused: false))
    }

    @Test func theSaverWritesOnChangesAndNeverWhileIdle() throws {
        let (player, engine) = player()
        let folder = try Fixtures.shared.scratchFolder("saver")
        let file = StateFile(path: "\(folder)/state")
        let saver = StateSaver(file: file, player: player, interval: 10, source: .library, logger: Logger(label: "test"))
        saver.start()
        player.perform(.playPosition(1))
        hear(player, engine, at: 2000)
        #expect(waitFor { file.load().state?.memory.path == "/music/Songs/b.flac" })
        player.perform(.pause)
        #expect(waitFor { file.load().state?.memory.state == .paused })
        let settled = saver.writes
        // Paused: status updates that change nothing write nothing.
        for _ in 0..<5 { player.perform(.pause) }
        Thread.sleep(forTimeInterval: 1.5)
        #expect(saver.writes == settled)
        // Volume changes a second apart or less are written once, after the last.
        for volume in [10, 20, 30, 40] { player.perform(.setVolume(volume)) }
        #expect(waitFor { file.load().state?.memory.volume == 40 })
        Thread.sleep(forTimeInterval: 1.2)
        #expect(saver.writes <= settled + 2)
        engine.snapshot.frame = 2500
        saver.stop()
        #expect(file.load().state?.memory.frame == 2500)
    }

    /// A resume can start the music before the saver starts: with no change to come, the
    /// place is still written every `interval` (boot-to-play's power cuts found it stuck).
    @Test func aSaverStartedWhilePlayingWritesThePlaceOnItsOwn() throws {
        let (player, engine) = player()
        let folder = try Fixtures.shared.scratchFolder("saver-playing")
        let file = StateFile(path: "\(folder)/state")
        player.perform(.playPosition(1))
        hear(player, engine, at: 100)
        let saver = StateSaver(file: file, player: player, interval: 0.2, source: .library, logger: Logger(label: "test"))
        saver.start()
        #expect(file.load().state?.memory.frame == 100)
        engine.snapshot.frame = 4000
        #expect(waitFor { file.load().state?.memory.frame == 4000 })
        saver.stop()
    }

    @Test func aClientsQueueIsKeptBesideTheStateUntilItIsEmptied() throws {
        let (player, engine) = player()
        let folder = try Fixtures.shared.scratchFolder("saver-queue")
        let file = StateFile(path: "\(folder)/state")
        let saver = StateSaver(file: file, player: player, interval: 10, source: .library, logger: Logger(label: "test"))
        try? FileManager.default.removeItem(atPath: saver.queueFile.path)
        saver.start()
        player.perform(.playPosition(0))
        hear(player, engine, at: 100)
        // The library's queue: no queue file.
        #expect(waitFor { file.load().state?.memory.path == Self.songs[0] })
        #expect(file.load().state?.clientQueue == false)
        #expect(try saver.queueFile.load() == nil)
        try player.editQueue { draft in
            try draft.remove(1..<draft.count)
            try draft.insert([Self.books[2], Self.books[0]])
        }
        let edited = [Self.songs[0], Self.books[2], Self.books[0]]
        #expect(waitFor { (try? saver.queueFile.load()) == edited })
        #expect(waitFor { file.load().state?.clientQueue == true })
        #expect(file.load().state?.memory.queueFingerprint == QueueFingerprint(paths: edited))
        // Emptied, and a button plays the library: the file goes.
        player.editQueue { $0.removeAll() }
        player.perform(.play)
        #expect(waitFor { (try? saver.queueFile.load()) == .some(nil) })
        saver.stop()
        #expect(file.load().state?.clientQueue == false)
    }

    @Test func theQueueFileKeepsAnyNameExactly() throws {
        let folder = try Fixtures.shared.scratchFolder("queue-file")
        let queue = QueueFile(beside: StateFile(path: "\(folder)/state"))
        let latin1 = FilePath.decode([0x2F, 0x6D, 0x2F, 0xE9, 0x74, 0xE9, 0x2E, 0x6D, 0x70, 0x33])  // "/m/été.mp3" in Latin-1
        let tracks = ["/music/a b.flac", "/music/#1 hit.mp3", "/music/歌.flac", latin1]
        try queue.write(tracks)
        // A line starting with # is a comment in M3U; an absolute path never starts so.
        #expect(try queue.load() == tracks)
        queue.remove()
        #expect(try queue.load() == nil)
    }

    func waitFor(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }
}
