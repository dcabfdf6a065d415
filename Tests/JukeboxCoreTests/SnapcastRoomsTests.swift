import Foundation
import Testing

/// Rooms for real: Debian's snapserver on the host and snapclients in network namespaces
/// of their own (veth links), each recording what it plays with snapclient's file
/// player. What the rooms play is compared frame for frame with the decode of the
/// music, and rooms with each other by when they play the same frames.
///
/// The box (`jukebox run --device snapcast:FIFO`) plays into snapserver's fifo; one
/// harness self-test feeds the fifo from the test instead (`SnapcastFifoFeeder`), so a
/// fault of the harness is told apart from one of the box.
@Suite(.serialized) struct SnapcastRoomsTests {
    static let isRoot = geteuid() == 0

    /// A gapless album (three 48 kHz 16-bit stereo tracks of different noise: no
    /// stretch repeats, so every 64 frames occur once) and one long track, made once.
    struct Music {
        let folder: String
        let album: [String]
        let long: String

        static let shared: Music = {
            do { return try Music() } catch { fatalError("cannot make the Snapcast music: \(error)") }
        }()

        private init() throws {
            let folder = try Fixtures.shared.scratchFolder("snapcast-music")
            self.folder = folder
            album = ["white", "pink", "brown"].enumerated().map { "\(folder)/0\($0.offset + 1) \($0.element).flac" }
            for (path, noise) in zip(album, ["whitenoise", "pinknoise", "brownnoise"]) {
                try Tools.run("sox", ["-n", "-r", "48000", "-b", "16", "-c", "2", path, "synth", "1.5", noise, "gain", "-3"])
            }
            long = "\(folder)/long.flac"
            try Tools.run("sox", ["-n", "-r", "48000", "-b", "16", "-c", "2", long, "synth", "10", "whitenoise", "gain", "-3"])
        }

        var albumNames: [String] { album.map { ($0 as NSString).lastPathComponent } }
        var longName: String { (long as NSString).lastPathComponent }

        /// The box's own decode (`jukebox decode -o -`), tracks one after the other.
        func decode(_ paths: [String]) throws -> StereoPCM {
            var bytes = Data()
            for path in paths { bytes.append(try Tools.run(Tools.jukebox, ["decode", path, "-o", "-"]).stdout) }
            return StereoPCM(bytes)
        }
    }

    /// Waits until snapserver lists every room as connected.
    private func waitForRooms(_ rooms: [SnapRoom], on server: SnapServer, seconds: Double = 10) -> Bool {
        let names = Set(rooms.map(\.name))
        return poll(seconds: seconds) { server.connectedRooms().isSuperset(of: names) }
    }

    private func poll(seconds: Double, every interval: useconds_t = 100_000, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(interval)
        }
        return condition()
    }

    /// "room b: …" describing a recording against a reference that starts in it at `start`.
    private func describe(_ room: SnapRoom, _ pcm: StereoPCM, against reference: StereoPCM) -> String {
        guard let start = pcm.start(of: reference) else {
            return "room \(room.name): the music's first frames are not in its \(pcm.count) frames\n\(room.log)"
        }
        guard let difference = pcm.firstDifference(from: reference, at: start) else { return "room \(room.name): bit-exact" }
        let silence = pcm.silentRuns(in: (start + difference)..<(start + difference + 48_000), minimum: 48).first
        return "room \(room.name): music from frame \(start), differs at its frame \(difference) of \(reference.count)"
            + (silence.map { " (silence of \($0.count) frames at \($0.lowerBound - start))" } ?? "")
    }

    private func rooms(_ names: [String], on server: SnapServer) throws -> [SnapRoom] {
        let rooms = try names.enumerated().map { try SnapRoom($0.element, index: $0.offset + 1, server: server) }
        #expect(waitForRooms(rooms, on: server), "\(server.log)")
        return rooms
    }

    /// Waits until `room` holds all of `reference`, bit for bit, and says so.
    private func expectWhole(_ reference: StereoPCM, in room: SnapRoom, within seconds: Double, _ also: @autoclosure () -> String = "") throws {
        let whole = poll(seconds: seconds, every: 500_000) {
            guard let pcm = try? room.recorded().pcm, let start = pcm.start(of: reference) else { return false }
            return pcm.firstDifference(from: reference, at: start) == nil
        }
        let pcm = try room.recorded().pcm
        #expect(whole, "\(describe(room, pcm, against: reference))\n\(also())")
    }

    /// The offsets of room `b` against room `a` over what `a` heard between two times.
    private func offsets(_ a: SnapRoom, _ b: SnapRoom, from: Double, to: Double) throws -> [Int]? {
        let (aPCM, aClock) = try a.recorded()
        let (bPCM, bClock) = try b.recorded()
        guard let first = aClock.frame(at: from), let last = aClock.frame(at: to) else { return nil }
        return roomOffsets(aPCM, aClock, bPCM, bClock, in: first..<min(last, aPCM.count), step: 2_400)
    }

    private func expectInSync(_ offsets: [Int]?, _ what: String) {
        guard let offsets else {
            Issue.record("\(what): no stamps then")
            return
        }
        print("Snapcast \(what): offsets \(offsets.min() ?? 0)…\(offsets.max() ?? 0) frames over \(offsets.count) points")
        #expect(offsets.count >= 5, "\(what): too little common music (\(offsets.count) points)")
        #expect(offsets.allSatisfy { abs($0) <= 48 }, "\(what): offsets \(offsets)")
    }

    /// The harness alone: the test writes the album into the fifo, and three rooms
    /// record it bit for bit.
    @Test(.enabled(if: isRoot, "network namespaces need root"))
    func harnessSelfTestRoomsRecordWhatTheFifoIsFedBitExact() throws {
        let music = Music.shared
        let reference = try music.decode(music.album)
        let server = try SnapServer(name: "harness")
        let rooms = try rooms(["a", "b", "c"], on: server)
        let feeder = SnapcastFifoFeeder(fifo: server.fifo, pcm: Data(reference.frames.withUnsafeBytes { Data($0) }))
        defer { feeder.stop() }
        for room in rooms {
            try expectWhole(reference, in: room, within: reference.seconds + Double(server.bufferMs) / 1000 + 10)
        }
    }

    /// The box plays a gapless album into Snapcast; three rooms each play all of it, frame
    /// for frame the box's decode, across the joins.
    @Test(.enabled(if: isRoot, "network namespaces need root"))
    func roomsPlayTheAlbumBitExactAcrossItsJoins() throws {
        let music = Music.shared
        let reference = try music.decode(music.album)
        let server = try SnapServer(name: "bitexact")
        let rooms = try rooms(["a", "b", "c"], on: server)
        let box = try SnapcastBox(name: "bitexact", server: server, musicDirectory: music.folder)
        box.play(music.albumNames)
        for room in rooms {
            try expectWhole(reference, in: room, within: reference.seconds + Double(server.bufferMs) / 1000 + 10, box.daemon.log)
        }
    }

    /// Two rooms play each frame within 1 ms of each other: playing, after a pause, and
    /// after a seek.
    @Test(.enabled(if: isRoot, "network namespaces need root"))
    func roomsPlayInSyncThroughAPauseAndASeek() throws {
        let music = Music.shared
        let server = try SnapServer(name: "sync")
        let rooms = try rooms(["a", "b"], on: server)
        let box = try SnapcastBox(name: "sync", server: server, musicDirectory: music.folder)
        let buffer = Double(server.bufferMs) / 1000
        let began = monotonicSeconds()
        box.play([music.longName])
        usleep(useconds_t((buffer + 1.5) * 1e6))
        let paused = box.send(["pause", "1"])
        usleep(1_000_000)
        let resumed = box.send(["pause", "0"])
        usleep(useconds_t((buffer + 1.5) * 1e6))
        let sought = box.send(["seekcur", "7"])
        usleep(useconds_t((buffer + 1.5) * 1e6))
        let ended = monotonicSeconds()
        for (phase, from, to) in [("playing", began, paused), ("after the pause", resumed, sought), ("after the seek", sought, ended)] {
            // What the rooms heard of the phase: from a buffer after it began (and a little
            // more for the start, which snapclient may still be catching).
            expectInSync(try offsets(rooms[0], rooms[1], from: from + buffer + 0.3, to: to + buffer), "rooms a/b \(phase)")
        }
        #expect(!box.status().contains("error"), "\(box.status())")
    }

    /// A room whose link is down for 5 s is back in step within 2 s of it coming back;
    /// the other rooms play on without a gap (all of the track, frame for frame).
    @Test(.enabled(if: isRoot, "network namespaces need root"))
    func aRoomThatDropsOutResyncsAndTheOthersPlayOn() throws {
        let music = Music.shared
        let reference = try music.decode([music.long])
        let server = try SnapServer(name: "dropout")
        let rooms = try rooms(["a", "b", "c"], on: server)
        let box = try SnapcastBox(name: "dropout", server: server, musicDirectory: music.folder)
        let buffer = Double(server.bufferMs) / 1000
        box.play([music.longName])
        usleep(useconds_t((buffer + 1) * 1e6))
        try rooms[2].linkDown()
        usleep(5_000_000)
        try rooms[2].linkUp()
        let up = monotonicSeconds()
        for room in rooms[0..<2] {
            try expectWhole(reference, in: room, within: reference.seconds + buffer + 10, box.daemon.log)
        }
        let (c, cClock) = try rooms[2].recorded()
        if let back = cClock.frame(at: up) {
            let again = c.silentRuns(in: back..<c.count, minimum: 480).first.map { $0.upperBound } ?? back
            print("Snapcast room c: music again \(String(format: "%.2f", StereoPCM.seconds(again - back))) s after its link came back")
        }
        expectInSync(try offsets(rooms[2], rooms[0], from: up + 2, to: monotonicSeconds()), "room c against a, from 2 s after its link came back")
    }

    /// snapserver killed while the box plays: the box says its device is lost, and when
    /// snapserver is back the rooms play the music again.
    @Test(.enabled(if: isRoot, "network namespaces need root"))
    func snapserverKilledAndRestartedPlaysOnInTheRooms() throws {
        let music = Music.shared
        let reference = try music.decode([music.long])
        let server = try SnapServer(name: "restart")
        let rooms = try rooms(["a", "b"], on: server)
        let box = try SnapcastBox(name: "restart", server: server, musicDirectory: music.folder)
        box.play([music.longName])
        usleep(2_000_000)
        server.kill()
        var seen = ""
        #expect(box.daemon.wait(seconds: 10) {
            seen = box.status()
            return seen.contains("lost") && seen.contains("snapcast:")
        }, "the box did not report its device lost: \(seen)\n\(box.daemon.log)")
        try server.start()
        let restarted = monotonicSeconds()
        #expect(waitForRooms(rooms, on: server, seconds: 15), "\(server.log)")
        usleep(useconds_t((Double(server.bufferMs) / 1000 + 2) * 1e6))
        print("Snapcast restart: the box's status after: \(box.status().split(separator: "\n").filter { $0.hasPrefix("state") || $0.hasPrefix("error") })")
        for room in rooms {
            let (pcm, clock) = try room.recorded()
            guard let from = clock.frame(at: restarted) else {
                Issue.record("room \(room.name) has no stamps after the restart\n\(room.log)")
                continue
            }
            // Music again after the restart: frames of the track.
            let heard = stride(from: from, to: pcm.count, by: 4_800).compactMap { pcm.sameContent(at: $0, in: reference) }
            #expect(!heard.isEmpty, "room \(room.name) plays no music after snapserver came back\n\(box.status())\n\(box.daemon.log)")
        }
    }
}
