import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// The control socket for real: a Unix socket served by `ControlServer`, driven by mpc
/// (MPD's own command-line client) and by raw clients that misbehave.
@Suite(.serialized) struct ControlSocketTests {
    final class Box: @unchecked Sendable {
        let player: Player
        let engine: FakeEngine
        let server: ControlServer
        let path: String
        init(player: Player, engine: FakeEngine, server: ControlServer, path: String) {
            self.player = player; self.engine = engine; self.server = server; self.path = path
        }
    }

    func serve(_ name: String) throws -> Box {
        let engine = FakeEngine()
        let player = Player(engine: engine)
        player.setTracks((0..<4).map { "/music/song \($0).flac" })
        _ = player.status  // set before anyone listens, so no client hears of it
        let server = ControlServer(player: player, logger: Logger(label: "test"))
        let path = NSTemporaryDirectory() + "jukebox-ctl-\(getpid())-\(name).sock"
        try server.start(socketPath: path, tcpPort: 0)
        return Box(player: player, engine: engine, server: server, path: path)
    }

    func hear(_ box: Box, frame: Int64 = 0) {
        _ = box.player.status
        let token = box.engine.lastPlayToken!
        let info = StreamInfo(sampleRate: 1000, channels: 2, sampleFormat: .s16, totalFrames: 100_000)
        var metadata = TrackMetadata()
        metadata.title = "Song Title"
        metadata.artist = "The Band"
        box.player.engineEvent(.trackOpened(token: token, info: info, metadata: metadata))
        box.engine.snapshot = EngineSnapshot(state: .playing, token: token, frame: frame, sampleRate: 1000)
        box.player.engineEvent(.trackStarted(token: token))
        _ = box.player.status
    }

    func mpc(_ box: Box, _ args: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Tools.path(of: "mpc"))
        process.arguments = args
        process.environment = ["MPD_HOST": box.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        _ = box.player.status  // let the command reach the player
        return String(decoding: data, as: UTF8.self)
    }

    @Test func mpcControlsThePlayer() throws {
        let box = try serve("mpc")
        defer { box.server.stop() }
        _ = try mpc(box, "play")
        hear(box, frame: 12_000)
        let status = try mpc(box, "status")
        #expect(status.contains("The Band - Song Title"), "\(status)")
        #expect(status.contains("[playing] #1/4"), "\(status)")
        #expect(status.contains("0:12/1:40"), "\(status)")
        #expect(status.contains("volume: 60%"), "\(status)")

        _ = try mpc(box, "pause")
        #expect(box.player.status.state == .paused)
        _ = try mpc(box, "play")
        #expect(box.player.status.state == .playing)
        _ = try mpc(box, "volume", "80")
        #expect(box.player.status.volume == 80)
        _ = try mpc(box, "random", "on")
        #expect(box.player.status.mode == .shuffle)
        _ = try mpc(box, "random", "off")
        _ = try mpc(box, "repeat", "on")
        _ = try mpc(box, "single", "on")
        #expect(box.player.status.mode == .repeatOne)
        _ = try mpc(box, "seek", "+10")
        #expect(box.engine.calls.last == .seek(22_000))
        _ = try mpc(box, "next")
        #expect(box.engine.calls.contains { if case .play(_, "/music/song 1.flac", 0, false) = $0 { true } else { false } })
        let playlist = try mpc(box, "playlist")
        #expect(playlist.split(separator: "\n").count == 4, "\(playlist)")
        _ = try mpc(box, "stop")
        #expect(box.player.status.state == .stopped)
    }

    /// A raw connection: send bytes, read what comes back within a short time.
    final class Raw {
        let fd: Int32
        init(_ path: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let ok = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard ok == 0 else { throw Tools.ToolFailure(description: "connect failed") }
            var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        deinit { close(fd) }
        func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        func send(_ text: String) { send(Array(text.utf8)) }
        /// Everything that arrives until the peer is quiet for 300 ms (or closes).
        func receive() -> String {
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = ControlHardeningTests.Connection.receive(fd, &buffer)
                if n <= 0 { break }
                out += buffer[0..<n]
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    @Test func garbageAndHalfCommandsAffectNobodyElse() throws {
        let box = try serve("raw")
        defer { box.server.stop() }
        let good = try Raw(box.path)
        #expect(good.receive() == MPDProtocol.greeting)

        let bad = try Raw(box.path)
        _ = bad.receive()
        bad.send("frobnicate now\n")
        #expect(bad.receive() == "ACK [5@0] {} unknown command \"frobnicate\"\n")
        bad.send("setvol loud\n")
        #expect(bad.receive() == "ACK [2@0] {setvol} Integer expected: loud\n")
        bad.send("play 99\n")
        #expect(bad.receive().hasPrefix("ACK [2@0] {play}"))
        bad.send("pause \"unclosed\n")
        #expect(bad.receive().hasPrefix("ACK [5@0] {} Missing closing"))
        bad.send([0xFF, 0x00, 0xFE, 0x0A])
        #expect(bad.receive().hasPrefix("ACK [5@0]"))
        // Still usable after all that.
        bad.send("ping\n")
        #expect(bad.receive() == "OK\n")

        // A command list stops at its first error and says where.
        bad.send("command_list_begin\nsetvol 30\nsetvol 300\nnext\ncommand_list_end\n")
        #expect(bad.receive() == "ACK [2@1] {setvol} Number too large: 300\n")
        #expect(box.player.status.volume == 30)
        bad.send("command_list_ok_begin\nping\nstatus\ncommand_list_end\n")
        let listed = bad.receive()
        #expect(listed.hasPrefix("list_OK\nvolume: 30\n"))
        #expect(listed.hasSuffix("list_OK\nOK\n"))

        // Half a command, then gone.
        let half = try Raw(box.path)
        _ = half.receive()
        half.send("setvol 1")
        // A never-ending line is cut off.
        let flood = try Raw(box.path)
        _ = flood.receive()
        flood.send([UInt8](repeating: UInt8(ascii: "x"), count: 10_000))
        #expect(flood.receive().hasPrefix("ACK [2@0] {} line too long"))

        good.send("status\n")
        let status = good.receive()
        #expect(status.contains("volume: 30\n"))
        #expect(status.hasSuffix("OK\n"))
        #expect(box.player.status.volume == 30)  // the half command never ran
        good.send("close\n")
        #expect(good.receive() == "")
    }

    /// As MPD 0.24: idle and noidle cannot wait inside a command list, and a client that
    /// sends one there is closed; `close` there closes once the list has run up to it.
    @Test func idleInACommandListEndsTheConnection() {
        for word in ["idle", "noidle"] {
            let s = ControlSession(player: Player(engine: FakeEngine()))
            for line in ["command_list_begin", "ping"] { #expect(s.handle(line: line) == .none) }
            #expect(s.handle(line: word) == .close)
        }
        let s = ControlSession(player: Player(engine: FakeEngine()))
        for line in ["command_list_ok_begin", "ping", "close"] { #expect(s.handle(line: line) == .none) }
        #expect(s.handle(line: "command_list_end") == .replyAndClose("list_OK\n"))
    }

    /// A line is split once and told by its first word, blanks around it or not, as MPD
    /// reads it; a longer name that starts like another is not taken for it.
    @Test func commandsAreToldByTheirFirstWord() {
        let s = ControlSession(player: Player(engine: FakeEngine()))
        #expect(s.handle(line: "  ping\t") == .reply("OK\n"))
        #expect(s.handle(line: "idlex") == .reply("ACK [5@0] {} unknown command \"idlex\"\n"))
        #expect(s.handle(line: "albumartist x") == .reply("ACK [5@0] {} unknown command \"albumartist\"\n"))
        #expect(s.handle(line: "find \"open") == .reply("ACK [5@0] {} Missing closing '\"'\n"))
        #expect(s.handle(line: " idle options ") == .none)
        #expect(s.handle(line: "noidle") == .reply("OK\n"))
        #expect(s.handle(line: "close ") == .close)
    }

    @Test func protocolRequests() throws {
        func request(_ name: String, _ arguments: [String] = []) -> MPDProtocol.Request { .init(name: name, arguments: arguments) }
        #expect(try MPDProtocol.request("play") == request("play"))
        #expect(try MPDProtocol.request("  seekcur   +10  ") == request("seekcur", ["+10"]))
        #expect(try MPDProtocol.request(#"find "a b" "c \"d\"" """#) == request("find", ["a b", "c \"d\"", ""]))
        #expect(try MPDProtocol.request("add \"周杰伦/晴天.flac\"") == request("add", ["周杰伦/晴天.flac"]))
        // A quote is a byte, as MPD reads it, even when a combining mark follows it.
        #expect(try MPDProtocol.request("find \"\u{301}x\" \u{301}") == request("find", ["\u{301}x", "\u{301}"]))
        #expect(try MPDProtocol.request(" \t ") == nil)
        #expect(throws: MPDProtocol.Ack.self) { try MPDProtocol.request("find \"open") }
        #expect(MPDProtocol.quote("a b") == "\"a b\"")
        for mode in PlayMode.allCases {
            #expect(PlayOptions(mode: mode).mode == mode)
        }
        #expect(MPDProtocol.options(["repeat": "1", "single": "oneshot", "consume": "1"]) == PlayOptions(repeat: true, single: .oneshot, consume: true))
    }
}
