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
///
/// Rooms keep in step by the clock, so these run on a quiet machine: `scripts/test` runs
/// them on their own after the rest (`JUKEBOX_ROOM_TESTS=1 swift test --filter
/// SnapcastRoomsTests`). Among 800 tests running at once, a snapclient starved of CPU
/// resyncs and drops audio, which is the machine's fault, not the box's.
@Suite(.serialized) struct SnapcastRoomsTests {
    static let isRoot = geteuid() == 0 && ProcessInfo.processInfo.environment["JUKEBOX_ROOM_TESTS"] == "1"

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

    /// "room b: …" describing a recording against a reference that starts in it at `start`:
    /// where they part, and how (a silence, or the track again some frames on: frames
    /// dropped or repeated), with snapclient's resync notes.
    private func describe(_ room: SnapRoom, _ pcm: StereoPCM, against reference: StereoPCM) -> String {
        guard let start = pcm.start(of: reference) else {
            return "room \(room.name): the music's first frames are not in its \(pcm.count) frames\n\(room.log)"
        }
        guard let difference = pcm.firstDifference(from: reference, at: start) else { return "room \(room.name): bit-exact" }
        var how = ""
        if let silence = pcm.silentRuns(in: (start + difference)..<(start + difference + 48_000), minimum: 48).first {
            how = " (silence of \(silence.count) frames at \(silence.lowerBound - start))"
        } else if let again = pcm.sameContent(at: start + difference + 480, in: reference) {
            how = " (the track again 480 frames on, shifted by \(difference + 480 - again) frames: + repeated, - dropped)"
        }
        let notes = room.log.split(separator: "\n").filter { $0.contains("sync") || $0.contains("age") || $0.contains("Exception") || $0.contains("Buffer") }
        return "room \(room.name): music from frame \(start), differs at its frame \(difference) of \(reference.count)\(how)\n"
            + notes.suffix(10).joined(separator: "\n")
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

    /// Across a pause that `room` heard between two times: where in the track its sound
    /// stopped, where it came back, and whether all of the track from there on follows
    /// frame for frame. (The box fades the last frames before a pause and the first after
    /// it, so those are placed from their neighbours 0.1 s away.)
    private func resumption(in room: SnapRoom, of reference: StereoPCM, pausedAt paused: Double, resumedAt resumed: Double, buffer: Double,
                            until next: Double? = nil) throws -> (stopped: Int, resumed: Int, whole: Bool)? {
        let (pcm, clock) = try room.recorded()
        guard let from = clock.frame(at: paused), let to = clock.frame(at: resumed + buffer),
              let stop = pcm.silentRuns(in: from..<to, minimum: 480).first?.lowerBound,
              let start = pcm.silentRuns(in: stop..<pcm.count, minimum: 480).first?.upperBound,
              let before = pcm.sameContent(at: stop - 4_800, in: reference),
              let after = pcm.sameContent(at: start + 4_800, in: reference) else { return nil }
        // All after the first 0.1 s is the track, frame for frame, as far as recorded.
        // (Up to the next command's effect, if there is one.)
        let end = next.flatMap { clock.frame(at: $0 + buffer) } ?? pcm.count
        let heard = min(reference.count - after, min(pcm.count, end) - (start + 4_800))
        let rest = StereoPCM(frames: Array(reference.frames[after..<(after + heard)]))
        return (before + 4_800, after - 4_800, pcm.firstDifference(from: rest, at: start + 4_800) == nil)
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
    @Test(.enabled(if: isRoot, "network namespaces need root; JUKEBOX_ROOM_TESTS=1 runs them alone"))
    func harnessSelfTestRoomsRecordWhatTheFifoIsFedBitExact() throws {
        let music = Music.shared
        let reference = try music.decode(music.album)
        let server = try SnapServer(name: "harness")
        let rooms = try rooms(["a", "b", "c"], on: server)
        #expect(server.streamStatus() == "idle")
        let feeder = SnapcastFifoFeeder(fifo: server.fifo, pcm: Data(reference.frames.withUnsafeBytes { Data($0) }))
        defer { feeder.stop() }
        #expect(poll(seconds: 5) { server.streamStatus() == "playing" })
        // The control port's errors come back as errors: a pipe stream with no plugin cannot play.
        #expect { try server.control("play") } throws: { "\($0)".contains("canPlay is false") }
        for room in rooms {
            try expectWhole(reference, in: room, within: reference.seconds + Double(server.bufferMs) / 1000 + 10)
        }
    }

    /// The box plays a gapless album into Snapcast; three rooms each play all of it, frame
    /// for frame the box's decode, across the joins.
    @Test(.enabled(if: isRoot, "network namespaces need root; JUKEBOX_ROOM_TESTS=1 runs them alone"))
    func roomsPlayTheAlbumBitExactAcrossItsJoins() throws {
        try expectAlbumWhole("bitexact", on: try SnapServer(name: "bitexact"), rooms: ["a", "b", "c"])
    }

    /// The same through snapserver's tcp source (`snapcast:tcp://ADDRESS:PORT`), two rooms.
    @Test(.enabled(if: isRoot, "network namespaces need root; JUKEBOX_ROOM_TESTS=1 runs them alone"))
    func roomsPlayTheAlbumBitExactThroughTheTCPSource() throws {
        try expectAlbumWhole("tcp", on: try SnapServer(name: "tcp", tcpSource: true), rooms: ["a", "b"])
    }

    /// The box plays the album to `server`; each of `rooms` plays all of it, frame for frame.
    private func expectAlbumWhole(_ name: String, on server: SnapServer, rooms names: [String]) throws {
        let music = Music.shared
        let reference = try music.decode(music.album)
        let rooms = try rooms(names, on: server)
        let box = try SnapcastBox(name: name, server: server, musicDirectory: music.folder)
        box.play(music.albumNames)
        for room in rooms {
            try expectWhole(reference, in: room, within: reference.seconds + Double(server.bufferMs) / 1000 + 10, box.daemon.log)
        }
    }

    /// Two rooms play each frame within 1 ms of each other: playing, after a pause, and
    /// after a seek.
    @Test(.enabled(if: isRoot, "network namespaces need root; JUKEBOX_ROOM_TESTS=1 runs them alone"))
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
        // The pause lost no music: it went on from the frame it stopped at.
        let reference = try music.decode([music.long])
        let across = try resumption(in: rooms[0], of: reference, pausedAt: paused, resumedAt: resumed, buffer: buffer, until: sought)
        #expect(across.map { abs($0.resumed - $0.stopped) <= 480 && $0.whole } == true, "stopped at, resumed at: \(String(describing: across))")
    }

    /// A pause longer than snapserver's own dry-out (2 s of an empty pipe, after which it
    /// sends nothing and marks the stream idle): the rooms go on from the frame they
    /// stopped at. With snapserver 0.26's defaults, pauses between the dry-out and the
    /// dry-out plus the buffer (2.2, 2.5 and 2.8 s) lost 34 to 50 ms: snapclient plays ~40
    /// ms of the resumed stream, finds the next chunk 0.65 s old ("abs(age > 500)"),
    /// resyncs hard and drops the rest of it, with the test feeding the fifo too. The
    /// install's `dryout_ms` (an hour) keeps the rooms fed with silence instead.
    /// (SNAPCAST_LONG_PAUSE=SECONDS, SNAPCAST_SOURCE_OPTIONS="" for snapserver's defaults.)
    @Test(.enabled(if: isRoot, "network namespaces need root; JUKEBOX_ROOM_TESTS=1 runs them alone"))
    func aPauseLongerThanSnapserversDryOutLosesNoMusic() throws {
        let music = Music.shared
        let reference = try music.decode([music.long])
        let server = try SnapServer(name: "long-pause", sourceOptions: ProcessInfo.processInfo.environment["SNAPCAST_SOURCE_OPTIONS"])
        let rooms = try rooms(["a"], on: server)
        let box = try SnapcastBox(name: "long-pause", server: server, musicDirectory: music.folder)
        let buffer = Double(server.bufferMs) / 1000
        box.play([music.longName])
        usleep(useconds_t((buffer + 1) * 1e6))
        let paused = box.send(["pause", "1"])
        usleep(useconds_t((Double(ProcessInfo.processInfo.environment["SNAPCAST_LONG_PAUSE"] ?? "") ?? 2.5) * 1e6))
        let resumed = box.send(["pause", "0"])
        usleep(useconds_t((buffer + 1) * 1e6))
        let across = try resumption(in: rooms[0], of: reference, pausedAt: paused, resumedAt: resumed, buffer: buffer)
        print("Snapcast long pause: stopped at, resumed at (frames of the track), whole after: \(String(describing: across))")
        #expect(across.map { abs($0.resumed - $0.stopped) <= 480 && $0.whole } == true, "\(String(describing: across))")
    }

    /// A room whose link is down for 5 s is back in step within 2 s of it coming back;
    /// the other rooms play on without a gap.
    @Test(.enabled(if: isRoot, "network namespaces need root; JUKEBOX_ROOM_TESTS=1 runs them alone"))
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
        // All of the track, with no silence or jump: frame for frame but for snapclient's
        // soft sync. While room c was away, the others' soft sync repeated frames in about
        // half the runs: one, or one per 50 ms chunk for up to 49 (1 ms), printed.
        for room in rooms[0..<2] {
            var followed: (corrections: [(frame: Int, shift: Int)], brokenAt: Int?) = ([], 0)
            _ = poll(seconds: reference.seconds + buffer + 10, every: 500_000) {
                guard let pcm = try? room.recorded().pcm, let start = pcm.start(of: reference) else { return false }
                followed = pcm.follow(reference, from: start)
                return followed.brokenAt == nil
            }
            let pcm = try room.recorded().pcm
            #expect(followed.brokenAt == nil, "\(describe(room, pcm, against: reference))\n\(box.daemon.log)")
            if !followed.corrections.isEmpty { print("Snapcast room \(room.name): soft-sync corrections (track frame, frames): \(followed.corrections)") }
        }
        if let during = try offsets(rooms[0], rooms[1], from: up - 5 + buffer, to: up + 3) {
            print("Snapcast rooms a/b while room c was away and after: offsets \(during.min() ?? 0)…\(during.max() ?? 0) frames over \(during.count) points")
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
    @Test(.enabled(if: isRoot, "network namespaces need root; JUKEBOX_ROOM_TESTS=1 runs them alone"))
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
        #expect(waitForRooms(rooms, on: server, seconds: 15), "\(server.connectedRooms())\n\(rooms.map(\.log).joined(separator: "\n"))")
        usleep(useconds_t((Double(server.bufferMs) / 1000 + 2) * 1e6))
        #expect(box.daemon.log.contains("\(server.fifo) is back"), "\(box.daemon.log)")
        #expect(!box.status().contains("lost"), "\(box.status())")
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

    // MARK: Measured, not asserted (SNAPCAST_BENCH=1)

    static let benchmarking = ProcessInfo.processInfo.environment["SNAPCAST_BENCH"] != nil

    /// How long after the box is told to pause, resume or seek a room hears it, for a
    /// snapserver buffer (and `latency_ms`) of 300, 1000 and 2000 ms; and how far apart
    /// two rooms play. Printed for docs/benchmarks.md.
    @Test(.enabled(if: isRoot && benchmarking, "a benchmark: SNAPCAST_BENCH=1, as root"), arguments: ProcessInfo.processInfo.environment["SNAPCAST_BENCH_BUFFERS"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? [300, 1000, 2000])
    func benchCommandsHeardInARoom(bufferMs: Int) throws {
        let music = Music.shared
        let reference = try music.decode([music.long])
        let server = try SnapServer(name: "bench-\(bufferMs)", bufferMs: bufferMs)
        let rooms = try rooms(["a", "b"], on: server)
        let box = try SnapcastBox(name: "bench-\(bufferMs)", server: server, musicDirectory: music.folder)
        let buffer = Double(bufferMs) / 1000
        box.play([music.longName])
        usleep(useconds_t((buffer + 1) * 1e6))
        // The box's elapsed against what a room hears at that moment, three times.
        var shown: [(time: Double, elapsed: Double)] = []
        for _ in 0..<3 {
            let before = monotonicSeconds()
            let status = box.status()
            let time = (before + monotonicSeconds()) / 2
            if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("elapsed: ") }), let elapsed = Double(line.dropFirst(9)) {
                shown.append((time, elapsed))
            }
            usleep(100_000)
        }
        usleep(200_000)
        // 1.5 s: shorter than snapserver's dry-out (see aPauseLongerThanSnapserversDryOutLosesNoMusic).
        let paused = box.send(["pause", "1"])
        usleep(1_500_000)
        let resumed = box.send(["pause", "0"])
        usleep(useconds_t((buffer + 1.5) * 1e6))
        let sought = box.send(["seekcur", "8"])
        usleep(useconds_t((buffer + 1.5) * 1e6))
        let (pcm, clock) = try rooms[0].recorded()
        if let keep = ProcessInfo.processInfo.environment["SNAPCAST_BENCH_KEEP"] {
            try? FileManager.default.copyItem(atPath: rooms[0].recording, toPath: "\(keep)-\(bufferMs).raw")
            print("kept: paused \(clock.frame(at: paused) ?? -1) resumed \(clock.frame(at: resumed) ?? -1) sought \(clock.frame(at: sought) ?? -1)")
        }
        func ms(_ seconds: Double?) -> String { seconds.map { String(format: "%.0f ms", $0 * 1000) } ?? "?" }
        // The last sound before the resume, the first after it, the first frame of 8 s in.
        let pausedFrame = clock.frame(at: paused) ?? 0
        let resumedFrame = clock.frame(at: resumed + buffer / 2) ?? 0
        let lastSound = pcm.silentRuns(in: pausedFrame..<resumedFrame, minimum: 480).first?.lowerBound
        let firstSound = pcm.frames[resumedFrame...].firstIndex { $0 != 0 }
        // The first sound after the seek, if it is the music from 8 s on (frames a little
        // later are looked for, as the first may be faded in).
        let soughtFrame = clock.frame(at: sought) ?? 0
        let afterSeek = pcm.silentRuns(in: soughtFrame..<pcm.count, minimum: 480).first?.upperBound
        /// Where in the track the room's frame `frame` is (seconds), from the frames `ahead` on.
        func place(_ frame: Int?, ahead: Int = 4_800) -> String {
            guard let frame, let at = pcm.sameContent(at: frame + ahead, in: reference) else { return "?" }
            return String(format: "%.3f s", StereoPCM.seconds(at - ahead))
        }
        print("Snapcast bench, buffer \(bufferMs) ms: paused after the track's \(place(lastSound, ahead: -4_800)),"
              + " resumed at \(place(firstSound)), sought to \(place(afterSeek))")
        func heard(_ frame: Int?, since sent: Double) -> Double? { frame.flatMap { clock.time(ofFrame: $0) }.map { $0 - sent } }
        var silence: Double?
        if let lastSound, let firstSound { silence = StereoPCM.seconds(firstSound - lastSound) }
        let pause = ms(heard(lastSound, since: paused)), resume = ms(heard(firstSound, since: resumed))
        let seek = ms(heard(afterSeek, since: sought))
        print("Snapcast bench, buffer \(bufferMs) ms: pause heard after \(pause), resume after \(resume), seek after \(seek);"
              + " silence in the room \(ms(silence)) for a pause of \(ms(resumed - paused))")
        // The recording's timeline against the wall clock: its frames against its stamps.
        if let first = clock.seen.keys.min(), let last = clock.seen.keys.filter({ clock.time(ofFrame: $0 * FilePlayerClock.chunkFrames) != nil }).max(),
           let from = clock.time(ofFrame: first * FilePlayerClock.chunkFrames), let to = clock.time(ofFrame: last * FilePlayerClock.chunkFrames) {
            let frames = (last - first) * FilePlayerClock.chunkFrames
            print("Snapcast bench, buffer \(bufferMs) ms: room a's file holds \(String(format: "%.3f", StereoPCM.seconds(frames))) s"
                  + " of audio for \(String(format: "%.3f", to - from)) s of wall clock")
        }
        let behind = shown.compactMap { sample -> String? in
            guard let frame = clock.frame(at: sample.time), let heard = pcm.sameContent(at: frame, in: reference) else { return nil }
            return String(format: "%+.0f ms", (sample.elapsed - StereoPCM.seconds(heard)) * 1000)
        }
        print("Snapcast bench, buffer \(bufferMs) ms: the box's elapsed minus the track's place heard in room a: \(behind.joined(separator: ", "))")
        if let offsets = try offsets(rooms[0], rooms[1], from: resumed + buffer + 0.3, to: sought + buffer) {
            let sorted = offsets.sorted()
            print("Snapcast bench, buffer \(bufferMs) ms: rooms a/b offsets \(sorted.first ?? 0)…\(sorted.last ?? 0) frames,"
                  + " median \(sorted.isEmpty ? 0 : sorted[sorted.count / 2]) over \(sorted.count) points")
        }
    }
}
