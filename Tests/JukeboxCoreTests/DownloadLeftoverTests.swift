import Foundation
import Testing
@testable import JukeboxCore

/// What an unfinished download leaves for the next play of its URL: after a skip and
/// after a power cut, only the missing bytes are asked for, the copy comes out exact, and
/// a leftover of another file is never used.
extension NetworkPlaybackTests {
    func head(_ lines: [String]) -> HTTPResponseHead {
        var head = HTTPResponseHead()
        for line in lines { head.take(line: line + "\r\n") }
        return head
    }

    @Test func aLeftoverRecordIsReadOnlyWhenWholeAndUsedOnlyForTheSameFile() {
        var arrived = ByteRanges()
        arrived.insert(0..<1000)
        arrived.insert(4000..<5000)
        let leftover = DownloadCache.Leftover(entry: .init(url: "http://nas/a.flac", length: 8000, etag: "\"x\"", lastModified: nil), arrived: arrived)
        #expect(DownloadCache.Leftover(text: leftover.text) == leftover)
        #expect(DownloadCache.Leftover(text: String(leftover.text.dropLast(4))) == nil, "cut before its end line")
        #expect(DownloadCache.Leftover(text: leftover.text.replacingOccurrences(of: "4000-5000", with: "4000-9000")) == nil, "past the file's end")
        #expect(DownloadCache.Leftover(text: "garbage\n\u{0}end\n") == nil)
        let nothingYet = DownloadCache.Leftover(entry: leftover.entry, arrived: ByteRanges())
        #expect(DownloadCache.Leftover(text: nothingYet.text) == nothingYet)

        let range = "Content-Range: bytes 1000-7999/8000"
        #expect(leftover.isSameFile(as: head(["HTTP/1.1 206 Partial Content", range, "ETag: W/\"x\""])))
        #expect(!leftover.isSameFile(as: head(["HTTP/1.1 206 Partial Content", range, "ETag: \"y\""])))
        #expect(!leftover.isSameFile(as: head(["HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-8999/9000", "ETag: \"x\""])))
        #expect(!leftover.isSameFile(as: head(["HTTP/1.1 206 Partial Content", range])), "nothing tells it is the same file")
        var dated = leftover
        dated.entry = .init(url: "http://nas/a.flac", length: 8000, etag: nil, lastModified: "Wed, 25 Nov 2026 02:32:09 GMT")
        #expect(dated.isSameFile(as: head(["HTTP/1.1 206 Partial Content", range, "Last-Modified: Wed, 25 Nov 2026 02:32:09 GMT"])))
        #expect(!dated.isSameFile(as: head(["HTTP/1.1 206 Partial Content", range, "Last-Modified: Thu, 26 Nov 2026 02:32:09 GMT"])))
    }

    /// Runs `stop`, which ends a transfer under way, and waits until the server has logged
    /// it (nginx logs a request when it ends).
    func stopping(_ server: WebServer, _ stop: () -> Void) {
        let logged = server.rangeRequests.count
        stop()
        for _ in 0..<500 where server.rangeRequests.count == logged { usleep(10_000) }
    }

    /// The ranges the server was asked for after `count` earlier requests.
    func asked(_ server: WebServer, after count: Int) -> [String] { Array(server.rangeRequests.dropFirst(count)) }

    /// The first byte `url`'s leftover in `cache` lacks, once it is there.
    func leftoverGap(_ cache: DownloadCache, _ url: String) throws -> Int64 {
        let record = cache.completePath(for: url) + ".partial.ranges"
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: record) { usleep(10_000) }
        let text = try String(contentsOfFile: record, encoding: .utf8)
        let leftover = try #require(DownloadCache.Leftover(text: text), "\(text)")
        return try #require(leftover.arrived.firstMissing(from: 0, below: leftover.entry.length))
    }

    func expectExactCopy(_ cache: DownloadCache, _ url: String, of file: String) {
        var copy: (path: String, entry: DownloadCache.Entry)?
        for _ in 0..<300 where copy == nil {
            copy = cache.complete(url)
            usleep(10_000)
        }
        #expect(copy.map { FileManager.default.contents(atPath: $0.path) } == FileManager.default.contents(atPath: file))
        #expect(!FileManager.default.fileExists(atPath: cache.completePath(for: url) + ".partial"), "the leftover became the copy")
        let records = ((try? FileManager.default.contentsOfDirectory(atPath: cache.settings.folder)) ?? []).filter { $0.hasSuffix(".ranges") }
        #expect(records.isEmpty, "a complete copy needs no record: \(records)")
    }

    @Test func aTrackSkippedHalfwayDownloadsOnlyTheRestNextTime() throws {
        let (server, folder) = try served(slowRate: 48 << 10)
        let cache = try cache("skipped")
        let url = server.url("slow/music16.flac")
        var skipped: HTTPSource? = try HTTPSource(url: url, cache: cache)
        try skipped?.prebuffer(bytes: 80_000)
        stopping(server) { skipped = nil }  // skipped: the download stops, and what arrived stays
        let gap = try leftoverGap(cache, url)
        let before = server.rangeRequests.count
        let again = try HTTPSource(url: url, cache: cache)
        try expectSame(decoded(again), AudioFile.open(Fixtures.shared.path("music16.flac")).readAll())
        let later = asked(server, after: before)
        #expect(gap >= 80_000 && later.first == "GET /slow/music16.flac 206 bytes=\(gap)-", "\(later)")
        #expect(!later.contains { $0.hasSuffix(" -") || $0.hasSuffix("bytes=0-") }, "nothing again from the start: \(later)")
        expectExactCopy(cache, url, of: "\(folder)/music16.flac")
    }

    /// The disk as a power cut leaves it, copied while the download runs: the file and
    /// the last record of what reached it. The next start finds the leftover and the
    /// download goes on from there.
    @Test func aDownloadCutByAPowerCutGoesOnAfterTheRestart() throws {
        let (server, folder) = try served(slowRate: 24 << 10)
        let cache = try cache("power-cut")
        let url = server.url("slow/music16.flac")
        var running: HTTPSource? = try HTTPSource(url: url, cache: cache)
        var record: String?
        for _ in 0..<1000 where record == nil {
            record = try FileManager.default.contentsOfDirectory(atPath: cache.settings.folder).first { $0.hasSuffix(".part.ranges") }
            usleep(10_000)
        }
        let recordName = try #require(record, "no record within 10 s")
        #expect(running?.buffered.complete == false, "cut mid-download")
        let rebooted = try self.cache("power-cut-after")
        let partName = String(recordName.dropLast(".ranges".count))
        for name in [recordName, partName] {  // the record first: the file only grows
            try FileManager.default.copyItem(atPath: "\(cache.settings.folder)/\(name)", toPath: "\(rebooted.settings.folder)/\(name)")
        }
        try "stray".write(toFile: "\(rebooted.settings.folder)/\(cache.name(for: url)).77-1.part", atomically: false, encoding: .utf8)
        stopping(server) { running = nil }
        rebooted.tidyLeftovers()
        let left = try FileManager.default.contentsOfDirectory(atPath: rebooted.settings.folder).sorted()
        #expect(left == ["\(cache.name(for: url)).partial", "\(cache.name(for: url)).partial.ranges"], "\(left)")
        let gap = try leftoverGap(rebooted, url)
        let before = server.rangeRequests.count
        let resumed = try HTTPSource(url: url, cache: rebooted)
        try expectSame(decoded(resumed), AudioFile.open(Fixtures.shared.path("music16.flac")).readAll())
        let later = asked(server, after: before)
        #expect(gap > 0 && later.first?.hasPrefix("GET /slow/music16.flac 206 bytes=\(gap)-") == true, "\(later)")
        #expect(!later.contains { $0.hasSuffix(" -") || $0.hasSuffix("bytes=0-") }, "\(later)")
        expectExactCopy(rebooted, url, of: "\(folder)/music16.flac")
    }

    /// The box killed mid-download (SIGKILL, as close to a power cut as a host test gets):
    /// started again, it plays the track on, and the download asks only for what had not
    /// reached the disk.
    @Test func theBoxKilledMidDownloadAsksOnlyForTheRestOnceBack() throws {
        let (server, folder) = try served(slowRate: 24 << 10)
        let fx = Fixtures.shared
        let home = try fx.scratchFolder("killed-download")
        let stateFile = "\(home)/state"
        let cacheFolder = "\(home)/cache"
        for leftover in [stateFile, stateFile + ".prev", stateFile + ".queue.m3u", cacheFolder] { try? FileManager.default.removeItem(atPath: leftover) }
        let config = fx.path("killed-download.toml")
        try "[playback]\nautoplay = true\n[state]\ninterval = 1\n[control]\nkeyboard = false\n[network]\ncache_dir = \"\(cacheFolder)\"\nprebuffer_seconds = 1\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let (music, _) = try fx.sineFolder("killed-download", seconds: 2)
        let url = server.url("slow/music16.flac")
        func start() throws -> RunningDaemon {
            try RunningDaemon(name: "killed-download", config: config, musicDirectory: music, device: NullOutput.deviceName, stateFile: stateFile)
        }
        func playing(_ daemon: RunningDaemon) -> Bool {
            (daemon.ctl(["currentsong"]) ?? "").hasPrefix("file: \(url)\n") && (daemon.ctl(["status"]) ?? "").contains("state: play")
        }
        let first = try start()
        #expect(first.wait(seconds: 20) { first.ctl(["status"]) != nil }, "\(first.log)")
        for command in [["clear"], ["add", url], ["play"]] { #expect(first.ctl(command) != nil, "\(command)") }
        #expect(first.wait(seconds: 20) { playing(first) }, "\(first.log)")
        var recorded = false
        #expect(first.wait(seconds: 20) {
            recorded = ((try? FileManager.default.contentsOfDirectory(atPath: cacheFolder)) ?? []).contains { $0.hasSuffix(".part.ranges") }
            return recorded
        })
        Thread.sleep(forTimeInterval: 1)  // the state file has the track
        stopping(server) { first.send(SIGKILL) }
        #expect(first.waitForExit(seconds: 10))

        let before = server.rangeRequests.count
        let second = try start()
        #expect(second.wait(seconds: 20) { playing(second) }, "\(second.log)")
        let cache = DownloadCache(settings: .init(folder: cacheFolder))
        #expect(second.wait(seconds: 30) { cache.complete(url) != nil }, "\(second.log)")
        let later = asked(server, after: before)
        let first206 = later.first.flatMap { $0.hasPrefix("GET /slow/music16.flac 206 bytes=") ? $0.split(separator: "=").last : nil }
        #expect(first206.flatMap { Int($0.dropLast()) }.map { $0 > 0 } == true, "\(later)")
        #expect(!later.contains { $0.hasSuffix(" -") || $0.hasSuffix("bytes=0-") }, "nothing again from the start: \(later)")
        expectExactCopy(cache, url, of: "\(folder)/music16.flac")
        second.send(SIGTERM)
        #expect(second.waitForExit(seconds: 10))
    }

    /// The file changed on the server since the leftover was made (rewritten in place with
    /// another date, or shortened so that the missing bytes are past its end): the
    /// leftover's bytes are not used, and the copy is the new file's.
    @Test(arguments: ["rewritten", "shortened"])
    func aLeftoverOfAFileThatChangedIsNotUsed(_ change: String) throws {
        let (server, folder) = try served(slowRate: 48 << 10)
        let cache = try cache("changed-leftover")
        var (name, bytes) = try servedCopy("leftover", in: folder)
        defer { try? FileManager.default.removeItem(atPath: "\(folder)/\(name)") }
        let url = server.url("slow/\(name)")
        var skipped: HTTPSource? = try HTTPSource(url: url, cache: cache)
        try skipped?.prebuffer(bytes: 80_000)
        skipped = nil
        _ = try leftoverGap(cache, url)
        if change == "shortened" {
            bytes = Array(bytes.prefix(50_000))  // asked from the leftover's gap on, it answers 416
        } else {
            for at in stride(from: 1000, to: 60_000, by: 1) { bytes[at] ^= 0x5A }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/\(name)"))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: "\(folder)/\(name)")
        let source = try HTTPSource(url: url, cache: cache)
        try expectSame(source.read(at: 0, count: bytes.count), bytes)
        expectExactCopy(cache, url, of: "\(folder)/\(name)")
    }

    /// Two unfinished downloads of one URL (the playing track and the next, the same URL)
    /// leave one leftover: the one with more bytes.
    @Test func oneURLKeepsOneLeftoverTheLargest() throws {
        let cache = try cache("tidy")
        let folder = cache.settings.folder
        let url = "http://nas.local/a.flac"
        let name = cache.name(for: url)
        func leave(_ file: String, bytes: Int64, record: Bool = true) throws {
            try Data(count: 8000).write(to: URL(fileURLWithPath: "\(folder)/\(file)"))
            var arrived = ByteRanges()
            arrived.insert(0..<bytes)
            let leftover = DownloadCache.Leftover(entry: .init(url: url, length: 8000, etag: "\"e\"", lastModified: nil), arrived: arrived)
            if record { try leftover.text.write(toFile: "\(folder)/\(file).ranges", atomically: false, encoding: .utf8) }
        }
        try leave("\(name).10-1.part", bytes: 3000)
        try leave("\(name).10-2.part", bytes: 5000)
        try leave("\(name).partial", bytes: 4000)
        try leave("0123456789abcdef.11-1.part", bytes: 100, record: false)  // no record: nothing to trust
        try "url http://nas.local/b.flac\n".write(toFile: "\(folder)/fedcba9876543210.partial.ranges", atomically: false, encoding: .utf8)
        try "cut".write(toFile: "\(folder)/.\(name).partial.ranges.new", atomically: false, encoding: .utf8)
        cache.tidyLeftovers()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["\(name).partial", "\(name).partial.ranges"])
        #expect(try leftoverGap(cache, url) == 5000)
    }

    /// Tracks skipped one after another, none finished: their leftovers never hold more
    /// than the cache's cap on the card; the oldest goes first.
    @Test func leftoversStayUnderTheCap() throws {
        let (server, _) = try served(slowRate: 48 << 10)
        let folder = Fixtures.shared.path("cache-leftover-cap")
        try? FileManager.default.removeItem(atPath: folder)
        let capacity: Int64 = 400_000  // room for one of the two files, not both
        let cache = DownloadCache(settings: .init(folder: folder, capacity: capacity))
        #expect(cache.prepare() == nil)
        for name in ["music16.flac", "noseek16.flac"] {
            var skipped: HTTPSource? = try HTTPSource(url: server.url("slow/\(name)"), cache: cache)
            try skipped?.prebuffer(bytes: 40_000)
            stopping(server) { skipped = nil }
            _ = try leftoverGap(cache, server.url("slow/\(name)"))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        let total = try names.reduce(Int64(0)) { $0 + ((try FileManager.default.attributesOfItem(atPath: "\(folder)/\($1)")[.size] as? Int64) ?? 0) }
        #expect(total <= capacity, "\(names)")
        #expect(names.sorted() == ["\(cache.name(for: server.url("slow/noseek16.flac"))).partial",
                                   "\(cache.name(for: server.url("slow/noseek16.flac"))).partial.ranges"])
    }
}
