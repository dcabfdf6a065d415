import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// `idle` and `noidle`: a client waits, and a change made by anyone (another client, a
/// button, the player itself) answers it with what changed.
@Suite(.serialized) struct IdleTests {
    typealias Connection = ControlHardeningTests.Connection

    @Test func theSubsystemsFollowWhatChanged() {
        var a = PlayerStatus()
        a.state = .playing
        a.elapsed = 10
        var b = a
        b.elapsed = 11
        #expect(IdleSubsystem.changes(from: a.digest, to: b.digest, seconds: 1).isEmpty)  // time passing is no change
        b.elapsed = 40
        #expect(IdleSubsystem.changes(from: a.digest, to: b.digest, seconds: 1) == [.player])  // a seek
        b = a
        b.volume = 20
        b.options.random = true
        b.queueVersion = 7
        b.route = .lost("hw:1")
        #expect(IdleSubsystem.changes(from: a.digest, to: b.digest, seconds: 0) == [.mixer, .options, .playlist, .output])
    }

    /// Idle clients hear of a change from the digest, before the status is built: it must
    /// come first, and say what the status then says.
    @Test func theDigestComesFirstAndAgreesWithTheStatus() {
        final class Heard: @unchecked Sendable {
            let lock = NSLock()
            var digests: [StatusDigest] = []
            var pairs: [(digest: StatusDigest, status: StatusDigest)] = []
            var unpaired = 0
        }
        let heard = Heard()
        let player = Player(engine: FakeEngine())
        player.setTracks((0..<4).map { "/music/\($0).flac" })
        _ = player.status
        player.observeDigests { digest in heard.lock.withLock { heard.digests.append(digest) } }
        player.observe { event in
            guard case .statusChanged(let status) = event else { return }
            heard.lock.withLock {
                if let digest = heard.digests.popLast(), heard.digests.isEmpty {
                    heard.pairs.append((digest, status.digest))
                } else {
                    heard.unpaired += 1
                }
                heard.digests = []
            }
        }
        let commands: [PlayerCommand] = [.play, .setVolume(40), .setOption(.random(true)), .next, .seek(seconds: 30), .pause,
                                         .setOption(.repeat(true)), .previous, .stop]
        for command in commands { player.perform(command) }
        player.setTracks(["/music/9.flac"])
        _ = player.status
        heard.lock.withLock {
            #expect(heard.unpaired == 0)
            #expect(heard.pairs.count >= commands.count)
            for (digest, status) in heard.pairs {
                var same = digest
                same.elapsed = status.elapsed  // the clock moves between the two
                #expect(same == status && abs(digest.elapsed - status.elapsed) < 0.5)
            }
        }
    }

    @Test func nextPastTheLastTrackIsToldToo() {
        final class Seen: @unchecked Sendable { var states: [PlayerState] = [] }
        let seen = Seen()
        let engine = FakeEngine()
        let player = Player(engine: engine)
        player.setTracks(["/m/only.flac"])
        player.perform(.play)
        player.observe { event in if case .statusChanged(let s) = event { seen.states.append(s.state) } }
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
