#if canImport(Glibc)
import Glibc
#endif

/// A track on a web server, read by a decoder while it downloads (`Download`): a read
/// waits until its bytes have arrived, telling the download where it reads so that a
/// seek ahead is fetched first. Waits are bounded steps that ask the decoder's
/// interruption check, so a stop or a seek never waits on the network.
///
/// A live stream (internet radio) has no length: `size` is unbounded, `isLive` is true,
/// and reads come from the download's ring in memory, in order. A file the server sends
/// without a length (chunked) has an unbounded `size` too until its end has arrived, then
/// its length: reads past the end then find it.
final class HTTPSource: MediaSource, NetworkFeed {
    let path: String
    let isLive: Bool
    /// What the server says the body is (`audio/mpeg`, `audio/x-scpls`…).
    let contentType: String?
    var interruption: DecodeInterruption?
    private let download: Download
    private let news = ConditionLocked(News())
    private struct News {
        var station: String?
        var listener: (@Sendable (StreamNews) -> Void)?
        /// Titles the reader has not reached yet, each with the place its song starts.
        var titles: [(text: String, place: Int64)] = []
        /// A title came already: the next one starts a new song, where the first named
        /// the one playing when the stream was joined.
        var titled = false
        var bytesPerSecond: Double?
    }

    /// Titles waiting for the reader, at most: a station that sends one every few bytes
    /// keeps only its latest ones.
    static let waitingTitles = 16

    /// Told when a read starts waiting for the network and when it has its bytes (on the
    /// reading thread): the player shows "buffering" meanwhile.
    var whileWaiting: ((Bool) -> Void)?

    /// The file's length; unbounded for a live stream, and for a file without a length
    /// until its end has arrived.
    var size: Int64 { isLive ? .max : download.progress.withLock { $0.wholeValue.length } }
    var lengthIsKnown: Bool { size != .max }
    var network: (any NetworkFeed)? { self }

    /// The bytes a second the track plays at, once the decoder knows: the pre-buffer's
    /// size, the buffered seconds, and the rate watch's floor go by it.
    var bytesPerSecond: Double? {
        get { news.withLock { $0.bytesPerSecond } }
        set {
            news.withLock { $0.bytesPerSecond = newValue }
            download.progress.withLock { $0.playRate = newValue.map { Int($0) } }
        }
    }

    /// How long a wait lasts before the interruption check is asked again.
    static let waitStepNanoseconds: UInt64 = 20_000_000

    /// Starts the download and waits for the server's answer, which gives the length.
    init(url: String, cache: DownloadCache?, limits: HTTPTransfer.Limits = .init(), interruption: DecodeInterruption? = nil) throws {
        path = url
        self.interruption = interruption
        let news = self.news
        download = try Download(url: url, cache: cache, limits: limits) { item, place in
            guard case .title(let title) = item else {
                news.withLock { $0.listener }?(item)
                return
            }
            news.withLock { n in
                n.titles.append((title, n.titled ? place : 0))
                n.titled = true
                if n.titles.count > Self.waitingTitles { n.titles.removeFirst() }
            }
        }
        do {
            let head = try Self.waitForHead(download, interruption: interruption)
            isLive = head.isLive
            contentType = head.contentType
            news.withLock { $0.station = head.icyName.flatMap { $0.isEmpty ? nil : $0 } }
        } catch {
            download.stop()
            throw error
        }
    }

    deinit { download.stop() }

    /// The bytes are not what the decoder takes: the download stops, and no copy of them is kept.
    func spoil() { download.spoil() }

    /// Hears the station's name (at once, if known) and the network's trouble from now on
    /// (on the download's thread). Titles are not told here: they go with the audio they
    /// name (`titleReached`).
    func listen(_ listener: @escaping @Sendable (StreamNews) -> Void) {
        let station = news.withLock { n in
            n.listener = listener
            return n.station
        }
        if let station { listener(.station(station)) }
    }

    /// The latest title whose song the reader has reached, once: the audio read from
    /// here on is that song's. A live stream's titles come with the bytes, seconds ahead
    /// of the listener; the decoder hands each on with the audio it decodes next.
    func titleReached() -> String? {
        guard isLive else { return nil }
        let reader = download.progress.withLock { $0.wanted }
        return news.withLock { n in
            guard let reached = n.titles.lastIndex(where: { $0.place <= reader }) else { return nil }
            defer { n.titles.removeFirst(reached + 1) }
            return n.titles[reached].text
        }
    }

    /// What the download has now: how much is here ahead of the reader, whether the rest
    /// is all here, and any problem.
    var buffered: (bytes: Int64, complete: Bool, problem: NetworkError?) {
        download.progress.withLock { p in
            let ahead = p.live.map { $0.end - p.wanted } ?? p.arrived.available(from: p.wanted)
            let complete = p.complete || (p.live == nil && p.wanted + ahead >= p.wholeValue.length)
            return (ahead, complete, p.problem)
        }
    }

    /// Waits until `bytes` are here ahead of the reader (or all there is, or the download
    /// failed, which the next read reports): the pre-buffer before a track starts. One
    /// that takes longer than the audio it holds lasts (the network is slower than the
    /// track) shows as buffering, as a wait mid-track does.
    func prebuffer(bytes: Int64) throws {
        let began = MonotonicClock.now()
        let lasts = UInt64(max(1, Double(bytes) / (bytesPerSecond ?? .infinity)) * 1e9)
        var flagged = false
        defer { if flagged { whileWaiting?(false) } }
        try download.progress.withLock { p in
            while p.failure == nil, !p.complete {
                let ahead = p.live.map { $0.end - p.wanted } ?? p.arrived.available(from: p.wanted)
                if ahead >= bytes || (p.live == nil && p.wanted + ahead >= p.wholeValue.length) { return }
                if interruption?() == true { throw DecodeInterrupted() }
                if !flagged, MonotonicClock.now() - began > lasts {
                    flagged = true
                    whileWaiting?(true)
                }
                p.wait(nanoseconds: Self.waitStepNanoseconds)
            }
        }
    }

    private static func waitForHead(_ download: Download, interruption: DecodeInterruption?) throws -> HTTPResponseHead {
        try download.progress.withLock { p in
            while true {
                if let failure = p.failure { throw MediaError.network(download.url, failure.reason) }
                if let head = p.head { return head }
                if interruption?() == true { throw DecodeInterrupted() }
                p.wait(nanoseconds: waitStepNanoseconds)
            }
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        if isLive {
            // From the ring, in memory; a reader that fell behind the ring skips ahead.
            return try whenArrived(at: offset) { p in
                guard let got = p.live?.read(from: offset, into: buffer), got.count > 0 else { return nil }
                p.wanted = got.from + Int64(got.count)
                return got.count
            }
        }
        let count = try whenArrived(at: offset) { p in
            if offset >= p.wholeValue.length { return 0 }  // the end: known, or learnt while waiting
            let here = p.arrived.available(from: offset)
            return here > 0 ? Int(min(Int64(buffer.count), here)) : nil
        }
        guard count > 0 else { return 0 }
        do {
            return try systemCall { pread(download.fd, buffer.baseAddress!, count, off_t(offset)) }
        } catch {
            throw MediaError.unreadable(path, "the downloaded bytes cannot be read back: \(error)")
        }
    }

    /// Tells the download where the reader is, then waits until `take` finds bytes there:
    /// in bounded steps that ask the interruption check, telling `whileWaiting` when a wait
    /// starts and ends. Throws the download's failure once it has given up.
    private func whenArrived<T>(at offset: Int64, _ take: (ConditionLocked<Download.Progress>.Access) -> T?) throws -> T {
        var waited = false
        defer { if waited { whileWaiting?(false) } }
        return try download.progress.withLock { p in
            if p.wanted != offset {
                p.wanted = offset
                p.broadcast()
            }
            while true {
                if let found = take(p) { return found }
                if let failure = p.failure { throw MediaError.network(path, failure.reason) }
                if interruption?() == true { throw DecodeInterrupted() }
                if !waited {
                    waited = true
                    whileWaiting?(true)
                }
                p.wait(nanoseconds: Self.waitStepNanoseconds)
            }
        }
    }
}
