import Foundation
import Testing
@testable import JukeboxCore

/// A bad network, made for real: a network namespace of the test's own (traffic stays on
/// this machine), with nginx and the daemon inside it on the namespace's loopback, a
/// token-bucket throttle to 64 kbit/s on that link, and the link cut mid-track and brought
/// back. The daemon keeps answering its socket throughout, buffers, and finishes the track,
/// whose cached copy is the file, byte for byte.
@Suite(.serialized) struct NetworkFaultTests {
    /// A namespace with its loopback up; removed by `deinit`.
    final class Namespace {
        let name = "jukebox-test-\(getpid())"
        init() throws {
            _ = try? Tools.run("ip", ["netns", "del", name], check: false)
            try Tools.run("ip", ["netns", "add", name])
            try run(["ip", "link", "set", "lo", "up"])
        }
        deinit { _ = try? Tools.run("ip", ["netns", "del", name], check: false) }

        @discardableResult
        func run(_ command: [String]) throws -> Tools.Output {
            try Tools.run("ip", ["netns", "exec", name] + command)
        }
    }

    @Test func aThrottledAndCutLinkBuffersResumesAndKeepsTheFile() throws {
        let net = try Namespace()
        let folder = try Fixtures.shared.scratchFolder("netns-web")
        let song = "\(folder)/music.mp3"
        if !FileManager.default.fileExists(atPath: song) { try FileManager.default.copyItem(atPath: Fixtures.shared.path("music.mp3"), toPath: song) }
        let server = try WebServer(serving: folder, inside: net.name)
        // 64 kbit/s: less than the song's own rate, so it has to wait.
        // (Ethernet's packet size: a token bucket never passes a packet larger than its burst,
        // and loopback's are 64 KiB.)
        try net.run(["ip", "link", "set", "lo", "mtu", "1500"])
        try net.run(["tc", "qdisc", "add", "dev", "lo", "root", "tbf", "rate", "64kbit", "burst", "8kb", "latency", "500ms"])

        let cache = Fixtures.shared.path("netns-cache")
        try? FileManager.default.removeItem(atPath: cache)
        let config = Fixtures.shared.path("netns.toml")
        try """
            [playback]
            autoplay = false
            [control]
            keyboard = false
            [network]
            cache_dir = "\(cache)"
            prebuffer_seconds = 1
            timeout_seconds = 2
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let (music, _) = try Fixtures.shared.sineFolder("netns", seconds: 2)
        let daemon = try RunningDaemon(name: "netns", config: config, musicDirectory: music, device: "null-sink", inside: net.name)
        func status() -> String { daemon.ctl(["status"]) ?? "" }
        #expect(daemon.wait(seconds: 20) { status().contains("volume") })
        let url = server.url("music.mp3")
        _ = daemon.ctl(["clear"])
        _ = daemon.ctl(["add", url])
        _ = daemon.ctl(["play"])

        var seen = ""
        #expect(daemon.wait(seconds: 30) {
            seen = status()
            return seen.contains("buffering: 1")
        }, "a 64 kbit/s link never made it wait: \(seen)\n\(daemon.log)")

        // The link goes down mid-track: the socket still answers at once, the log says why.
        try net.run(["ip", "link", "set", "lo", "down"])
        #expect(daemon.wait(seconds: 30) { daemon.log.contains("\(url): ") && daemon.log.contains("; retrying") }, "\(daemon.log)")
        #expect(daemon.ctl(["ping"]) != nil, "the control socket stopped answering")
        #expect(status().contains("state: play"))
        try net.run(["ip", "link", "set", "lo", "up"])

        // Back: it resumes where it stopped, plays to the end, and keeps the whole file.
        #expect(daemon.wait(seconds: 60) { status().contains("state: stop") }, "\(status())\n\(daemon.log)")
        #expect(daemon.isRunning)
        let kept = DownloadCache(settings: .init(folder: cache)).complete(url)
        #expect(kept.map { FileManager.default.contents(atPath: $0.path) } == FileManager.default.contents(atPath: song), "\(daemon.log)")
        #expect(server.requests.contains { $0.hasPrefix("GET /music.mp3") && $0.hasSuffix(" 206") }, "\(server.requests)")
    }
}
