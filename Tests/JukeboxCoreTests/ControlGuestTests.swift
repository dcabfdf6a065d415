import Foundation
import Testing
@testable import JukeboxCore

/// TCP clients of a box with a password, against the real daemon: one that has not sent
/// it (a guest) cannot keep a slot by waiting in idle, and guessing it is slow, limited
/// and logged with the guesser's address.
@Suite(.serialized) struct ControlGuestTests {
    typealias Connection = ControlHardeningTests.Connection
    let fx = Fixtures.shared

    func daemon(_ name: String, port: Int, control: String = "") throws -> RunningDaemon {
        let music = try fx.scratchFolder("\(name)-music")
        let config = fx.path("\(name).toml")
        try "[playback]\nautoplay = false\n[display]\ndevice = \"none\"\n[control]\nkeyboard = false\ntcp_port = \(port)\npassword = \"open sesame\"\n\(control)"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: name, config: config, musicDirectory: music)
        try #require(daemon.wait(seconds: 60) { daemon.statusReply() != nil && daemon.log.contains("also on TCP") }, "never ready: \(daemon.log)")
        return daemon
    }

    @Test func aGuestWaitingInIdleIsClosedAndTheOwnerIsNot() throws {
        let port = try LoopbackListener.freePort()
        let daemon = try daemon("guest-timeout", port: port, control: "password_timeout = 1\nconnection_timeout = 600\n")
        let guest = try Connection(tcpPort: port)
        let owner = try Connection(tcpPort: port)
        #expect(owner.read(until: "\n") == MPDProtocol.greeting)
        owner.send("password \"open sesame\"\nidle\n")
        #expect(owner.read(until: "OK\n") == "OK\n")
        guest.send("idle\n")
        // The guest is closed a second after its idle; the owner waits in idle as long as it likes.
        #expect(guest.readToEnd() == MPDProtocol.greeting)
        sleep(2)
        owner.send("noidle\nping\n")
        #expect(owner.read(until: "OK\nOK\n") == "OK\nOK\n")
        withExtendedLifetime(daemon) {}
    }

    @Test func wrongPasswordsAreSlowLimitedAndLogged() throws {
        let port = try LoopbackListener.freePort()
        let daemon = try daemon("guessing", port: port)
        let guesser = try Connection(tcpPort: port)
        _ = guesser.read(until: "\n")
        let started = Date()
        guesser.send((0..<20_000).map { "password guess\($0)\n" }.joined())
        // While its answers are held back, everyone else is served at once.
        let other = try Connection(tcpPort: port)
        _ = other.read(until: "\n")
        other.send("status\n")
        #expect(other.read(until: "OK\n").contains("state: stop\n"))
        let answers = guesser.readToEnd()
        let took = Date().timeIntervalSince(started)
        // Three answers, then the connection closed: the rest were never tried.
        #expect(answers == String(repeating: "ACK [3@0] {password} incorrect password\n", count: 3), "\(answers.prefix(300))")
        // Half a second, one, then two: at least 3.5 s in all however fast the machine.
        #expect(took >= 3.4, "three wrong passwords answered in \(took) s")
        #expect(daemon.log.contains("wrong password from 127.0.0.1:"), "\(daemon.log)")
        #expect(daemon.log.contains("(3 times); closing the connection"), "\(daemon.log)")
        // The right one still works, on a new connection.
        let owner = try Connection(tcpPort: port)
        _ = owner.read(until: "\n")
        owner.send("password \"open sesame\"\nsetvol 20\n")
        #expect(owner.read(until: "OK\nOK\n") == "OK\nOK\n")
    }
}
