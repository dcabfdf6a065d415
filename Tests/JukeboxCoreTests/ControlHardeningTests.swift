import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// The control socket under attack: half-closed clients, huge command lists, crowds of
/// silent clients, hostile file names, and a client talking to a daemon that never answers.
@Suite(.serialized) struct ControlHardeningTests {
    typealias Box = ControlSocketTests.Box

    func serve(_ name: String, tracks: [String] = (0..<4).map { "/music/song \($0).flac" },
               tcpPort: Int = 0, limits: ControlServer.Limits = .init()) throws -> Box {
        let engine = FakeEngine()
        let player = Player(engine: engine)
        player.setTracks(tracks)
        _ = player.status  // set before anyone listens, so no client hears of it
        let server = ControlServer(player: player, logger: Logger(label: "test"), limits: limits)
        let path = NSTemporaryDirectory() + "jukebox-hard-\(getpid())-\(name).sock"
        try server.start(socketPath: path, tcpPort: tcpPort)
        return Box(player: player, engine: engine, server: server, path: path)
    }

    /// A blocking connection with a generous receive timeout, so a broken server fails
    /// the test instead of hanging it.
    final class Connection: @unchecked Sendable {
        let fd: Int32
        init(unix path: String, timeout seconds: Int = 20) throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let ok = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard ok == 0 else { close(fd); throw Tools.ToolFailure(description: "connect to \(path) failed") }
            setTimeout(seconds)
        }
        init(tcpPort: Int, timeout seconds: Int = 20) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(tcpPort).bigEndian)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let ok = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard ok == 0 else { close(fd); throw Tools.ToolFailure(description: "connect to port \(tcpPort) failed") }
            setTimeout(seconds)
        }
        private func setTimeout(_ seconds: Int) {
            var timeout = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        deinit { close(fd) }

        @discardableResult
        func send(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return false }
                sent += n
            }
            return true
        }
        func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

        /// Everything until the server closes (or the timeout passes).
        func readToEnd() -> String {
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = Self.receive(fd, &buffer)
                if n <= 0 { break }
                out += buffer[0..<n]
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// Reads until `count` replies have ended with an `OK` line (or the timeout passes).
        func read(replies count: Int) -> String {
            var text = ""
            while text.split(separator: "\n").filter({ $0 == "OK" }).count < count {
                let more = read(until: "\n")
                if more.isEmpty { break }
                text += more
            }
            return text
        }

        /// Reads until the text read so far ends with `suffix` (or the timeout passes).
        func read(until suffix: String) -> String {
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !String(decoding: out, as: UTF8.self).hasSuffix(suffix) {
                let n = Self.receive(fd, &buffer)
                if n <= 0 { break }
                out += buffer[0..<n]
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// `recv`, again when a signal cut it short: a socket with a receive timeout is
        /// never restarted (signal(7)), and the test process gets SIGCHLD each time one of
        /// the many tools and daemons the tests run exits.
        static func receive(_ fd: Int32, _ buffer: inout [UInt8]) -> Int {
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n < 0, errno == EINTR { continue }
                return n
            }
        }
    }

    // MARK: Half-closed clients

    func halfClosedRuns(_ count: Int, connect: () throws -> Connection) throws -> Int {
        var lost = 0
        for _ in 0..<count {
            let c = try connect()
            c.send("status\n")
            c.finishSending()
            let reply = c.readToEnd()
            if !(reply.hasPrefix(MPDProtocol.greeting) && reply.contains("state: stop\n") && reply.hasSuffix("OK\n")) { lost += 1 }
        }
        return lost
    }

    @Test func halfClosedClientsGetEveryReply() throws {
        let port = try LoopbackListener.freePort()
        let box = try serve("half", tcpPort: port)
        defer { box.server.stop() }
        #expect(try halfClosedRuns(1000) { try Connection(unix: box.path) } == 0)
        #expect(try halfClosedRuns(200) { try Connection(tcpPort: port) } == 0)
        // Several commands, then the half-close: every one is answered, in order.
        let c = try Connection(unix: box.path)
        c.send("setvol 30\nping\ncommand_list_ok_begin\nping\nping\ncommand_list_end\nstatus\n")
        c.finishSending()
        let reply = c.readToEnd()
        #expect(reply.hasPrefix(MPDProtocol.greeting + "OK\nOK\nlist_OK\nlist_OK\nOK\nvolume: 30\n"), "\(reply)")
        #expect(reply.hasSuffix("OK\n"))
    }

    // MARK: Command lists

    @Test func longCommandListsAreAnsweredInFull() throws {
        let box = try serve("list")
        defer { box.server.stop() }
        let c = try Connection(unix: box.path)
        _ = c.read(until: "\n")
        let list = "command_list_ok_begin\n" + String(repeating: "ping\n", count: 40_000) + "command_list_end\n"
        let writer = Thread { c.send(list) }
        writer.start()
        let reply = c.read(until: "list_OK\nOK\n")
        #expect(reply == String(repeating: "list_OK\n", count: 40_000) + "OK\n")
    }

    @Test func aLongListIsRunInTurnsWithOtherClients() throws {
        let box = try serve("turns")
        defer { box.server.stop() }
        let long = try Connection(unix: box.path)
        _ = long.read(until: "\n")
        long.send("command_list_begin\nsetvol 10\n" + String(repeating: "ping\n", count: 300_000) + "setvol 20\ncommand_list_end\n")
        let drain = Thread { _ = long.read(until: "OK\n") }
        drain.start()
        // Another client asks while the list runs: it is answered in between, and sees the
        // list half done (volume 10), not only before or after it.
        let other = try Connection(unix: box.path)
        _ = other.read(until: "\n")
        var seen: Set<String> = []
        while !seen.contains("volume: 20") {
            other.send("status\n")
            let reply = other.read(until: "OK\n")
            guard let volume = reply.split(separator: "\n").first(where: { $0.hasPrefix("volume: ") }) else { break }
            seen.insert(String(volume))
        }
        #expect(seen.contains("volume: 10"), "\(seen)")
        while !drain.isFinished { usleep(1000) }
    }

    @Test func anOversizedListIsRefusedAndOthersAreServed() throws {
        let box = try serve("biglist")
        defer { box.server.stop() }
        let flood = try Connection(unix: box.path)
        _ = flood.read(until: "\n")
        // 3 MiB of list text: over the default cap of 2048 KiB.
        let list = "command_list_begin\n" + String(repeating: "ping\n", count: 600_000) + "command_list_end\n"
        let writer = Thread { flood.send(list) }
        writer.start()
        let other = try Connection(unix: box.path)
        _ = other.read(until: "\n")
        other.send("status\n")
        #expect(other.read(until: "OK\n").contains("state: stop\n"))
        let refusal = flood.readToEnd()
        #expect(refusal.hasPrefix("ACK [52@0] {command_list_begin} command list is longer than 2048 KiB"), "\(refusal.prefix(200))")
    }

    @Test func aClientThatDoesNotReadIsNotReadEither() throws {
        let box = try serve("noread")
        defer { box.server.stop() }
        let greedy = try Connection(unix: box.path)
        _ = fcntl(greedy.fd, F_SETFL, fcntl(greedy.fd, F_GETFL) | O_NONBLOCK)
        // Requests it never reads the replies to: once its replies back up, the server
        // stops taking its input, so its sends block instead of the server's memory growing.
        let chunk = Array(String(repeating: "status\n", count: 4096).utf8)
        var sent = 0
        var stalled = 0
        while sent < 64 << 20, stalled < 200 {
            let n = chunk.withUnsafeBytes { Foundation.send(greedy.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n; stalled = 0 } else { stalled += 1; usleep(5000) }
        }
        #expect(sent < 16 << 20, "the server took \(sent) bytes from a client that reads nothing")
        let other = try Connection(unix: box.path)
        _ = other.read(until: "\n")
        other.send("ping\n")
        #expect(other.read(until: "OK\n") == "OK\n")
    }

    // MARK: Many clients

    @Test func silentClientsDoNotLockOthersOut() throws {
        let box = try serve("crowd")
        defer { box.server.stop() }
        let silent = try (0..<90).map { _ in try Connection(unix: box.path) }
        for c in silent { #expect(c.read(until: "\n") == MPDProtocol.greeting) }
        let c = try Connection(unix: box.path)
        c.send("status\n")
        #expect(c.read(until: "OK\n").contains("state: stop\n"))
    }

    @Test func aClientPastTheLimitIsToldWhy() throws {
        let box = try serve("limit", limits: .init(maximumConnections: 3))
        defer { box.server.stop() }
        let kept = try (0..<3).map { _ in try Connection(unix: box.path) }
        for c in kept { #expect(c.read(until: "\n") == MPDProtocol.greeting) }
        let refused = try Connection(unix: box.path)
        #expect(refused.readToEnd() == "ACK [52@0] {} too many clients (max_connections is 3)\n")
        kept[0].send("ping\n")
        #expect(kept[0].read(until: "OK\n") == "OK\n")
    }

    @Test func idleClientsAreClosed() throws {
        let box = try serve("idle", limits: .init(connectionTimeoutSeconds: 1))
        defer { box.server.stop() }
        let idle = try Connection(unix: box.path)
        let busy = try Connection(unix: box.path)
        #expect(busy.read(until: "\n") == MPDProtocol.greeting)
        for _ in 0..<4 {
            usleep(400_000)
            busy.send("ping\n")
            #expect(busy.read(until: "OK\n") == "OK\n")
        }
        // The silent one was closed after its second of silence; the busy one never was.
        #expect(idle.readToEnd() == MPDProtocol.greeting)
        busy.send("ping\n")
        #expect(busy.read(until: "OK\n") == "OK\n")
    }

    // MARK: Replies follow the applied command

    @Test func okMeansTheCommandWasApplied() throws {
        let box = try serve("applied")
        defer { box.server.stop() }
        let c = try Connection(unix: box.path)
        _ = c.read(until: "\n")
        c.send("play 2\ncurrentsong\nstatus\n")
        let reply = c.read(replies: 3).split(separator: "OK\n", omittingEmptySubsequences: false)
        // While the track loads, currentsong names it; its tags follow once it is open.
        #expect(reply.count == 4 && reply[1] == "file: /music/song 2.flac\nPos: 2\nId: 3\n", "\(reply)")
        #expect(reply.count == 4 && reply[2].contains("state: play\nlastloadedplaylist: \nsong: 2\n"), "\(reply)")
    }

    /// With the real engine on a silent sink: the reply to `currentsong` right after
    /// `play` names the track being loaded; its tags follow once the decoder has opened it.
    @Test func currentsongAfterPlayWithTheRealEngine() throws {
        final class PlayerBox: @unchecked Sendable { var player: Player? }
        let box = PlayerBox()
        let engine = AudioEngine(output: NullOutput()) { event in box.player?.engineEvent(event) }
        let player = Player(engine: engine)
        box.player = player
        try engine.start()
        defer { engine.shutdown() }
        let track = Fixtures.shared.path("music16.flac")
        player.setTracks([track])
        let server = ControlServer(player: player, logger: Logger(label: "test"))
        let path = NSTemporaryDirectory() + "jukebox-hard-\(getpid())-engine.sock"
        try server.start(socketPath: path, tcpPort: 0)
        defer { server.stop() }
        let c = try Connection(unix: path)
        _ = c.read(until: "\n")
        c.send("play\ncurrentsong\n")
        let reply = c.read(replies: 2)
        #expect(reply.hasPrefix("OK\nfile: \(track)\n"), "\(reply)")
        #expect(reply.contains("Pos: 0\nId: 1\nOK\n"), "\(reply)")
        var tagged = false
        for _ in 0..<200 where !tagged {
            c.send("currentsong\n")
            tagged = c.read(until: "OK\n").contains("Title: Plucked\n")
            if !tagged { usleep(50_000) }
        }
        #expect(tagged)
    }

    @Test func relativeVolumeIsNotLostToAButton() throws {
        let engine = FakeEngine()
        var settings = Player.Settings()
        settings.startVolume = 0
        settings.volumeStep = 1
        let player = Player(engine: engine, settings: settings)
        nonisolated(unsafe) let session = ControlSession(player: player)
        let client = Thread { for _ in 0..<50 { _ = session.handle(line: "volume +1") } }
        client.start()
        for _ in 0..<50 { player.send(.volumeStep(1)); usleep(20) }
        while !client.isFinished { usleep(1000) }
        #expect(player.status.volume == 100)
    }

    // MARK: Hostile names

    @Test func fileNamesAndTagsCannotInjectReplyLines() throws {
        let evil = "/music/00 evil\nOK\nTitle: injected.flac"
        let box = try serve("inject", tracks: [evil, "/music/tab\there\r\u{1}.flac"])
        defer { box.server.stop() }
        box.player.send(.play)
        _ = box.player.status
        let token = box.engine.lastPlayToken!
        var metadata = TrackMetadata()
        metadata.title = "line\nACK [5@0] {x} fake"
        metadata.artist = "cr\rband\u{7F}"
        box.player.engineEvent(.trackOpened(token: token, info: StreamInfo(sampleRate: 1000, channels: 2, sampleFormat: .s16, totalFrames: 1000),
                                            metadata: metadata))
        box.player.engineEvent(.trackStarted(token: token))
        _ = box.player.status

        let c = try Connection(unix: box.path)
        _ = c.read(until: "\n")
        c.send("playlistinfo\n")
        let reply = c.read(until: "\nOK\n")
        let lines = reply.split(separator: "\n", omittingEmptySubsequences: false).dropLast(2)
        #expect(lines.allSatisfy { $0.contains(": ") && !$0.contains("\r") }, "\(reply)")
        #expect(reply.contains("file: /music/00 evil OK Title: injected.flac\n"))
        #expect(reply.contains("Title: line ACK [5@0] {x} fake\n"))
        #expect(reply.contains("Artist: cr band \n"))
        #expect(reply.contains("file: /music/tab here  .flac\n"))

        let mpc = Process()
        mpc.executableURL = URL(fileURLWithPath: try Tools.path(of: "mpc"))
        mpc.arguments = ["playlist"]
        mpc.environment = ["MPD_HOST": box.path]
        let out = Pipe()
        mpc.standardOutput = out
        mpc.standardError = out
        try mpc.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        mpc.waitUntilExit()
        #expect(mpc.terminationStatus == 0, "\(text)")
        #expect(text.split(separator: "\n").count == 2, "\(text)")
    }

    // MARK: The client's own timeout

    /// A socket that accepts connections (the kernel does, into the backlog) but never answers.
    func silentSocket(_ name: String) throws -> (fd: Int32, path: String) {
        let path = NSTemporaryDirectory() + "jukebox-silent-\(getpid())-\(name).sock"
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0, listen(fd, 4) == 0 else { throw Tools.ToolFailure(description: "cannot listen on \(path)") }
        return (fd, path)
    }

    @Test func statusAndCtlGiveUpOnADaemonThatNeverAnswers() throws {
        let silent = try silentSocket("cli")
        defer { close(silent.fd); unlink(silent.path) }
        for (command, words) in [("status", []), ("ctl", ["next"])] {
            let out = try Tools.run("timeout", ["60", Tools.jukebox, command, "--socket", silent.path, "--timeout", "1"] + words, check: false)
            #expect(out.status == 1, "\(out.stderr)")
            #expect(out.stderr.contains("the jukebox at \(silent.path) did not answer within 1 s"), "\(out.stderr)")
        }
    }

    // MARK: One daemon per socket

    @Test func aStaleSocketIsReplacedAndAnotherServersSocketIsLeftAlone() throws {
        let stale = try silentSocket("stale")
        close(stale.fd)  // the file stays: what a killed daemon leaves behind
        let engine = FakeEngine()
        let player = Player(engine: engine)
        let first = ControlServer(player: player, logger: Logger(label: "test"))
        try first.start(socketPath: stale.path, tcpPort: 0)
        #expect(try Connection(unix: stale.path).read(until: "\n") == MPDProtocol.greeting)
        // A live server is not replaced.
        let second = ControlServer(player: player, logger: Logger(label: "test"))
        #expect(throws: ControlServer.StartError.self) { try second.start(socketPath: stale.path, tcpPort: 0) }
        // If someone else's socket has taken the path, stopping does not delete it.
        unlink(stale.path)
        let third = ControlServer(player: player, logger: Logger(label: "test"))
        try third.start(socketPath: stale.path, tcpPort: 0)
        first.stop()
        #expect(try Connection(unix: stale.path).read(until: "\n") == MPDProtocol.greeting)
        third.stop()
        #expect(access(stale.path, F_OK) != 0)
    }

    @Test func aSecondDaemonOnTheSameSocketIsRefused() throws {
        let library = try Fixtures.shared.scratchFolder("twice-library")
        let config = Fixtures.shared.path("twice.toml")
        try "[playback]\nautoplay = false\n[control]\nkeyboard = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        let socket = NSTemporaryDirectory() + "jukebox-twice-\(getpid()).sock"
        unlink(socket)
        let arguments = ["run", "--state", "", "--config", config, "--music-dir", library, "--device", "null", "--socket", socket]
        let first = Process()
        first.executableURL = URL(fileURLWithPath: Tools.jukebox)
        first.arguments = arguments
        first.standardError = FileHandle.nullDevice
        first.standardInput = FileHandle.nullDevice
        try first.run()
        defer { if first.isRunning { first.terminate(); first.waitUntilExit() } }
        var up = false
        for _ in 0..<400 where !up {
            up = (try? Connection(unix: socket).read(until: "\n")) == MPDProtocol.greeting
            if !up { usleep(50_000) }
        }
        #expect(up)

        let second = try Tools.run("timeout", ["60", Tools.jukebox] + arguments, check: false)
        #expect(second.status == 1, "\(second.stderr)")
        #expect(second.stderr.contains("another jukebox is answering on \(socket)"), "\(second.stderr)")
        #expect(second.stderr.contains("systemctl stop jukebox"), "\(second.stderr)")
        // The first is still reachable on its socket.
        let c = try Connection(unix: socket)
        _ = c.read(until: "\n")
        c.send("ping\n")
        #expect(c.read(until: "OK\n") == "OK\n")
        first.terminate()
        first.waitUntilExit()
        #expect(access(socket, F_OK) != 0)
    }
}
