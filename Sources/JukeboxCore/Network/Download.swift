#if canImport(Glibc)
import Glibc
#endif

/// Brings one URL's bytes into a file, on a thread of its own, for a reader that may be
/// ahead of it or behind it:
/// - from where the reader reads, so a seek past what has arrived asks for that byte
///   (a Range request) and the player waits only for it;
/// - after a drop, from where it stopped, with a growing pause between attempts;
/// - from the start, in order, once the server has shown it ignores ranges (it answered
///   a Range request with the whole file): a seek then waits for its bytes to come.
/// Once every byte is there (the length the server gave), the file becomes the cache's
/// complete copy. Until then, which bytes are on the disk is recorded every few seconds,
/// so a download that ends unfinished (a skip, a restart, a power cut) leaves them for the
/// next play of the URL, which asks only for the rest (DownloadLeftovers.swift). A body
/// without a length is a file too, whose length its clean end tells. A live stream
/// (internet radio: no length, and radio's marks) goes instead to a bounded ring in
/// memory, its in-band titles taken out, and is never kept; a drop reconnects to the
/// live point, and is waited out even while the station answers an error.
/// Nothing here ever waits on the reader.
final class Download: @unchecked Sendable {
    struct Progress {
        /// The first response's head: the length and the validators.
        var head: HTTPResponseHead?
        var arrived = ByteRanges()
        /// Where the reader reads now.
        var wanted: Int64 = 0
        /// The latest problem while it retries (the player shows "buffering").
        var problem: NetworkError?
        /// Given up: the reader gets this.
        var failure: NetworkError?
        /// A live stream's last bytes, once the first answer showed it has no length.
        var live: LiveRing?
        var complete = false
        /// The server answered a Range request with the whole file: every transfer runs
        /// from the first byte to the last, whatever is here already.
        var rangesIgnored = false
        /// What an earlier download of this URL left in the file, not in `arrived` until the
        /// server's first answer shows the same file.
        var leftover: DownloadCache.Leftover?
        /// The complete file is now the cache's copy.
        var kept = false
        var stopping = false
        /// The bytes a second the track plays at, once the decoder knows (the rate watch
        /// gives up on a link far below it).
        var playRate: Int?
        /// The bytes did not decode: they are not kept.
        var spoiled = false

        /// The file's length, unbounded while it is not known (a live stream, or a body
        /// without a length until it ends).
        var length: Int64 { head?.totalLength ?? .max }
    }

    let url: String
    /// The file the bytes go to, read by the reader at the same time.
    let fd: Int32
    let progress = ConditionLocked(Progress())
    private let cache: DownloadCache?
    /// The cache's `.part` file this download fills (none without a cache).
    private let part: String?
    private let limits: HTTPTransfer.Limits
    /// Told each title a live stream sends, and each new problem while it retries (on the
    /// download's thread). A title comes with its place in the live stream (`LiveRing`'s
    /// count of the audio before it: it names the audio from there on), and is told with
    /// `progress` locked, so the listener only takes note of it.
    private let onNews: @Sendable (StreamNews, _ place: Int64) -> Void
    /// A live stream's in-band metadata, per connection, and the last title it gave
    /// (stations repeat it in every block).
    private var demuxer: ICYDemuxer?
    private var lastTitle: String?
    /// When the bytes on the disk were last recorded (on the download's thread).
    private var lastRecorded = MonotonicClock.now()

    /// The largest file downloaded without a cache (to a temporary file).
    static let uncachedLimit: Int64 = 512 << 20

    /// What a live stream keeps in memory: about 25 s of 160 kbit/s radio.
    static let liveBytes = 512 << 10

    /// Attempts in a row without a byte before the download gives up: few before the
    /// server has ever answered (a dead URL is skipped in seconds), more once it has (a
    /// drop mid-track is waited out for about half a minute).
    static let attemptsBeforeAnAnswer = 3
    static let attemptsAfterAnAnswer = 8
    /// A reader ahead of the transfer by more than this, and by more than a second of the
    /// transfer's own rate, gets a transfer of its own from its byte: a new connection
    /// costs less than the wait.
    static let seekAheadBytes: Int64 = 32 << 10
    /// libcurl hands over 16 KiB at a time; the file gets them in writes this large (each
    /// write costs the filesystem about as much as its bytes do).
    static let writeBatch = 256 << 10
    /// How often the bytes on the disk are recorded: what a power cut can cost again.
    static let recordInterval: UInt64 = 4_000_000_000

    /// Starts the transfer. With a cache, the bytes go to its `.part` file; without one,
    /// to a temporary file that vanishes with the download.
    init(url: String, cache: DownloadCache?, limits: HTTPTransfer.Limits = .init(), onNews: @escaping @Sendable (StreamNews, Int64) -> Void = { _, _ in }) throws {
        self.url = url
        self.limits = limits
        self.onNews = onNews
        if let cache, cache.prepare() == nil {
            let part = cache.newPartPath(for: url)
            let leftover = cache.claimLeftover(for: url, into: part)
            do {
                // A leftover taken over is opened as it is, never through a link; else the file is new.
                fd = leftover == nil ? try AtomicFile.createFresh(part, readable: true)
                    : try systemCall { FilePath.withCString(part) { open($0, O_RDWR | O_NOFOLLOW | O_CLOEXEC) } }
            } catch {
                cache.removePair(part)
                cache.partEnded(part)
                throw error
            }
            if let leftover {
                cache.record(leftover, of: part)  // still there for the next run if this one gets nowhere
                progress.withLock { $0.leftover = leftover }
            }
            self.cache = cache
            self.part = part
        } else {
            var template = Array("/tmp/jukebox-download-XXXXXX".utf8CString)
            fd = try systemCall { template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) } }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            self.cache = nil
            part = nil
        }
        // Should the thread not start, deinit (which runs for a throwing init once every
        // property is set) closes the file and deals with the part.
        let thread = try WorkerThread.start(name: "jukebox-http") { [self] in run() }
        pthread_detach(thread)
    }

    deinit {
        close(fd)
        guard let cache, let part else { return }
        let (kept, failure, spoiled) = progress.withLock { ($0.kept, $0.failure, $0.spoiled) }
        if !kept {
            // What arrived waits for the next play, unless the server said the file is not there to be had.
            let unwanted = spoiled || failure.map { !$0.isTransient } ?? false
            if unwanted { cache.removePair(part) } else { cache.keepLeftover(part) }
        }
        cache.partEnded(part)
        cache.evict()  // skipped tracks' leftovers must not pile up past the cap
    }

    /// Ends the transfer soon (at libcurl's next progress call); the file stays as it is.
    func stop() {
        progress.withLock { p in
            p.stopping = true
            p.broadcast()
        }
    }

    /// The bytes did not decode: the transfer ends, and neither a copy nor a leftover of
    /// them stays (an error page sent as audio would fail every later play from the cache).
    func spoil() {
        let kept = progress.withLock { p in
            p.spoiled = true
            p.stopping = true
            p.broadcast()
            return p.kept
        }
        if kept { cache?.remove(url) }
    }

    // MARK: The thread

    private func run() {
        defer { recordArrived() }
        var attempt = 0
        while let start = nextStart() {
            do {
                if try fetch(from: start) { attempt = 0 } else { attempt += 1 }
            } catch {
                // A leftover longer than the file is now: it is another file's, and the rest starts afresh.
                if error == .status(url: url, code: 416), dropLeftover() { continue }
                attempt += 1
                let (giveUp, new) = progress.withLock { p in
                    // A timeout before any answer has already made the listener wait its
                    // length; once a live stream has played, every drop is waited out, even
                    // Icecast's 404 while the station's source is away.
                    let limit = p.head == nil ? (error.isTimeout ? 1 : Self.attemptsBeforeAnAnswer) : Self.attemptsAfterAnAnswer
                    let giveUp = !(error.isTransient || p.live != nil && error.mayMendOnALiveStation) || attempt >= limit
                    let new = !giveUp && p.problem != error
                    if giveUp { p.failure = error } else { p.problem = error }
                    p.broadcast()
                    return (giveUp, new)
                }
                if new { onNews(.problem(error), 0) }
                if giveUp { return }
            }
            if attempt > 0 { pause(before: attempt) }
        }
    }

    /// Where the next transfer starts: the first missing byte from the reader's place,
    /// else the first missing one at all; nil when complete or stopping.
    private func nextStart() -> Int64? {
        let (start, done): (Int64?, Bool) = progress.withLock { p in
            if p.stopping || p.complete || p.failure != nil { return (nil, false) }
            if p.live != nil { return (0, false) }  // a live stream starts where it is now
            if p.head == nil, let leftover = p.leftover {
                // The first request asks for what the leftover lacks (its last byte when it
                // lacks nothing): the answer tells whether the leftover is of the same file.
                let length = leftover.entry.length
                let start = leftover.arrived.firstMissing(from: min(p.wanted, length), below: length)
                    ?? leftover.arrived.firstMissing(from: 0, below: length)
                return (start ?? length - 1, false)
            }
            // A file whose server gave no length comes in order, again from its first missing byte after a drop.
            guard let length = p.head?.totalLength else { return (p.arrived.firstMissing(from: 0, below: .max), false) }
            let start = p.arrived.firstMissing(from: min(p.wanted, length), below: length)
                ?? p.arrived.firstMissing(from: 0, below: length)
            // A server without ranges sends the file from its start, whatever is asked.
            return (start == nil || !p.rangesIgnored ? start : 0, start == nil)
        }
        if done { finish() }
        return start
    }

    /// One transfer from `start`. True when it brought bytes.
    private func fetch(from start: Int64) throws(NetworkError) -> Bool {
        let run = TransferRun(start: start)
        var thrown: NetworkError?
        var stopped = false
        do {
            stopped = try HTTPTransfer.get(url, from: start, icy: true, limits: limits,
                                           onHead: { [self] in take(head: $0, run) },
                                           onBody: { [self] in take(body: $0, run) },
                                           shouldStop: { [self] () -> Bool in flushIfWaiting(run) || isStopping },
                                           neededBytesPerSecond: { [self] () -> Int in neededRate }).stopped
        } catch {
            thrown = error
        }
        // What is still pending goes to the file however the transfer ended.
        if let error = write(&run.pending), run.refusal == nil {
            run.refusal = .failed(url: url, reason: "cannot write the download: \(error)")
        }
        if let refusal = run.refusal { throw refusal }
        if let thrown { throw thrown }
        if !stopped, !run.brought {
            throw .failed(url: url, reason: "the connection closed before any audio arrived")
        }
        // A live stream that ends was cut: reconnect, after a pause, as after a drop.
        if run.live, !stopped { throw .failed(url: url, reason: "the stream ended") }
        if !stopped, !lengthFromTheEnd(of: run) {
            throw .failed(url: url, reason: "the connection closed before the end of the file")
        }
        return run.brought
    }

    /// A body without a length that ended cleanly was the whole file: its length is now
    /// known, and the download completes. False when bytes before its end are missing (a
    /// drop earlier left a hole this answer did not fill).
    private func lengthFromTheEnd(of run: TransferRun) -> Bool {
        progress.withLock { p in
            guard let head = p.head, head.totalLength == nil, !head.isLive else { return true }
            guard p.arrived.covers(0..<run.position) else { return false }
            p.head?.totalLength = run.position
            p.broadcast()
            return true
        }
    }

    /// One transfer's own state, shared by its callbacks (all on the download's thread).
    private final class TransferRun {
        let start: Int64
        let began = MonotonicClock.now()
        /// The file offset of the next byte to come.
        var position: Int64
        var pending: PendingWrite
        var brought = false
        var live = false
        var refusal: NetworkError?

        init(start: Int64) {
            self.start = start
            position = start
            pending = PendingWrite(start: start)
        }
    }

    /// The answer's head: refused, or taken (where its body starts, live or not).
    private func take(head: HTTPResponseHead, _ run: TransferRun) -> Bool {
        run.refusal = check(head)
        if run.refusal != nil { return false }
        run.position = head.status == 206 ? head.start : 0
        run.pending = PendingWrite(start: run.position)
        run.live = head.isLive
        demuxer = head.icyMetaInterval.flatMap { $0 > 0 ? ICYDemuxer(interval: $0) : nil }
        let (first, leftoverDropped) = progress.withLock { p in
            defer { if p.head == nil { p.head = head } }
            if run.start > 0, head.status != 206, head.totalLength != nil { p.rangesIgnored = true }
            if run.live, p.live == nil { p.live = LiveRing(capacity: Self.liveBytes) }
            var dropped = false
            if p.head == nil, let leftover = p.leftover {
                p.leftover = nil
                if leftover.isSameFile(as: head) { p.arrived = leftover.arrived } else { dropped = true }
            }
            return (p.head == nil, dropped)
        }
        // Another file now: its bytes are about to overwrite the record's.
        if leftoverDropped, let part { cache?.forgetRecord(of: part) }
        // The file's length (a longer leftover is cut to it) and its room, taken at once: a
        // full card is said now, not mid-track.
        if first, let length = head.totalLength, length > 0 {
            let status = ftruncate(fd, off_t(length)) == 0 ? posix_fallocate(fd, 0, off_t(length)) : errno
            if status != 0 {
                run.refusal = .failed(url: url, reason: "no room for the download (\(length >> 20) MiB): \(Errno(status))")
                return false
            }
            cache?.evict()  // room for it under the cap, now rather than when it completes
        }
        return true
    }

    /// A piece of the body: into the ring (live) or the file. False stops the transfer:
    /// the file is complete, it ran into bytes already here, or the reader went elsewhere.
    private func take(body bytes: UnsafeRawBufferPointer, _ run: TransferRun) -> Bool {
        run.brought = true
        if run.live { return takeLive(bytes) }
        if run.pending.bytes.isEmpty { run.pending.since = MonotonicClock.now() }
        run.pending.bytes.append(contentsOf: bytes)
        run.position += Int64(bytes.count)
        let (pending, position) = (run.pending.start, run.position)
        // Written in batches, but at once for a reader waiting on these bytes, and at least
        // every 50 ms so what has arrived is never far behind.
        let readerWaits = progress.withLock { $0.wanted >= pending && $0.wanted < position }
        if readerWaits || run.pending.bytes.count >= Self.writeBatch || MonotonicClock.now() - run.pending.since > 50_000_000 {
            if let error = write(&run.pending) {
                run.refusal = .failed(url: url, reason: "cannot write the download: \(error)")
                return false
            }
        }
        let unwritten = run.pending.start
        let bytesPerSecond = Double(position - run.start) * 1e9 / Double(max(1, MonotonicClock.now() - run.began))
        let cap = cache?.settings.capacity ?? Self.uncachedLimit
        return progress.withLock { p in
            if let length = p.head?.totalLength, position > length {
                run.refusal = .inconsistent(url: url, reason: "the server sent more than the \(length) bytes it announced")
                return false
            }
            if p.head?.totalLength == nil, position > cap {
                run.refusal = .inconsistent(url: url, reason: "the server sent more than \(cap >> 20) MiB without a length, and no sign of radio (icy- headers): neither a file the download cache may hold ([network] cache_mb) nor a station")
                return false
            }
            if p.stopping { return false }
            // Without a length, the body comes in order to its end.
            guard let length = p.head?.totalLength else { return true }
            // Without ranges, stopping would only start again from the first byte.
            if p.rangesIgnored { return position < length }
            if p.arrived.firstMissing(from: position, below: length) != position { return false }
            let gap = p.wanted - position
            let readerAhead = gap > Self.seekAheadBytes && Double(gap) > bytesPerSecond
            let readerBehind = p.wanted < unwritten && p.arrived.available(from: p.wanted) == 0
            return !(readerAhead || readerBehind)
        }
    }

    private var isStopping: Bool { progress.withLock { $0.stopping } }

    /// The rate below which the transfer is given up: a tenth of the track's own (it would
    /// take ten times its length to arrive, in pauses longer than what plays between
    /// them), never below the floor. A slower link still plays, with `buffering` shown.
    private var neededRate: Int {
        max(HTTPTransfer.slowestUsefulRate, (progress.withLock { $0.playRate } ?? 0) / 10)
    }

    /// Called between pieces (libcurl's progress calls, several a second even while
    /// nothing comes): bytes held for a batch go to the file once they have waited 50 ms,
    /// so the last piece before a pause is playable at once, not when the next one comes.
    /// True only when the write failed: the transfer stops with the reason.
    private func flushIfWaiting(_ run: TransferRun) -> Bool {
        guard !run.pending.bytes.isEmpty, MonotonicClock.now() - run.pending.since > 50_000_000 else { return false }
        if let error = write(&run.pending), run.refusal == nil {
            run.refusal = .failed(url: url, reason: "cannot write the download: \(error)")
            return true
        }
        return false
    }

    /// Bytes received and not yet in the file.
    private struct PendingWrite {
        var start: Int64
        var bytes: [UInt8] = []
        /// When the first of them came.
        var since: UInt64 = 0

        init(start: Int64) {
            self.start = start
            bytes.reserveCapacity(Download.writeBatch)
        }
    }

    /// Puts the pending bytes in the file and tells the reader they are there.
    private func write(_ pending: inout PendingWrite) -> Errno? {
        guard !pending.bytes.isEmpty else { return nil }
        do { try writeAll(fd, pending.bytes, at: pending.start) } catch { return error }
        let written = pending.start..<(pending.start + Int64(pending.bytes.count))
        progress.withLock { p in
            p.arrived.insert(written)
            p.problem = nil
            p.broadcast()
        }
        pending.start = written.upperBound
        pending.bytes.removeAll(keepingCapacity: true)
        if MonotonicClock.now() - lastRecorded >= Self.recordInterval { recordArrived() }
        return nil
    }

    /// Records which bytes are on the disk, for a later download of this URL: after
    /// `fdatasync`, so the record never claims a byte the disk does not hold. Only a file
    /// the server can later be asked about (an ETag or a date) is recorded.
    private func recordArrived() {
        lastRecorded = MonotonicClock.now()
        guard let cache, let part else { return }
        let leftover: DownloadCache.Leftover? = progress.withLock { p in
            guard !p.complete, p.live == nil, let head = p.head, let length = head.totalLength,
                  head.etag != nil || head.lastModified != nil else { return nil }
            return .init(entry: .init(url: url, length: length, etag: head.etag, lastModified: head.lastModified), arrived: p.arrived)
        }
        guard let leftover, fdatasync(fd) == 0 else { return }
        cache.record(leftover, of: part)
    }

    /// Forgets a leftover the server has not yet confirmed; false when there is none.
    private func dropLeftover() -> Bool {
        guard progress.withLock({ p in
            defer { p.leftover = nil }
            return p.head == nil && p.leftover != nil
        }) else { return false }
        if let part { cache?.forgetRecord(of: part) }
        return true
    }

    /// A live stream's bytes: titles out, audio into the ring. Each new title is told
    /// before the audio after it can be read, so no reader passes it unaware.
    private func takeLive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        progress.withLock { p in
            if var demuxer {
                demuxer.feed(bytes, audio: { p.live?.append($0) }, title: { title in
                    guard title != lastTitle else { return }
                    lastTitle = title
                    onNews(.title(title), p.live?.end ?? 0)
                })
                self.demuxer = demuxer
            } else {
                p.live?.append(bytes)
            }
            p.problem = nil
            p.broadcast()
        }
        return !progress.withLock { $0.stopping }
    }

    /// Refuses a response the file cannot be made from.
    private func check(_ head: HTTPResponseHead) -> NetworkError? {
        let known = progress.withLock { $0.head }
        // Only the first answer's type is judged: some servers (busybox httpd) label every
        // partial answer text/html, whatever the file.
        if known == nil, !head.looksLikeAudio { return .notAudio(url: url, contentType: head.contentType ?? "?") }
        guard let length = head.totalLength else {
            if let known, known.totalLength != nil {
                return .inconsistent(url: url, reason: "the file became an endless stream on the server")
            }
            return nil  // a live stream, or a file whose length its end tells
        }
        // The disk holds at most the cache's cap: a larger file (or an endless stream that
        // claims a huge length) is refused rather than filling the card.
        let cap = cache?.settings.capacity ?? Self.uncachedLimit
        if length > cap {
            return .inconsistent(url: url, reason: "the file is \(length >> 20) MiB, more than the \(cap >> 20) MiB the download cache may hold ([network] cache_mb)")
        }
        if let known = known?.totalLength, known != length {
            return .inconsistent(url: url, reason: "the file changed on the server while it downloaded (\(known) bytes, now \(length))")
        }
        // The same length is not the same file (tags rewritten in place): its validators
        // tell, and the rest of another file must not complete this one.
        if let known, Self.differ(known.etag.map(Self.strong), head.etag.map(Self.strong)) || Self.differ(known.lastModified, head.lastModified) {
            return .inconsistent(url: url, reason: "the file changed on the server while it downloaded (another ETag or date)")
        }
        return nil
    }

    /// Both are known, and they are not the same.
    private static func differ(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return false }
        return a != b
    }

    /// An ETag without its weak mark: a server may weaken it in one answer and not another.
    static func strong(_ etag: String) -> String { etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag }

    /// Every byte is here: the file becomes the cache's copy.
    private func finish() {
        let head = progress.withLock { p in
            p.complete = true
            p.broadcast()
            return p.head
        }
        guard let cache, let part, let head, let length = head.totalLength, length <= cache.settings.capacity else { return }
        do {
            try cache.finish(url, entry: .init(url: url, length: length, etag: head.etag, lastModified: head.lastModified), from: part)
            let spoiled = progress.withLock { p in
                p.kept = true
                return p.spoiled
            }
            if spoiled { cache.remove(url) }  // refused while it was being kept
        } catch {
            cache.remove(url)
        }
    }

    /// 0.5 s, 1 s, 2 s… up to 8 s; a stop ends it early.
    private func pause(before attempt: Int) {
        let seconds = min(8.0, 0.25 * Double(1 << min(attempt, 6)))
        let until = MonotonicClock.now() + UInt64(seconds * 1e9)
        progress.withLock { p in
            while !p.stopping {
                let now = MonotonicClock.now()
                guard now < until else { return }
                p.wait(nanoseconds: until - now)
            }
        }
    }
}
