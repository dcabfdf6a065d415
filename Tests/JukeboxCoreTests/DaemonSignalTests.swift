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

    /// Whether `pid` holds SIGHUP now (blocked, so it waits; not ignored, which would drop
    /// one that came meanwhile), from /proc/PID/status; nil once it is gone.
    static func holdsSIGHUP(_ pid: Int32) -> Bool? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func has(_ field: String) -> Bool {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
                  let mask = UInt64(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
            return mask & (1 << (UInt64(SIGHUP) - 1)) != 0
        }
        return has("SigBlk") && !has("SigIgn")
    }

    /// Polls every 0.1 ms (a start takes tens of ms) for up to 2 s until `pid` holds SIGHUP or is gone.
    static func waitForTheHold(_ pid: Int32) -> Bool {
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            if holdsSIGHUP(pid) != false { return true }
            usleep(100)
        }
        return false
    }

    /// Issue 33 #14: SIGHUP again and again while the box starts, 30 starts: it survives
    /// every one. The signals are sent from the moment the process holds them, its first
    /// act once loaded (before that, the kernel and the dynamic loader run, and a signal
    /// takes its default action in any program).
    @Test func sigHupWhileStartingNeverKillsIt() throws {
        let music = try fx.scratchFolder("hup-storm-music")
        let config = fx.path("hup-storm.toml")
        try "[control]\nkeyboard = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        var survived = 0
        for attempt in 0..<30 {
            let daemon = try RunningDaemon(name: "hup-storm", config: config, musicDirectory: music)
            #expect(Self.waitForTheHold(daemon.pid), "attempt \(attempt): SIGHUP never held")
            // Every half millisecond for the first 200 ms: the whole of the start.
            for _ in 0..<400 where daemon.isRunning {
                daemon.send(SIGHUP)
                usleep(500)
            }
            #expect(daemon.wait(seconds: 30) { !daemon.isRunning || daemon.statusReply() != nil })
            guard daemon.isRunning else {
                Issue.record("attempt \(attempt): killed while starting (status \(daemon.status)): \(daemon.log)")
                continue
            }
            #expect(daemon.wait(seconds: 10) { daemon.log.contains("reloaded (SIGHUP)") }, "\(daemon.log)")
            daemon.send(SIGTERM)
            #expect(daemon.waitForExit(seconds: 30))
            #expect(daemon.status == 0, "\(daemon.log)")
            survived += 1
        }
        #expect(survived == 30)
    }

    /// A SIGTERM that comes while the box starts is not lost: the box stops cleanly.
    @Test func sigTermWhileStartingStopsIt() throws {
        let music = try fx.scratchFolder("early-term-music")
        let config = fx.path("early-term.toml")
        try "[control]\nkeyboard = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: "early-term", config: config, musicDirectory: music)
        #expect(Self.waitForTheHold(daemon.pid))
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30), "\(daemon.log)")
        #expect(daemon.status == 0, "\(daemon.log)")
        #expect(daemon.log.contains("stopping (SIGTERM)"), "\(daemon.log)")
    }
}
