#if canImport(Glibc)
import Glibc
#endif

/// How URL tracks are opened: from the cache's complete copy when there is one (no
/// network needed), else downloading while playing. The daemon makes one and hands it to
/// the engine; `[network]` in the config sets its cache, at start and on each reload.
public final class NetworkPlayback: Sendable {
    private let settings: ConditionLocked<(cache: DownloadCache?, limits: HTTPTransfer.Limits)>
    /// Shared by every cache this one makes (DownloadCache.UnderWay says why).
    private let underWay: DownloadCache.UnderWay

    /// With `cache` (prepared) or none, until `configure` says otherwise.
    public init(cache: DownloadCache? = nil, limits: HTTPTransfer.Limits = .init()) {
        settings = ConditionLocked((cache, limits))
        underWay = cache?.underWay ?? DownloadCache.UnderWay()
    }

    /// The cache URLs are opened through now.
    var cache: DownloadCache? { settings.current.cache }

    /// Whether a URL (a `TrackLocation.url`) may be queued: one line of visible
    /// characters, of a sane length. The rule for a client's `add` and for a saved queue
    /// read back.
    public static func isQueueable(_ url: String) -> Bool {
        url.utf8.count <= 4096 && url.count > 8
            && !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
    }

    /// Sets the cache (nil: none) and the timeouts; returns why the folder cannot be used,
    /// if it cannot.
    @discardableResult
    public func configure(_ cacheSettings: DownloadCache.Settings?, limits: HTTPTransfer.Limits = .init()) -> String? {
        let new = cacheSettings.map { DownloadCache(settings: $0, underWay: underWay) }
        let problem = new?.prepare()
        let changed = settings.withLock { current in
            defer { current.wholeValue = (problem == nil ? new : nil, limits) }
            return current.cache?.settings != new?.settings
        }
        if changed, problem == nil { new?.tidyLeftovers() }
        return problem
    }

    /// A URL's decoder, made by `making` from the URL's bytes: the cache's copy if there is
    /// one, else the download. Bytes the decoder refuses (an error page sent as
    /// `audio/mpeg`, a damaged header) are never kept: a copy that does not decode is
    /// dropped and the URL fetched again, and a download that does not is not kept.
    func decoder(for url: String, interruption: DecodeInterruption?,
                        making: (any MediaSource) throws -> any AudioDecoder) throws -> any AudioDecoder {
        let (cache, limits) = settings.current
        if let cache, let copy = cache.complete(url) {
            do {
                let decoder = try making(try FileReader(path: copy.path))
                Self.refresh(url, entry: copy.entry, in: cache, limits: limits)
                return decoder
            } catch let error as MediaError where error.isBadContent {
                cache.remove(url)
            }
        }
        let source = try open(url, interruption: interruption, throughPlaylist: true)
        do {
            let decoder = try making(source)
            source.network?.bytesPerSecond = Self.bytesPerSecond(decoder.info, source)
            return decoder
        } catch let error as MediaError where error.isBadContent {
            source.network?.spoil()
            throw error
        }
    }

    /// The encoded bytes a second of a stream: the file's average when its length and
    /// duration are known (a VBR MP3's first frame says little), else the stated bitrate.
    private static func bytesPerSecond(_ info: StreamInfo, _ stream: any MediaSource) -> Double? {
        if stream.lengthIsKnown, info.durationSeconds > 0 { return Double(stream.size) / info.durationSeconds }
        return info.bitrate.map { Double($0) / 8 }
    }

    /// A radio station's playlist (M3U or PLS) is no larger than this.
    static let largestPlaylist: Int64 = 256 << 10

    /// The download of `url`, or of the first entry that plays of the playlist it is.
    private func open(_ url: String, interruption: DecodeInterruption?, throughPlaylist: Bool) throws -> any MediaSource {
        let (cache, limits) = settings.current
        if !throughPlaylist, let cache, let copy = cache.complete(url) { return try FileReader(path: copy.path) }
        let source = try HTTPSource(url: url, cache: cache, limits: limits, interruption: interruption)
        guard !source.isLive, Self.isPlaylist(source) else { return source }
        // A station's .m3u or .pls: its first entry that plays (they list mirrors).
        guard throughPlaylist else { throw MediaError.unsupported(url, "a playlist inside a playlist") }
        // Icecast sends its /mount.m3u without a length: read to its end, within the bound.
        let largestPlaylist = Self.largestPlaylist
        let text = try source.read(at: 0, count: Int(largestPlaylist) + 1)
        guard text.count <= largestPlaylist else { throw MediaError.unsupported(url, "a playlist larger than \(largestPlaylist >> 10) KiB") }
        let entries = M3UPlaylist.entries(fetched: text[...], from: url)
        var reasons: [String] = []
        for entry in entries.prefix(8) {
            do {
                return try open(entry, interruption: interruption, throughPlaylist: false)
            } catch let interrupted as DecodeInterrupted {
                throw interrupted
            } catch {
                reasons.append("\(error)")
            }
        }
        throw MediaError.network(url, entries.isEmpty ? "a playlist with no http(s) entries" : "no entry of the playlist plays (\(reasons.joined(separator: "; ")))")
    }

    /// By its type (`audio/x-mpegurl`, `audio/x-scpls`…), else by its first bytes.
    private static func isPlaylist(_ source: HTTPSource) -> Bool {
        if HTTPResponseHead(contentType: source.contentType).isPlaylist { return true }
        guard source.size <= largestPlaylist else { return false }
        return (try? M3UPlaylist.looksLikePlaylist(source.read(at: 0, count: 16)[...])) ?? false
    }

    /// The copy plays at once; meanwhile the server is asked whether it changed (ETag,
    /// Last-Modified). A changed file is downloaded again in the background and replaces
    /// the copy for the next play; with no network nothing happens.
    private static func refresh(_ url: String, entry: DownloadCache.Entry, in cache: DownloadCache, limits: HTTPTransfer.Limits) {
        guard entry.etag != nil || entry.lastModified != nil else { return }
        let thread = try? WorkerThread.start(name: "jukebox-refresh") {
            let answer = try? HTTPTransfer.get(url, ifNoneMatch: entry.etag, ifModifiedSince: entry.lastModified, limits: limits,
                                               onHead: { _ in false }, onBody: { _ in false })
            guard let head = answer?.head, head.status == 200 else { return }
            _ = try? Download(url: url, cache: cache, limits: limits)  // holds itself until it is done
        }
        if let thread { pthread_detach(thread) }
    }
}

