import Foundation
import Testing
@testable import JukeboxCore

/// Signals sent to `jukebox run`: HUP reads the config again, the stopping ones end it through
/// the shutdown path (exit 0, socket file removed), never by the default action.
@Suite(.serialized) struct DaemonSignalTests {
    let fx = Fixtures.shared

    private func startDaemon(_ name: String) throws -> RunningDaemon {
        let music = try fx.scratchFolder("\(name)-music")  // empty: the box idles
        let config = fx.path("\(name).toml")
        try "[control]\nkeyboard = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: name, config: config, musicDirectory: music)
        #expect(daemon.wait(seconds: 30) { daemon.statusReply() != nil }, "never answered: \(daemon.log)")
        return daemon
    }

    @Test(arguments: [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGQUIT, "SIGQUIT"), (SIGUSR1, "SIGUSR1"), (SIGUSR2, "SIGUSR2")])
    func aStopSignalShutsDownCleanly(signal: Int32, name: String) throws {
        let daemon = try startDaemon("signal-\(name)")
        daemon.send(signal)
        try #require(daemon.waitForExit(seconds: 30), "still running after \(name)")
        #expect(daemon.status == 0, "\(daemon.log)")
        #expect(daemon.log.contains("stopping (\(name))"), "\(daemon.log)")
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }

    @Test func sigHupReloadsTheConfig() throws {
        let daemon = try startDaemon("signal-SIGHUP")
        daemon.send(SIGHUP)
        #expect(daemon.wait(seconds: 30) { daemon.log.contains("reloaded (SIGHUP), nothing changed") }, "\(daemon.log)")
        #expect(daemon.isRunning)
        #expect(daemon.statusReply() != nil)
        daemon.send(SIGPIPE)  // never fatal either
        #expect(daemon.statusReply() != nil)
        #expect(daemon.isRunning)
        daemon.send(SIGTERM)
        try #require(daemon.waitForExit(seconds: 30))
        #expect(daemon.status == 0, "\(daemon.log)")
    }
}
