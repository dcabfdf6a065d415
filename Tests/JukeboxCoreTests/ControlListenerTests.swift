import Foundation
import Testing
@testable import JukeboxCore

/// Each listener of the real daemon fails alone: a TCP port another program holds, at
/// start or after a live edit, leaves the Unix socket answering, is said in the log, and
/// is tried again until it is free.
@Suite(.serialized) struct ControlListenerTests {
    let fx = Fixtures.shared

    func write(_ config: String, tcpPort: Int) throws {
        try "[playback]\nautoplay = false\n[display]\ndevice = \"none\"\n[control]\nkeyboard = false\ntcp_port = \(tcpPort)\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
    }

    @Test func aBusyPortAtStartLeavesTheUnixSocketAndIsTakenOnceFree() throws {
        let blocker = try LoopbackListener.open()
        let config = fx.path("busy-start.toml")
        try write(config, tcpPort: blocker.port)
        let music = try fx.scratchFolder("busy-start-music")
        let daemon = try RunningDaemon(name: "busy-start", config: config, musicDirectory: music)
        #expect(daemon.wait(seconds: 30) { daemon.statusReply() != nil }, "the Unix socket never answered: \(daemon.log)")
        #expect(daemon.log.contains("127.0.0.1:\(blocker.port): the port is busy"), "\(daemon.log)")
        #expect(daemon.isRunning)
        close(blocker.fd)
        // Tried again every 5 s: the port is taken once free.
        let listening = daemon.wait(seconds: 30) {
            (try? ControlHardeningTests.Connection(tcpPort: blocker.port, timeout: 5).read(until: "\n")) == MPDProtocol.greeting
        }
        #expect(listening, "\(daemon.log)")
        #expect(daemon.statusReply() != nil)
    }

    @Test func aBusyPortAfterALiveEditLeavesTheUnixSocket() throws {
        let config = fx.path("busy-edit.toml")
        try write(config, tcpPort: 0)
        let music = try fx.scratchFolder("busy-edit-music")
        let daemon = try RunningDaemon(name: "busy-edit", config: config, musicDirectory: music)
        #expect(daemon.wait(seconds: 30) { daemon.statusReply() != nil }, "never answered: \(daemon.log)")
        let blocker = try LoopbackListener.open()
        defer { close(blocker.fd) }
        try write(config, tcpPort: blocker.port)
        #expect(daemon.wait(seconds: 30) { daemon.log.contains("127.0.0.1:\(blocker.port): the port is busy") }, "\(daemon.log)")
        // Asked again and again over the next seconds: never gone, not even for a retry.
        var answered = 0
        for _ in 0..<10 {
            if daemon.statusReply() != nil { answered += 1 }
            usleep(300_000)
        }
        #expect(answered == 10, "\(daemon.log)")
        #expect(!daemon.log.contains("control socket failed"), "\(daemon.log)")
    }
}
