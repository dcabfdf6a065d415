import Foundation
import Testing
@testable import JukeboxCore

/// Network playback against real servers spoilt on purpose (issue 33): nginx and Icecast
/// behind a fault proxy on loopback (`FaultProxy`), and canned replies no server should
/// send. Files without a length, stations whose source drops, bad copies in the cache,
/// SHOUTcast's status line, bytes held back, trickles, and the messages each one gets.
@Suite(.serialized) struct NetworkHardeningTests {
    /// nginx serving the fixtures, and an MP3 that is an HTML error page.
    func served() throws -> (WebServer, String) {
        let folder = try Fixtures.shared.scratchFolder("web-hardening")
        for name in ["music16.flac", "music.mp3", "cbr.mp3"] where !FileManager.default.fileExists(atPath: "\(folder)/\(name)") {
            try FileManager.default.copyItem(atPath: Fixtures.shared.path(name), toPath: "\(folder)/\(name)")
        }
        return (try WebServer(serving: folder), folder)
    }

    func cache(_ name: String) throws -> DownloadCache {
        let folder = Fixtures.shared.path("cache-hardening-\(name)")
        try? FileManager.default.removeItem(atPath: folder)
        let cache = DownloadCache(settings: .init(folder: folder, capacity: 64 << 20))
        #expect(cache.prepare() == nil)
        return cache
    }

    func failure(_ open: () throws -> Any) -> String {
        do {
            _ = try open()
            return "opened"
        } catch {
            return "\(error)"
        }
    }

    /// An interruption check that gives up after `seconds`: a bound on a wait that must end.
    func deadline(_ seconds: Double) -> DecodeInterruption {
        let end = Date().addingTimeInterval(seconds)
        return { Date() > end }
    }

    // MARK: 18. A body without a length

    /// A file sent chunked ends cleanly: it is a file, played once to its end (not a live
    /// stream fetched again at each "end"), decoded like the local one, and kept.
    @Test(arguments: ["music.mp3", "music16.flac"])
    func aChunkedFileIsAFilePlayedOnce(_ name: String) throws {
        let (server, folder) = try served()
        let proxy = try FaultProxy(to: server.port, .init(chunked: true))
        let cache = try cache("chunked")
        let network = NetworkPlayback(cache: cache)
        let url = proxy.url(name)
        let local = try AudioFile.open(Fixtures.shared.path(name)).readAll()
        let decoder = try AudioFile.open(url, network: network)
        let stream = try #require(decoder.source as? HTTPSource)
        #expect(!stream.isLive, "a chunked file taken for live radio")
        // More than the file holds is asked for: a stream that starts again would give it.
        let remote = try decoder.readAll(maxFrames: Int64(local.count / 4) + 5 * 44_100)
        expectSame(remote, local, name)
        #expect(server.requests.filter { $0.hasPrefix("GET /\(name)") }.count == 1, "\(server.requests)")
        var copy: (path: String, entry: DownloadCache.Entry)?
        for _ in 0..<300 where copy == nil {
            copy = cache.complete(url)
            usleep(10_000)
        }
        #expect(copy.flatMap { FileManager.default.contents(atPath: $0.path) } == FileManager.default.contents(atPath: "\(folder)/\(name)"))
    }

    // MARK: 18, 19, 21. Icecast

    /// Icecast's own `/mount.m3u` (a playlist type, no length) plays the station; a station
    /// whose source drops (Icecast answers 404 meanwhile) is waited for and plays on when
    /// the source is back; a SHOUTcast v1 status line (`ICY 200 OK`) plays too.
    @Test func anIcecastStationPlaysThroughItsPlaylistItsDropsAndAnICYStatusLine() throws {
        let icecast = try IcecastServer()
        let cbr = Fixtures.shared.path("cbr.mp3")
        var source = try IcecastSource(to: icecast, mount: "/radio.mp3", playing: cbr)
        let mount = icecast.url("/radio.mp3")

        let viaPlaylist = try AudioFile.open(icecast.url("/radio.mp3.m3u"), interruption: deadline(30))
        let listed = try #require(viaPlaylist.source as? HTTPSource)
        #expect(listed.isLive && listed.path == mount, "\(listed.path)")
        #expect(try viaPlaylist.readAll(maxFrames: 44_100).count == 44_100 * 4)

        let shoutcast = try FaultProxy(to: icecast.port, .init(statusLine: "ICY 200 OK"))
        let icy = try AudioFile.open(shoutcast.url("/radio.mp3"), interruption: deadline(30))
        #expect((icy.source as? HTTPSource)?.isLive == true)
        #expect(try icy.readAll(maxFrames: 44_100).count == 44_100 * 4)

        let decoder = try AudioFile.open(mount, interruption: deadline(30))
        let stream = try #require(decoder.source as? HTTPSource)
        #expect(try decoder.readAll(maxFrames: 44_100).count == 44_100 * 4)
        source.stop()
        var problem: NetworkError?
        for _ in 0..<1500 where problem != .status(url: mount, code: 404) {
            problem = stream.buffered.problem
            usleep(20_000)
        }
        #expect(problem == .status(url: mount, code: 404), "\(String(describing: problem))\n\(icecast.log)")
        source = try IcecastSource(to: icecast, mount: "/radio.mp3", playing: cbr)
        // Past what the ring held before the drop: these frames came after it.
        decoder.interruption = deadline(60)
        #expect(try decoder.readAll(maxFrames: 10 * 44_100).count == 10 * 44_100 * 4)
        #expect(stream.buffered.problem == nil)
        source.stop()
    }

    /// The daemon with a queue of a chunked MP3, a URL that trickles at 1 byte a second and
    /// a local track: the first plays once and the player moves on, the trickle is given up
    /// with its reason in the log, and the local track plays. A FLAC whose pre-buffer comes
    /// slower than it plays shows `buffering: 1` while it waits.
    @Test func theDaemonMovesOnFromAChunkedFileAndATrickleAndFlagsASlowPrebuffer() throws {
        let (server, _) = try served()
        let chunked = try FaultProxy(to: server.port, .init(chunked: true))
        let trickle = try FaultProxy(to: server.port, .init(bodyBytesPerSecond: 1))
        let slow = try FaultProxy(to: server.port, .init(bodyBytesPerSecond: 8 << 10, fastBytes: 16 << 10))
        let config = Fixtures.shared.path("hardening.toml")
        try "[playback]\nautoplay = false\n[control]\nkeyboard = false\n[network]\ncache_dir = \"\"\ntimeout_seconds = 2\nprebuffer_seconds = 2\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let (music, track) = try Fixtures.shared.sineFolder("hardening", seconds: 1)
        let daemon = try RunningDaemon(name: "hardening", config: config, musicDirectory: music, device: "null-sink")
        func status() -> String { daemon.ctl(["status"]) ?? "" }
        #expect(daemon.wait(seconds: 20) { status().contains("volume") })
        _ = daemon.ctl(["clear"])
        _ = daemon.ctl(["add", chunked.url("music.mp3")])
        _ = daemon.ctl(["add", trickle.url("cbr.mp3")])
        _ = daemon.ctl(["add", (track as NSString).lastPathComponent])
        _ = daemon.ctl(["play"])
        #expect(daemon.wait(seconds: 60) { daemon.log.contains("playing 3/3") }, "\(daemon.log)")
        #expect(daemon.log.contains("\(trickle.url("cbr.mp3")): the network brings ") && daemon.log.contains("too slow to play"), "\(daemon.log)")
        #expect(server.requests.filter { $0.hasPrefix("GET /music.mp3") }.count == 1, "\(server.requests)")

        _ = daemon.ctl(["clear"])
        _ = daemon.ctl(["add", slow.url("music16.flac")])
        _ = daemon.ctl(["play"])
        var seen = ""
        #expect(daemon.wait(seconds: 30) {
            seen = status()
            return seen.contains("buffering: 1") && seen.contains("elapsed: 0.000")
        }, "\(seen)\n\(daemon.log)")
        _ = daemon.ctl(["stop"])
    }

    // MARK: 20. Bad copies in the cache

    /// An error page served as `audio/mpeg` is not kept as the URL's copy; a copy whose
    /// header was damaged on the card is dropped and the URL fetched again.
    @Test func aCopyThatDoesNotDecodeIsDroppedAndFetchedAgain() throws {
        let (server, folder) = try served()
        let cache = try cache("bad-copies")
        let network = NetworkPlayback(cache: cache)
        let page = "\(folder)/error-\(getpid()).mp3"
        defer { try? FileManager.default.removeItem(atPath: page) }
        try String(repeating: "<html><body>503 Service Unavailable, try later</body></html>\n", count: 40)
            .write(toFile: page, atomically: true, encoding: .utf8)
        let url = server.url((page as NSString).lastPathComponent)
        #expect(failure { try AudioFile.open(url, network: network) } != "opened")
        usleep(300_000)  // the download's thread has ended
        #expect(cache.complete(url) == nil, "the error page was kept as the track")
        // The real file comes back: it plays.
        try FileManager.default.removeItem(atPath: page)
        try FileManager.default.copyItem(atPath: Fixtures.shared.path("cbr.mp3"), toPath: page)
        expectSame(try AudioFile.open(url, network: network).readAll(), try AudioFile.open(Fixtures.shared.path("cbr.mp3")).readAll())

        // A FLAC, played once and kept; the card then damages the copy's header (its
        // STREAMINFO): the next play drops it and fetches the file again, and keeps that.
        let flac = server.url("music16.flac")
        let expected = try AudioFile.open(Fixtures.shared.path("music16.flac")).readAll()
        expectSame(try AudioFile.open(flac, network: network).readAll(), expected)
        let good = FileManager.default.contents(atPath: "\(folder)/music16.flac")
        func copied() -> Data? { cache.complete(flac).flatMap { FileManager.default.contents(atPath: $0.path) } }
        for _ in 0..<300 where copied() != good { usleep(10_000) }
        let kept = try #require(cache.complete(flac))
        let handle = try #require(FileHandle(forWritingAtPath: kept.path))
        try handle.write(contentsOf: Data(repeating: 0x55, count: 64))
        try handle.close()
        #expect(copied() != good)
        expectSame(try AudioFile.open(flac, network: network).readAll(), expected)
        for _ in 0..<300 where copied() != good { usleep(10_000) }
        #expect(copied() == good)
    }

    // MARK: 23. Bytes held back

    /// 200,000 bytes, then the server pauses: every one of them can be read during the
    /// pause, not when the next piece comes.
    @Test func whatHasArrivedIsReadableAtOnce() throws {
        let body = [UInt8]((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let pausing = try CannedServer(head: "HTTP/1.1 200 OK\nContent-Type: audio/mpeg\nContent-Length: 1000000\n", body: body)
        let source = try HTTPSource(url: pausing.url("a.mp3"), cache: nil, limits: .init(connectSeconds: 5, stallSeconds: 120),
                                    interruption: deadline(60))
        let got = try source.read(at: 0, count: body.count)
        #expect(got == body)
    }

    // MARK: 24, 28. Trickles, stalls and odd replies

    /// 1 byte a second, in the head or in the body: given up with the reason, not waited
    /// on for ever. (The time it takes is printed: 28 wants the timeout, not 15-17 s.)
    @Test(arguments: [true, false])
    func aTrickleIsGivenUpWithTheReason(inTheHead: Bool) throws {
        let (server, _) = try served()
        let fault: FaultProxy.Fault = inTheHead ? .init(headBytesPerSecond: 1) : .init(bodyBytesPerSecond: 1, fastBytes: 0)
        let proxy = try FaultProxy(to: server.port, fault)
        let url = proxy.url("cbr.mp3")
        let began = Date()
        let reason = failure {
            let source = try HTTPSource(url: url, cache: nil, limits: .init(connectSeconds: 2, stallSeconds: 2), interruption: deadline(90))
            return try source.read(at: 0, count: 64 << 10)
        }
        print("trickle in the \(inTheHead ? "head" : "body"): given up after \(String(format: "%.1f", Date().timeIntervalSince(began))) s: \(reason)")
        let expected = inTheHead ? "connected, but the server gave no answer within 2 s" : "too slow to play"
        #expect(reason.hasPrefix(url) && reason.contains(expected), "\(reason)")
    }

    @Test func aStallIsNamedAfterTheTimeout() throws {
        let flac = try Fixtures.shared.bytes("music16.flac")
        let stalling = try CannedServer(head: "HTTP/1.1 200 OK\nContent-Type: audio/flac\nContent-Length: \(flac.count)\n", body: Array(flac.prefix(40_000)))
        let source = try HTTPSource(url: stalling.url("a.flac"), cache: nil, limits: .init(connectSeconds: 2, stallSeconds: 2))
        _ = try source.read(at: 0, count: 40_000)
        let began = Date()
        var problem: NetworkError?
        for _ in 0..<3000 where problem == nil {
            problem = source.buffered.problem
            usleep(10_000)
        }
        print("stall of a 2 s timeout named after \(String(format: "%.1f", Date().timeIntervalSince(began))) s")
        #expect(problem == .stalled(url: stalling.url("a.flac"), seconds: 2))
    }

    /// A SHOUTcast v1 server's status line, `ICY 200 OK`: a live station like any other.
    @Test func aShoutcastStatusLinePlays() throws {
        let mp3 = try Fixtures.shared.bytes("cbr.mp3")
        let shoutcast = try CannedServer(head: "ICY 200 OK\nicy-name: Old FM\nContent-Type: audio/mpeg\n", body: mp3)
        let decoder = try AudioFile.open(shoutcast.url("stream"), interruption: deadline(30))
        #expect((decoder.source as? HTTPSource)?.isLive == true)
        #expect(try decoder.readAll(maxFrames: 44_100).count == 44_100 * 4)
    }

    /// Replies no HTTP server sends: another protocol, and a header line of megabytes.
    @Test func aReplyThatIsNotHTTPIsNamed() throws {
        let ssh = try CannedServer(head: "SSH-2.0-OpenSSH_9.2p1 Debian-2", body: [])
        #expect(failure { try AudioFile.open(ssh.url("a.mp3")) }.hasPrefix("\(ssh.url("a.mp3")): the server's reply is not HTTP"))
        let giant = try CannedServer(head: "HTTP/1.1 200 OK\nContent-Type: audio/mpeg\nX-Padding: \(String(repeating: "a", count: 4 << 20))\n", body: [])
        let reason = failure { try AudioFile.open(giant.url("a.mp3")) }
        #expect(reason.hasPrefix("\(giant.url("a.mp3")): the server sent a header line longer than libcurl takes"), "\(reason)")
    }
}
