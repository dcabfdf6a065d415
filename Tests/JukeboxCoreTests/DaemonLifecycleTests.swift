import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// A whole daemon started and stopped inside the test process: `run` returns, and every
/// thread, descriptor and file it made is gone afterwards, so it can run again.
@Suite(.serialized) struct DaemonLifecycleTests {
    let fx = Fixtures.shared

    /// Runs a daemon on its own thread until `body` returns, then asks it to stop.
    private func withDaemon(_ config: JukeboxConfig, _ body: () throws -> Void) throws -> Daemon.Outcome {
        var logger = Logger(label: "in-process")
        logger.logLevel = .error
        let daemon = Daemon(config: config, logger: logger)
        let outcome = ConditionLocked(Finished())
        let thread = Thread {
            let result = daemon.run(handlingSignals: false)
            outcome.withLock { $0.outcome = result; $0.broadcast() }
        }
        thread.start()
        defer { daemon.requestStop() }
        try body()
        daemon.requestStop()
        return try #require(outcome.withLock { access -> Daemon.Outcome? in
            let deadline = MonotonicClock.now() + 30_000_000_000
            while access.outcome == nil, MonotonicClock.now() < deadline { access.wait(nanoseconds: 100_000_000) }
            return access.outcome
        }, "run did not return")
    }

    private struct Finished { var outcome: Daemon.Outcome? }

    private func config(_ name: String) throws -> JukeboxConfig {
        let music = try fx.scratchFolder("lifecycle-\(name)")
        try? FileManager.default.copyItem(atPath: fx.path("music16.flac"), toPath: "\(music)/one.flac")
        var config = JukeboxConfig()
        config.network.cacheDirectory = fx.path("download-cache")  // not the machine's (Fixtures says why)
        config.library.musicDirectory = music
        config.library.playlistsDirectory = music
        config.audio.devices = [NullOutput.deviceName]
        config.control.socketPath = fx.path("lifecycle-\(name).sock")
        config.control.keyboard = false
        config.state.file = ""
        // Round and round: the short track must still be playing when a busy test
        // process gets round to asking.
        config.playback.player.mode = .repeatAll
        return config
    }

    /// Each open descriptor as "number→what it is".
    private static func descriptors() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(names.map { "\($0)→\((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) ?? "?")" })
    }

    private static func status(_ socket: String) -> [String]? {
        try? ControlClient(socketPath: socket).send(["status"])
    }

    @Test func runReturnsAndLeavesNothingBehind() throws {
        let config = try config("twice")
        var leaks: [Set<String>] = []
        for round in 0..<3 {
            let before = Self.descriptors()
            var during: Set<String> = []
            let outcome = try withDaemon(config) {
                let deadline = Date().addingTimeInterval(30)
                var playing = false
                while Date() < deadline, !playing {
                    playing = Self.status(config.control.socketPath)?.contains("state: play") == true
                    if !playing { usleep(50_000) }
                }
                #expect(playing, "round \(round): never played")
                during = Self.descriptors()
            }
            guard case .stopped(.asked) = outcome else {
                Issue.record("round \(round): \(outcome)")
                return
            }
            #expect(!FileManager.default.fileExists(atPath: config.control.socketPath))
            // A leak is a descriptor the daemon had open while running that is still
            // open a moment after it stopped.
            var leaked = during.subtracting(before).intersection(Self.descriptors())
            if !leaked.isEmpty {
                usleep(500_000)
                leaked.formIntersection(Self.descriptors())
            }
            leaks.append(leaked)
        }
        // Other suites open descriptors meanwhile, which can look like a leak in one round;
        // a real one leaks in every round.
        #expect(leaks.contains { $0.isEmpty }, "descriptors left open in every round: \(leaks.map { $0.sorted() })")
    }

    @Test func aSecondBoxOnTheSameSocketDoesNotStart() throws {
        let config = try config("second")
        _ = try withDaemon(config) {
            var logger = Logger(label: "second")
            logger.logLevel = .critical
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, Self.status(config.control.socketPath) == nil { usleep(50_000) }
            let outcome = Daemon(config: config, logger: logger).run(handlingSignals: false)
            guard case .failed(.cannotStart(let service, _)) = outcome else {
                Issue.record("the second box ran: \(outcome)")
                return
            }
            #expect(service == "control socket")
            #expect(Self.status(config.control.socketPath) != nil, "the first box lost its socket")
        }
    }
}
