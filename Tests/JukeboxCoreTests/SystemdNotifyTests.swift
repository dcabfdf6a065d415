import Foundation
import Testing
@testable import JukeboxCore

/// What the box tells systemd: READY=1 once its socket answers and a queue is known,
/// WATCHDOG=1 only while the player and the audio thread answer, STOPPING=1 at the end.
/// A datagram socket stands in for systemd's `$NOTIFY_SOCKET`.
@Suite struct SystemdNotifyTests {
    let fx = Fixtures.shared

    @Test func readyComesOnceTheSocketAnswersAndTracksAreQueued() throws {
        let notify = try NotifySocket(path: NSTemporaryDirectory() + "jukebox-sd-notify-\(getpid()).sock")
        let (music, _) = try fx.sineFolder("notify-music", seconds: 30)
        let config = fx.path("notify.toml")
        try "[control]\nkeyboard = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: "notify", config: config, musicDirectory: music,
                                       environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "400000"])
        let ready = try #require(notify.receive(until: { $0.contains("READY=1") }, seconds: 30), "\(daemon.log)")
        #expect(ready.contains("STATUS=1 tracks queued"), "\(ready)")
        // By READY the socket already answered: nothing to wait for.
        #expect(daemon.statusReply() != nil)
        #expect(daemon.log.contains("ready "), "\(daemon.log)")
        var pings = 0
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline, pings < 5 {
            if notify.receive(until: { $0 == "WATCHDOG=1" }, seconds: 1) != nil { pings += 1 }
        }
        #expect(pings >= 5, "the watchdog pings while the box answers: \(daemon.log)")
        #expect(daemon.wait(seconds: 30) { daemon.log.contains("first sound") }, "\(daemon.log)")
        daemon.send(SIGTERM)
        #expect(notify.receive(until: { $0.contains("STOPPING=1") }, seconds: 30) != nil)
        #expect(daemon.waitForExit(seconds: 30))
    }

    @Test func aPlayerThatStopsAnsweringStopsThePings() throws {
        let pings = ConditionLocked(0)
        let playerAnswers = ConditionLocked(true)
        let watchdog = WatchdogService(
            interval: 200_000_000, logger: .init(label: "test"),
            askPlayer: { answer in if playerAnswers.current { answer() } },
            audioThreadSeen: { MonotonicClock.now() },
            ping: { pings.withLock { $0.wholeValue += 1 } })
        watchdog.start { _ in }
        defer { watchdog.stop() }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(pings.current >= 3)
        playerAnswers.withLock { $0.wholeValue = false }
        Thread.sleep(forTimeInterval: 0.15)
        let stalledAt = pings.current
        Thread.sleep(forTimeInterval: 0.5)
        #expect(pings.current == stalledAt, "no ping while the player does not answer")
        playerAnswers.withLock { $0.wholeValue = true }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(pings.current > stalledAt, "pings again once it answers")
    }

    @Test func theJudgementNamesWhatIsLateOnce() {
        var check = WatchdogCheck(interval: 1_000_000_000)
        let s: UInt64 = 1_000_000_000
        #expect(check.judge(now: 10 * s, audioThreadSeen: 10 * s) == .alive)
        check.playerAnswered(at: 10 * s + 1)
        #expect(check.judge(now: 11 * s, audioThreadSeen: 11 * s) == .alive)
        // Asked at 11 s, never answered.
        #expect(check.judge(now: 12 * s, audioThreadSeen: 12 * s) == .late("player", silentFor: s, firstTime: true))
        #expect(check.judge(now: 13 * s, audioThreadSeen: 13 * s) == .late("player", silentFor: s, firstTime: false))
        check.playerAnswered(at: 13 * s + 1)
        #expect(check.judge(now: 14 * s, audioThreadSeen: 14 * s) == .alive)
        check.playerAnswered(at: 14 * s + 1)
        // The audio thread last went round 2 s ago: stuck.
        #expect(check.judge(now: 15 * s, audioThreadSeen: 13 * s) == .late("audio thread", silentFor: 2 * s, firstTime: true))
    }
}

/// A unix datagram socket that collects what `sd_notify` sends.
private final class NotifySocket {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The first message that `matches`, waiting at most `seconds`.
    func receive(until matches: (String) -> Bool, seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let message = String(decoding: buffer.prefix(count), as: UTF8.self)
            if matches(message) { return message }
        }
        return nil
    }
}
