import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// `[control] password`: TCP clients may only read until they send it, as MPD's
/// permissions; clients on the Unix socket, and every client when no password is set, may
/// do everything.
@Suite struct PasswordTests {
    func say(_ s: ControlSession, _ line: String) -> String {
        guard case .reply(let text) = s.handle(line: line) else { return "" }
        return text
    }

    func listed(_ reply: String) -> Set<String> {
        Set(reply.split(separator: "\n").filter { $0.hasPrefix("command: ") }.map { String($0.dropFirst(9)) })
    }

    @Test func withoutThePasswordATCPClientOnlyReads() {
        let player = Player(engine: FakeEngine())
        player.setTracks(["/m/a.flac", "/m/b.flac"])
        let s = ControlSession(player: player, local: false, password: "open sesame")
        #expect(say(s, "status").hasSuffix("OK\n"))
        #expect(say(s, "getvol") == "volume: 60\nOK\n")
        #expect(say(s, "playlistinfo").hasPrefix("file: /m/a.flac"))
        #expect(say(s, "play") == "ACK [4@0] {play} you don't have permission for \"play\"\n")
        #expect(say(s, "setvol 10") == "ACK [4@0] {setvol} you don't have permission for \"setvol\"\n")
        for line in ["command_list_begin", "ping", "clear"] { _ = s.handle(line: line) }
        #expect(say(s, "command_list_end") == "ACK [4@1] {clear} you don't have permission for \"clear\"\n")
        #expect(player.listing.paths.count == 2)
        #expect(player.status.state == .stopped)
        // commands and notcommands say which is which, together every command (and, as
        // MPD 0.24's, `mount` and `unmount`, which `commands` leaves out).
        let (may, mayNot) = (listed(say(s, "commands")), listed(say(s, "notcommands")))
        #expect(may.contains("status") && !may.contains("play") && mayNot.contains("play") && mayNot.contains("add"))
        #expect(may.isDisjoint(with: mayNot) && may.union(mayNot) == Set(ControlSession.commandTable.listed.map(\.name) + ["mount", "unmount"]))
        #expect(say(s, "password nope") == "ACK [3@0] {password} incorrect password\n")
        #expect(say(s, "play").hasPrefix("ACK [4@0]"))
        #expect(say(s, "password \"open sesame\"") == "OK\n")
        #expect(say(s, "play") == "OK\n")
        // Without a sticker database `commands` leaves the sticker commands out, as MPD's does.
        let listedHere = Set(ControlSession.commandTable.listed.filter { !$0.needsStickers }.map(\.name))
        #expect(listed(say(s, "commands")) == listedHere && say(s, "notcommands") == "OK\n")
    }

    @Test func theUnixSocketAndABoxWithoutPasswordAllowEverything() {
        let player = Player(engine: FakeEngine())
        player.setTracks(["/m/a.flac"])
        let local = ControlSession(player: player, local: true, password: "open sesame")
        #expect(say(local, "setvol 20") == "OK\n")
        let open = ControlSession(player: player, local: false)
        #expect(say(open, "setvol 30") == "OK\n")
        #expect(say(open, "password anything") == "ACK [3@0] {password} incorrect password\n")
        #expect(player.status.volume == 30)
    }

    /// mpc over TCP, as a phone on the home network connects.
    @Test func mpcOverTCPWithAndWithoutThePassword() throws {
        let player = Player(engine: FakeEngine())
        player.setTracks(["/m/a.flac"])
        let server = ControlServer(player: player, logger: Logger(label: "test"), password: "open sesame")
        let port = try LoopbackListener.freePort()
        try server.start(socketPath: "", tcpPort: port)
        defer { server.stop() }
        func mpc(_ host: String, _ args: String...) throws -> Tools.Output {
            try Tools.run("mpc", ["--host", host, "--port", "\(port)"] + args, check: false)
        }
        let refused = try mpc("127.0.0.1", "volume", "40")
        #expect(refused.status != 0 && refused.stderr.contains("permission"), "\(refused.stderr)")
        #expect(try mpc("127.0.0.1", "status").status == 0)
        #expect(try mpc("open sesame@127.0.0.1", "volume", "40").status == 0)
        #expect(player.status.volume == 40)
        #expect(try mpc("wrong@127.0.0.1", "volume", "50").status != 0)
        #expect(player.status.volume == 40)
    }
}
