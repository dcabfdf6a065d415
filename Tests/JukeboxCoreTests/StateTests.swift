import Foundation
import Logging
import Testing
@testable import JukeboxCore

@Suite struct StateFileTests {
    let fx = Fixtures.shared

    func memory(path: String? = "/music/b.flac", frame: Int64 = 44_100 * 75) -> PlaybackMemory {
        PlaybackMemory(state: .playing, path: path, frame: frame, volume: 42, mode: .shuffle,
                       queue: QueueMemory(current: 1, history: [0, 2], shuffleOrder: [2, 0, 1], shufflePosition: 1),
                       queueFingerprint: QueueFingerprint(paths: ["/music/a.flac", "/music/b.flac", "/music/c.flac"]),
                       places: [FolderPlaces.Place(folder: "/music/Books", path: "/music/Books/2.mp3", frame: 123)])
    }

    func freshFile(_ name: String) throws -> StateFile {
        let folder = try fx.scratchFolder("state-\(name)")
        return StateFile(path: "\(folder)/state")
    }

    @Test func aWrittenStateLoadsBackTheSame() throws {
        let file = try freshFile("roundtrip")
        let state = SavedState(source: .library, identity: FileIdentity(size: 10, modified: 1_700_000_000_123_456_789), memory: memory())
        try file.write(state)
        let loaded = file.load()
        #expect(loaded.state == state)
        #expect(loaded.problems.isEmpty)
        #expect(!loaded.fromPrevious)
        // Readable by a person, with the checksum last.
        let text = try String(contentsOfFile: file.path, encoding: .utf8)
        #expect(text.contains("/music/b.flac"))
        #expect(text.split(separator: "\n").last!.hasPrefix("# checksum "))
    }

    @Test func theQueueSourceIsWrittenAsTheTextItAlwaysWas() throws {
        #expect(QueueSource(configured: "") == .library)
        #expect(QueueSource(configured: "Road trip") == .playlist("Road trip"))
        #expect(QueueSource(configured: "http://radio.example/live.m3u") == .playlist("http://radio.example/live.m3u"))
        #expect(QueueSource(text: "library") == .library)
        #expect(QueueSource(text: "Road trip") == .playlist("Road trip"))
        #expect(QueueSource.library.text == "library")
        #expect(QueueSource.playlist("Road trip").text == "Road trip")
        #expect("\(QueueSource.playlist("Road trip"))" == "Road trip")
        for (source, line) in [(QueueSource.library, #"source = "library""#), (.playlist("Road trip"), #"source = "Road trip""#)] {
            let text = String(decoding: try StateFile.encode(SavedState(source: source, identity: nil, memory: memory())), as: UTF8.self)
            #expect(text.split(separator: "\n").contains { $0 == line }, "\(text)")
        }
    }

    @Test func aStateFileWrittenBeforeTheSourceWasATypeStillLoads() throws {
        // As a jukebox wrote it before `QueueSource` (the same text it writes now).
        for (written, source) in [("library", QueueSource.library), ("Road trip", .playlist("Road trip"))] {
            let body = Array("""
            # Jukebox state: where playback was. Written by the jukebox; edits are ignored.
            format = "jukebox-state"
            version = 1
            source = "\(written)"

            [memory]
            state = "playing"
            path = "/music/b.flac"
            frame = 3307500
            volume = 42
            mode = "shuffle"
            queueFingerprint = "afdcc560f9af9ed4"
            places = []

            [memory.queue]
            history = []
            shuffleOrder = []
            shufflePosition = 0

            """.utf8)
            let bytes = body + Array("# checksum \(String(FNV1a.hash(body), radix: 16))\n".utf8)
            let state = try StateFile.decode(bytes, path: "old-state")
            #expect(state.source == source)
            #expect(state.memory.path == "/music/b.flac")
        }
    }

    /// Consume was a boolean until MPD 0.24's one-shot: a file from then still loads, and
    /// each setting is written back as it loads.
    @Test func consumeWrittenAsABooleanStillLoads() throws {
        for (written, consume) in [("true", PlayOptions.Consume.on), ("false", .off), ("\"oneshot\"", .oneshot)] {
            let body = Array("""
            format = "jukebox-state"
            version = 1
            source = "library"

            [memory]
            state = "stopped"
            frame = 0
            volume = 42
            mode = "once"
            queueFingerprint = "afdcc560f9af9ed4"
            places = []

            [memory.options]
            repeat = false
            random = false
            single = "off"
            consume = \(written)

            [memory.queue]
            history = []
            shuffleOrder = []
            shufflePosition = 0

            """.utf8)
            let bytes = body + Array("# checksum \(String(FNV1a.hash(body), radix: 16))\n".utf8)
            let state = try StateFile.decode(bytes, path: "consume-\(written)")
            #expect(state.memory.options?.consume == consume)
            var memory = memory()
            memory.options = PlayOptions(consume: consume)
            let again = try StateFile.decode(try StateFile.encode(SavedState(source: .library, identity: nil, memory: memory)), path: "again")
            #expect(again.memory.options?.consume == consume)
        }
    }

    @Test func noFileIsAFreshStartWithoutComplaint() throws {
        let loaded = try freshFile("none").load()
        #expect(loaded.state == nil)
        #expect(loaded.problems.isEmpty)
    }

    @Test func aBrokenNewestFallsBackToThePreviousCopy() throws {
        let file = try freshFile("fallback")
        let older = SavedState(source: .library, identity: nil, memory: memory(frame: 1000))
        let newer = SavedState(source: .library, identity: nil, memory: memory(frame: 2000))
        try file.write(older)
        try file.write(newer)
        #expect(file.load().state == newer)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file.path))
        for damage in [bytes.prefix(bytes.count / 2), bytes.prefix(bytes.count - 3), Data(), Data("format = \"something-else\"\n".utf8)] {
            try damage.write(to: URL(fileURLWithPath: file.path))
            let loaded = file.load()
            #expect(loaded.state == older)
            #expect(loaded.fromPrevious)
            #expect(loaded.problems.count == 1)
            #expect(loaded.problems.first?.description.hasPrefix(file.path + ": ") == true)
        }
    }

    @Test func everyKindOfBrokenFileIsNamedAndRefused() throws {
        let file = try freshFile("broken")
        let good = try StateFile.encode(SavedState(source: .library, identity: nil, memory: memory()))
        var flipped = good
        flipped[40] ^= 0x01
        let foreign = Array("[something]\nelse = 1\n".utf8)
        var foreignSigned = foreign
        foreignSigned += "# checksum \(String(FNV1a.hash(foreign), radix: 16))\n".utf8
        let future = Array("format = \"jukebox-state\"\nversion = 99\n".utf8)
        var futureSigned = future
        futureSigned += "# checksum \(String(FNV1a.hash(future), radix: 16))\n".utf8
        let cases: [([UInt8], String)] = [
            (Array(good.prefix(good.count / 3)), "no checksum line"),
            (flipped, "checksum does not match"),
            (foreignSigned, "not a jukebox state file"),
            (futureSigned, "newer jukebox"),
            ([0xff, 0xfe, 0x00, 0x0a], "no checksum line"),
        ]
        for (bytes, reason) in cases {
            try Data(bytes).write(to: URL(fileURLWithPath: file.path))
            let loaded = file.load()
            #expect(loaded.state == nil)
            #expect(loaded.problems.first?.description.contains(reason) == true, "\(loaded.problems)")
        }
        // A folder or a FIFO where the file should be: refused, never waited on.
        try FileManager.default.removeItem(atPath: file.path)
        mkfifo(file.path, 0o644)
        #expect(file.load().problems.first?.description.contains("not a regular file") == true)
    }

    @Test func writingIntoAMissingFolderFailsWithTheReason() throws {
        let file = StateFile(path: try fx.scratchFolder("state-nofolder") + "/missing/state")
        #expect(throws: StateFile.Problem.self) { try file.write(SavedState(source: .library, identity: nil, memory: memory())) }
        try file.makeFolder()
        try file.write(SavedState(source: .library, identity: nil, memory: memory()))
        #expect(file.load().state != nil)
    }

    @Test func fileIdentityNoticesAChange() throws {
        let path = fx.path("identity.bin")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        let before = FileIdentity(path: path)
        #expect(before?.size == 3)
        #expect(FileIdentity(path: path) == before)
        try Data([1, 2, 3, 4]).write(to: URL(fileURLWithPath: path))
        #expect(FileIdentity(path: path) != before)
        #expect(FileIdentity(path: fx.path("no-such-file")) == nil)
        #expect(FileIdentity(path: NSTemporaryDirectory()) == nil)
    }
}

@Suite struct FolderPlacesTests {
    var places = FolderPlaces(folders: ["/music/Books/", "/music/Books/Long"])

    @Test func theInnermostFolderHoldsAPath() {
        #expect(places.folder(of: "/music/Books/a.mp3") == "/music/Books")
        #expect(places.folder(of: "/music/Books/Long/1.mp3") == "/music/Books/Long")
        #expect(places.folder(of: "/music/BooksExtra/1.mp3") == nil)
        #expect(places.folder(of: "/music/Songs/1.mp3") == nil)
    }

    @Test mutating func comingBackContinuesWhereItWasLeft() {
        #expect(places.place(enteringAt: "/music/Books/1.mp3", from: "/music/Songs/x.mp3") == nil)
        places.left("/music/Books/3.mp3", at: 9000)
        let place = places.place(enteringAt: "/music/Books/1.mp3", from: "/music/Songs/x.mp3")
        #expect(place?.path == "/music/Books/3.mp3")
        #expect(place?.frame == 9000)
        // Moving within the folder is not coming back.
        #expect(places.place(enteringAt: "/music/Books/4.mp3", from: "/music/Books/3.mp3") == nil)
        // At start (nothing playing) it counts as coming in.
        #expect(places.place(enteringAt: "/music/Books/1.mp3", from: nil)?.frame == 9000)
    }

    @Test mutating func finishingTheLastTrackForgetsThePlace() {
        places.left("/music/Books/9.mp3", at: 100)
        places.finished("/music/Books/9.mp3", nextPath: "/music/Books/10.mp3")
        #expect(places.places["/music/Books"] != nil)  // the next chapter follows
        places.finished("/music/Books/10.mp3", nextPath: "/music/Songs/a.mp3")
        #expect(places.places["/music/Books"] == nil)
        places.left("/music/Books/10.mp3", at: 100)
        places.finished("/music/Books/10.mp3", nextPath: nil)
        #expect(places.places["/music/Books"] == nil)
    }

    /// A file of chapters in a remembered folder is a book of its own.
    @Test mutating func eachFileOfChaptersKeepsItsOwnPlace() {
        #expect(places.folder(of: "/music/Books/a.m4b/chapter002") == "/music/Books/a.m4b")
        places.left("/music/Books/a.m4b/chapter002", at: 500)
        places.left("/music/Books/b.m4b/chapter007", at: 700)
        #expect(places.place(enteringAt: "/music/Books/a.m4b/chapter001", from: "/music/Songs/x.mp3")?.path == "/music/Books/a.m4b/chapter002")
        #expect(places.place(enteringAt: "/music/Books/b.m4b/chapter001", from: "/music/Books/a.m4b/chapter002")?.frame == 700)
        // Chapter to chapter within one book is reading on.
        #expect(places.place(enteringAt: "/music/Books/a.m4b/chapter003", from: "/music/Books/a.m4b/chapter002") == nil)
        var restored = FolderPlaces(folders: ["/music/Books"])
        restored.restore(places.saved)
        #expect(restored.saved.map(\.folder) == ["/music/Books/a.m4b", "/music/Books/b.m4b"])
        // Chapters outside a remembered folder keep no place.
        #expect(places.folder(of: "/music/Songs/live.flac/chapter001") == nil)
    }

    @Test mutating func placesOfFoldersNoLongerConfiguredAreDropped() {
        places.restore([
            .init(folder: "/music/Books", path: "/music/Books/2.mp3", frame: 5),
            .init(folder: "/music/Gone", path: "/music/Gone/1.mp3", frame: 5),
            .init(folder: "/music/Books", path: "/elsewhere/1.mp3", frame: 5),
        ])
        #expect(places.saved.map(\.path) == ["/music/Books/2.mp3"])
    }
}

@Suite struct ResumeTests {
    @Test func resumePolicyDecidesWhetherToPlay() {
        #expect(ResumePolicy.playing.plays(saved: .playing, autoplay: true))
        #expect(ResumePolicy.playing.plays(saved: .stopped, autoplay: true))
        #expect(!ResumePolicy.playing.plays(saved: .paused, autoplay: true))
        #expect(ResumePolicy.always.plays(saved: .paused, autoplay: true))
        #expect(!ResumePolicy.never.plays(saved: .playing, autoplay: true))
        #expect(!ResumePolicy.always.plays(saved: .playing, autoplay: false))
    }

    @Test func aQueueMemoryComesBackOnlyWhereItFits() {
        var queue = PlayQueue(count: 4, mode: .shuffle, generator: SplitMix(seed: 1))
        _ = queue.next()
        _ = queue.next()
        _ = queue.next()
        let saved = queue.memory
        var again = PlayQueue(count: 4, mode: .shuffle, generator: SplitMix(seed: 99))
        again.restore(saved)
        #expect(again.memory == saved)
        #expect(again.previous() == saved.history.last)
        // Against a shorter queue: nothing out of range survives, and shuffle is redrawn.
        var shorter = PlayQueue(count: 2, mode: .shuffle, generator: SplitMix(seed: 3))
        shorter.restore(QueueMemory(current: 3, history: [0, 3, 1], shuffleOrder: [3, 2, 1, 0], shufflePosition: 2))
        #expect(shorter.current == nil)
        #expect(shorter.history == [0, 1])
        #expect(Set(shorter.memory.shuffleOrder) == [0, 1])
    }

    @Test func fingerprintsTellTrackListsApart() {
        #expect(QueueFingerprint(paths: ["a", "b"]) == QueueFingerprint(paths: ["a", "b"]))
        #expect(QueueFingerprint(paths: ["a", "b"]) != QueueFingerprint(paths: ["b", "a"]))
        #expect(QueueFingerprint(paths: ["ab"]) != QueueFingerprint(paths: ["a", "b"]))
    }

    @Test func theSaverWritesForChangesThatMatter() {
        var plan = StateSaver.Plan()
        let second: UInt64 = 1_000_000_000
        #expect(plan.heard([], at: second) == nil)  // playing on
        #expect(plan.heard([.output, .error], at: second) == nil)
        for change: PlayerChanges in [.state, .track, .seeked, .mixer, .options, .playlist] {
            plan.due = nil
            #expect(plan.heard(change, at: second) != nil, "\(change)")
        }
    }

    /// A burst of changes books one write, not one per change: the saver's thread is
    /// woken only when a write is booked sooner than the one already due.
    @Test func aBurstOfChangesBooksOneWrite() {
        var plan = StateSaver.Plan()
        let second: UInt64 = 1_000_000_000
        #expect(plan.heard(.state, at: 10 * second)?.at == 10 * second)  // the first change: at once
        plan.due = nil
        plan.lastWriteAt = 10 * second
        #expect(plan.heard([], at: 10 * second + 1) == nil)  // nothing changed
        var bookings = 0
        for i in 1...50 {  // a client toggling repeat every 20 ms
            if let booking = plan.heard(.options, at: 10 * second + UInt64(i) * 20_000_000) {
                bookings += 1
                #expect(booking.at == 11 * second)  // at most once a second
            }
        }
        #expect(bookings == 1)
        #expect(plan.book(at: 12 * second) == nil)  // later than the one due: it writes this too
        #expect(plan.book(at: 10 * second + 5)?.generation == plan.due?.generation)  // sooner replaces it
        plan.stopped = true
        #expect(plan.heard(.mixer, at: 20 * second) == nil)
    }
}
