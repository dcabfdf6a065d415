import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// `idle` and `noidle`: a client waits, and a change made by anyone (another client, a
/// button, the player itself) answers it with what changed.
@Suite(.serialized) struct IdleTests {
    typealias Connection = ControlHardeningTests.Connection

    @Test func thePlayersChangesWakeMPDsSubsystems() {
        #expect(IdleSubsystems([]).isEmpty)  // time passing is no change
        #expect(IdleSubsystems(.seeked) == [.player])
        #expect(IdleSubsystems([.state, .track, .tags]) == [.player])
        #expect(IdleSubsystems(.error).isEmpty)
        #expect(IdleSubsystems([.mixer, .options, .playlist, .output]) == [.mixer, .options, .playlist, .output])
    }

    /// Each command says what it changed, as it changes it, with the status it made.
    @Test func eachChangeIsSaidWhereItIsMade() {
        final class Heard: @unchecked Sendable {
            let lock = NSLock()
            var changes: [PlayerChanges] = []
        }
        let heard = Heard()
        let engine = FakeEngine()
        let player = Player(engine: engine)
        player.setTracks((0..<4).map { "/music/\($0).flac" })
        _ = player.status  // the tracks are in place before anything is heard
        player.observe { event in
            guard case .changed(let changes, _) = event else { return }
            heard.lock.withLock { heard.changes.append(changes) }
        }
        func said(_ command: PlayerCommand) -> [PlayerChanges] {
            heard.lock.withLock { heard.changes = [] }
            player.perform(command)
            return heard.lock.withLock { heard.changes }
        }
        #expect(said(.play) == [[.state, .track]])
        let info = StreamInfo(sampleRate: 1000, channels: 2, sampleFormat: .s16, totalFrames: 60_000)
        heard.lock.withLock { heard.changes = [] }
        player.engineEvent(.trackOpened(token: engine.lastPlayToken!, info: info, metadata: TrackMetadata()))
        player.engineEvent(.decoderNote(path: "/music/0.flac", note: "a lost sync"))
        _ = player.status
        #expect(heard.lock.withLock { heard.changes } == [[.tags]], "a note for the log tells no one")
        #expect(said(.setVolume(40)) == [.mixer])
        #expect(said(.setVolume(40)) == [[]])
        #expect(said(.setOption(.random(true))) == [.options])
        #expect(said(.setOption(.random(true))) == [[]])
        #expect(said(.setOption(.random(false))) == [.options])
        #expect(said(.seek(seconds: 30)) == [.seeked])
        #expect(said(.pause) == [.state])
        #expect(said(.next) == [.track])
        #expect(said(.stop) == [[.state, .track]])
        let edited: Void? = try? player.editQueue { try $0.remove(3..<4) }
        #expect(edited != nil)
        _ = player.status
        // An entry after the current one: the list changed, the current entry did not.
        #expect(heard.lock.withLock { heard.changes }.last == .playlist)
    }

    /// Observers are told with the player's lock let go: one that takes its time holds
    /// up no one asking the player.
    @Test func anObserverDoesNotHoldThePlayer() {
        final class Waited: @unchecked Sendable { var inVain = false }
        let waited = Waited()
        let player = Player(engine: FakeEngine())
        player.setTracks(["/music/a.flac"])
        // The queued list is applied and told before the observer comes: a telling held
        // up by the observer would hold up the play queued behind it, and the answer below
        // waits for queued work.
        _ = player.status
        let answered = DispatchSemaphore(value: 0)
        let observing = DispatchSemaphore(value: 0)
        let observed = DispatchSemaphore(value: 0)
        player.observe { _ in
            observing.signal()
            if answered.wait(timeout: .now() + 30) == .timedOut { waited.inVain = true }
            answered.signal()  // and lets the next telling through at once
            observed.signal()
        }
        DispatchQueue.global().async { player.perform(.play) }
        observing.wait()
        // The observer waits for this answer: were it told under the lock, or before the
        // command counts as applied, the answer would wait for it.
        _ = player.listing
        answered.signal()
        observed.wait()
        #expect(!waited.inVain)
    }

    @Test func nextPastTheLastTrackIsToldToo() {
        final class Seen: @unchecked Sendable { var states: [PlayerState] = [] }
        let seen = Seen()
        let engine = FakeEngine()
        let player = Player(engine: engine)
        player.setTracks(["/m/only.flac"])
        player.perform(.play)
        player.observe { event in if case .changed(_, let s) = event { seen.states.append(s.state) } }
        player.perform(.next)
        _ = player.status
        #expect(seen.states.last == .stopped)
    }

    @Test func aSessionAnswersWhenWhatItWaitsForChanges() {
        let player = Player(engine: FakeEngine())
        let s = ControlSession(player: player)
        #expect(s.handle(line: "idle mixer player") == .none && s.isIdle)
        #expect(s.changed([.options]) == nil)
        #expect(s.changed([.mixer, .playlist]) == "changed: mixer\nOK\n")
        // What it did not wait for is kept for the next idle.
        #expect(s.handle(line: "idle") == .reply("changed: playlist\nchanged: options\nOK\n"))
        #expect(s.handle(line: "idle") == .none)
        #expect(s.handle(line: "noidle") == .reply("OK\n") && !s.isIdle)
        #expect(s.handle(line: "noidle") == .none)
        #expect(s.handle(line: "idle colour") == .reply("ACK [2@0] {idle} Unrecognized idle event: colour\n"))
        #expect(s.handle(line: "idle player") == .none)
        #expect(s.handle(line: "status") == .replyAndClose("ACK [2@0] {status} only noidle is allowed in idle\n"))
    }

    @Test func anotherClientsChangeWakesAnIdleOne() throws {
        let engine = FakeEngine()
        let player = Player(engine: engine)
        player.setTracks((0..<3).map { "/music/\($0).flac" })
        // The queue is set before the server listens: set later, its change would be told
        // to the watcher, whose first idle would then answer at once.
        _ = player.status
        let server = ControlServer(player: player, logger: Logger(label: "test"), limits: .init(connectionTimeoutSeconds: 1))
        let path = NSTemporaryDirectory() + "jukebox-idle-\(getpid()).sock"
        try server.start(socketPath: path, tcpPort: 0)
        defer { server.stop() }
        let watcher = try Connection(unix: path)
        let doer = try Connection(unix: path)
        _ = watcher.read(until: "\n")
        _ = doer.read(until: "\n")
        watcher.send("idle mixer\n")
        doer.send("setvol 33\n")
        #expect(doer.read(until: "OK\n") == "OK\n")
        #expect(watcher.read(until: "OK\n") == "changed: mixer\nOK\n")
        // A client in idle outlives the connection timeout (the other is closed meanwhile);
        // the queue's changes wake it.
        watcher.send("idle playlist\n")
        Thread.sleep(forTimeInterval: 1.5)
        let late = try Connection(unix: path)
        _ = late.read(until: "\n")
        late.send("delete 0\n")
        #expect(late.read(until: "OK\n") == "OK\n")
        #expect(watcher.read(until: "OK\n") == "changed: playlist\nOK\n")
        // A button (any command to the player) wakes it too.
        watcher.send("idle player\n")
        player.perform(.play)
        #expect(watcher.read(until: "OK\n") == "changed: player\nOK\n")
        watcher.send("noidle\n")
        watcher.send("ping\n")
        #expect(watcher.read(until: "OK\n") == "OK\n")
    }

    /// A station's new title is a change to the playing entry, as in MPD: the queue's
    /// version moves, `plchanges` lists the entry with it, and `playlist` and `player`
    /// wake idle clients, so apps show it.
    @Test func aStationsNewTitleWakesIdleClients() throws {
        let station = try RadioStation(playing: Fixtures.shared.path("cbr.mp3"), bytesPerSong: 40 << 10)
        let (daemon, c) = try RadioTitleTests.playing(station, name: "idle-radio")
        #expect(daemon.wait(seconds: 20) { RadioTitleTests.look(c)["Title"] != nil }, "\(daemon.log)")
        func version() -> Int { Int(RadioTitleTests.look(c)["playlist"] ?? "") ?? -1 }
        c.send("idle playlist\n")
        #expect(c.read(until: "OK\n") == "changed: playlist\nOK\n")
        let before = version()
        let title = RadioTitleTests.look(c)["Title"] ?? ""
        c.send("idle playlist\n")
        #expect(c.read(until: "OK\n") == "changed: playlist\nOK\n")
        #expect(version() > before)
        c.send("plchanges \(before)\n")
        let changes = c.read(until: "OK\n")
        #expect(changes.contains("Title: Test Band - Song ") && !changes.contains("Title: \(title)\n"), "\(changes)")
        c.send("idle player\n")
        #expect(c.read(until: "OK\n") == "changed: player\nOK\n")
    }
}
