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

    /// A DNS server that never answers (a socket on its port that reads nothing): the URL
    /// is given up once the timeout has passed, and the reason names DNS. Then a local
    /// track queued after it plays. (The time from `play` to the reason is printed.)
    @Test func aSilentDNSServerIsNamedAfterTheTimeout() throws {
        let net = try Namespace()
        let silent = Process()
        silent.executableURL = URL(fileURLWithPath: try Tools.path(of: "ip"))
        silent.arguments = ["netns", "exec", net.name, try Tools.path(of: "python3"), "-c",
                            "import socket, time; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(('127.0.0.1', 53)); print('ready', flush=True); time.sleep(90)"]
        let ready = Pipe()
        silent.standardOutput = ready
        try silent.run()
        defer {
            kill(silent.processIdentifier, SIGKILL)
            silent.waitUntilExit()
        }
        #expect(String(decoding: ready.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("ready"))
        // `ip netns exec` puts /etc/netns/NAME/resolv.conf in place of /etc/resolv.conf.
        let etc = "/etc/netns/\(net.name)"
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: etc) }
        try "nameserver 127.0.0.1\noptions timeout:5 attempts:2\n".write(toFile: "\(etc)/resolv.conf", atomically: true, encoding: .utf8)

        let config = Fixtures.shared.path("silent-dns.toml")
        try "[playback]\nautoplay = false\n[control]\nkeyboard = false\n[network]\ncache_dir = \"\"\ntimeout_seconds = 2\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let (music, track) = try Fixtures.shared.sineFolder("silent-dns", seconds: 2)
        let daemon = try RunningDaemon(name: "silent-dns", config: config, musicDirectory: music, device: "null-sink", inside: net.name)
        #expect(daemon.wait(seconds: 20) { (daemon.ctl(["status"]) ?? "").contains("volume") })
        let url = "http://radio.jukebox-test.example/stream.mp3"
        _ = daemon.ctl(["clear"])
        _ = daemon.ctl(["add", url])
        _ = daemon.ctl(["add", (track as NSString).lastPathComponent])
        let began = Date()
        _ = daemon.ctl(["play"])
        let reason = "\(url): the DNS server gave no answer for radio.jukebox-test.example within 2 s"
        #expect(daemon.wait(seconds: 60) { daemon.log.contains(reason) }, "\(daemon.log)")
        print("silent DNS, 2 s timeout: named after \(String(format: "%.1f", Date().timeIntervalSince(began))) s")
        #expect(daemon.wait(seconds: 30) { daemon.log.contains("playing 2/2") }, "\(daemon.log)")
    }
}
