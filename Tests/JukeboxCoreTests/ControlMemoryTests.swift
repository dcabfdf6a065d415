import Foundation
import Testing
@testable import JukeboxCore

/// What clients can make the real daemon hold: a crowd fetching big covers, and the peak
/// RSS of the daemon (VmHWM) measured around it. Bounds are generous; before the fixes
/// they were exceeded ten times over.
@Suite(.serialized) struct ControlMemoryTests {
    typealias Connection = ControlHardeningTests.Connection
    let fx = Fixtures.shared

    /// A daemon over `music` that does not play or draw, so memory is the clients' doing.
    func daemon(_ name: String, music: String, control: String = "") throws -> RunningDaemon {
        let config = fx.path("\(name).toml")
        try "[playback]\nautoplay = false\n[display]\ndevice = \"none\"\n[control]\nkeyboard = false\n\(control)"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: name, config: config, musicDirectory: music)
        try #require(daemon.wait(seconds: 60) { daemon.log.contains("tracks queued") && daemon.statusReply() != nil },
                     "never ready: \(daemon.log)")
        return daemon
    }

    /// Bytes of noise: pictures the daemon only passes on, never decodes.
    func noise(_ count: Int) -> [UInt8] {
        var generator = SplitMix(seed: 33)
        return (0..<count / 8).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } }
    }

    /// Thirty clients each take the first chunk of a picture, then wait in idle: as the
    /// issue's attack did (30 × a 16 MiB cover took the daemon to 509 MB).
    func crowdFetches(_ command: String, _ uri: String, from daemon: RunningDaemon) throws -> [Connection] {
        try (0..<30).map { _ in
            let c = try Connection(unix: daemon.socket)
            _ = c.read(until: "\n")
            c.send("\(command) \"\(uri)\" 0\n")
            let reply = c.read(until: "\nOK\n")
            #expect(reply.hasPrefix("size: "), "\(reply.prefix(80))")
            c.send("idle\n")
            return c
        }
    }

    @Test func clientsFetchingABigCoverHoldNoCopyOfIt() throws {
        let music = try fx.scratchFolder("bigcover-music")
        try FileManager.default.createDirectory(atPath: music + "/Album", withIntermediateDirectories: true)
        _ = try? FileManager.default.copyItem(atPath: fx.path("music24.flac"), toPath: music + "/Album/a.flac")
        try Data(noise(16 << 20)).write(to: URL(fileURLWithPath: music + "/Album/cover.jpg"))
        let daemon = try daemon("bigcover", music: music)
        let before = daemon.memory()
        let clients = try crowdFetches("albumart", "Album/a.flac", from: daemon)
        let after = daemon.memory()
        print("albumart, 30 clients, 16 MiB cover: RSS \(before.now >> 10) KiB before, peak \(after.peak >> 10) KiB")
        #expect(after.peak - before.now < 16 << 20, "peak RSS grew from \(before.now >> 20) to \(after.peak >> 20) MiB")
        // The chunks are still whole, from any offset.
        let c = try Connection(unix: daemon.socket)
        _ = c.read(until: "\n")
        c.send("binarylimit 65536\nalbumart Album/a.flac 16777200\n")
        #expect(c.read(until: "\nOK\n").hasPrefix("OK\nsize: 16777216\nbinary: 16\n"))
        withExtendedLifetime(clients) {}
    }

    @Test func clientsFetchingABigEmbeddedPictureShareOneCopy() throws {
        let music = try fx.scratchFolder("bigpicture-music")
        let picture = fx.path("bigpicture.jpg")
        try Data([0xFF, 0xD8] + noise(12 << 20)).write(to: URL(fileURLWithPath: picture))
        let track = music + "/a.flac"
        if !FileManager.default.fileExists(atPath: track) {
            try Tools.run("flac", ["-s", "-f", "--picture", "3|image/jpeg|||\(picture)", "-o", track, fx.path("music24.wav")])
        }
        let daemon = try daemon("bigpicture", music: music)
        let before = daemon.memory()
        let clients = try crowdFetches("readpicture", "a.flac", from: daemon)
        let after = daemon.memory()
        print("readpicture, 30 clients, 12 MiB picture: RSS \(before.now >> 10) KiB before, peak \(after.peak >> 10) KiB")
        // One shared copy, and what reading the tags takes while it runs: not thirty copies.
        #expect(after.peak - before.now < 48 << 20, "peak RSS grew from \(before.now >> 20) to \(after.peak >> 20) MiB")
        withExtendedLifetime(clients) {}
    }

    /// The lock-out: 300 TCP clients without the password send `idle`. The Unix
    /// socket still answers, a client with the password still gets in, and the crowd
    /// costs a bounded amount of memory.
    @Test func aCrowdWithoutThePasswordLocksNobodyOut() throws {
        let music = try fx.scratchFolder("crowd-music")
        _ = try? FileManager.default.copyItem(atPath: fx.path("music24.flac"), toPath: music + "/a.flac")
        let port = try LoopbackListener.freePort()
        let daemon = try daemon("crowd", music: music, control: "tcp_port = \(port)\npassword = \"open sesame\"\n")
        let before = daemon.memory()
        var crowd: [Connection] = []
        for _ in 0..<300 {
            guard let c = try? Connection(tcpPort: port, timeout: 5) else { continue }
            c.send("idle\n")
            crowd.append(c)
        }
        // Every one was greeted: the oldest made room for the newest.
        #expect(crowd.filter { $0.read(until: "\n") == MPDProtocol.greeting }.count == 300)
        let after = daemon.memory()
        print("300 TCP clients without the password in idle: RSS \(before.now >> 10) KiB before, \(after.now >> 10) KiB with them, peak \(after.peak >> 10) KiB")
        #expect(after.peak - before.now < 16 << 20, "peak RSS grew from \(before.now >> 20) to \(after.peak >> 20) MiB")
        #expect(daemon.statusReply() != nil, "the Unix socket was locked out: \(daemon.log)")
        let local = try Connection(unix: daemon.socket)
        #expect(local.read(until: "\n") == MPDProtocol.greeting)
        local.send("status\n")
        #expect(local.read(until: "OK\n").contains("state: stop\n"))
        let owner = try Connection(tcpPort: port)
        #expect(owner.read(until: "\n") == MPDProtocol.greeting)
        owner.send("password \"open sesame\"\nsetvol 35\n")
        #expect(owner.read(until: "OK\nOK\n") == "OK\nOK\n")
        // The oldest guests were closed to make room: they read the end of the stream.
        #expect(crowd[0].readToEnd() == "")
        #expect(daemon.log.contains("closing the oldest without the password"), "\(daemon.log)")
    }

    /// The slots fuzzed: for `JUKEBOX_CONTROL_FUZZ_SECONDS` (5 by default; scripts/fuzz
    /// gives it its own time), waves of TCP guests send mutated commands (pictures,
    /// listings, idle, wrong passwords, lists, junk, lines too long) and most never read
    /// their replies. The daemon's peak RSS stays bounded, and the Unix socket answers
    /// after every wave.
    @Test func aCrowdSendingMutatedCommandsStaysBounded() throws {
        let seconds = Double(ProcessInfo.processInfo.environment["JUKEBOX_CONTROL_FUZZ_SECONDS"] ?? "") ?? 5
        let music = try fx.scratchFolder("fuzzcrowd-music")
        try FileManager.default.createDirectory(atPath: music + "/Album", withIntermediateDirectories: true)
        _ = try? FileManager.default.copyItem(atPath: fx.path("music16.flac"), toPath: music + "/Album/a.flac")
        try Data(noise(4 << 20)).write(to: URL(fileURLWithPath: music + "/Album/cover.jpg"))
        let port = try LoopbackListener.freePort()
        let daemon = try daemon("fuzzcrowd", music: music, control: "tcp_port = \(port)\npassword = \"open sesame\"\n")
        let before = daemon.memory()
        let commands = ["albumart Album/a.flac 0", "readpicture Album/a.flac 0", "playlistinfo", "listallinfo", "idle", "password guess",
                        "command_list_begin", "status", "binarylimit 1048576", "find \"(file contains 'a')\"", "plchanges 0", "noidle"]
        var generator = SplitMix(seed: UInt64(getpid()))
        func mutated() -> String {
            var bytes = Array(commands[Int(generator.next() % UInt64(commands.count))].utf8)
            for _ in 0..<Int(generator.next() % 4) {
                let at = Int(generator.next() % UInt64(bytes.count + 1))
                switch generator.next() % 4 {
                case 0: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: at)
                case 1 where at < bytes.count: bytes.remove(at: at)
                case 2: bytes.insert(contentsOf: [UInt8](repeating: 0x41, count: Int(generator.next() % 6000)), at: at)
                default: bytes.insert(0x0a, at: at)
                }
            }
            return String(decoding: bytes, as: UTF8.self) + "\n"
        }
        let deadline = Date().addingTimeInterval(seconds)
        var waves = 0
        while Date() < deadline {
            let crowd = (0..<150).compactMap { _ in try? Connection(tcpPort: port, timeout: 2) }
            for c in crowd { c.send((0..<Int(1 + generator.next() % 4)).map { _ in mutated() }.joined()) }
            for c in crowd.prefix(10) { _ = c.read(until: "\n") }  // a few read a little; the rest never do
            #expect(daemon.statusReply() != nil, "wave \(waves): the Unix socket did not answer: \(daemon.log.suffix(1000))")
            waves += 1
        }
        let after = daemon.memory()
        print("\(waves) waves of 150 TCP guests sending mutated commands: RSS \(before.now >> 10) KiB before, peak \(after.peak >> 10) KiB")
        #expect(daemon.isRunning)
        #expect(after.peak - before.now < 32 << 20, "peak RSS grew from \(before.now >> 20) to \(after.peak >> 20) MiB")
    }
}
