import CCurl
import CJukeboxShim

/// What a response said about the body that follows it.
struct HTTPResponseHead: Equatable, Sendable {
    var status = 0
    /// Where the body starts in the whole file: a 206's Content-Range, else 0.
    var start: Int64 = 0
    /// The whole file's length, when the server says it.
    var totalLength: Int64?
    var contentType: String?
    var etag: String?
    var lastModified: String?
    /// Internet radio (Icecast/Shoutcast): the station's name and the metadata interval.
    var icyName: String?
    var icyMetaInterval: Int?
    /// The answer is internet radio's: an `ICY` status line, or `icy-`/`ice-` headers.
    var isRadio = false

    /// A live stream: radio without a length. A body without a length that is not radio
    /// (chunked, or ended by closing) is a file whose length is known once it ends.
    var isLive: Bool { totalLength == nil && isRadio }

    /// A playlist rather than audio (a station's `.m3u` or `.pls`, Icecast's `/mount.m3u`).
    var isPlaylist: Bool {
        let type = contentType?.lowercased() ?? ""
        return ["mpegurl", "scpls", "pls+xml"].contains { type.firstRange(of: $0) != nil }
    }

    /// Takes one header line ("Name: value") into the head; a status line starts a new
    /// head, since redirects and `100 Continue` each bring one.
    mutating func take(line: String) {
        let line = line.trimmingSpaces
        if line.hasPrefix("HTTP/") || line.hasPrefix("ICY ") {
            self = HTTPResponseHead()
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            isRadio = line.hasPrefix("ICY ")
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingSpaces
        if name.hasPrefix("icy-") || name.hasPrefix("ice-") { isRadio = true }
        switch name {
        case "content-length": if totalLength == nil, start == 0 { totalLength = Int64(value) }
        case "content-range":
            // bytes START-END/TOTAL (TOTAL may be *)
            let spec = value.split(separator: " ").last ?? ""
            let parts = spec.split(separator: "/")
            if let first = parts.first?.split(separator: "-").first, let at = Int64(first) { start = at }
            totalLength = parts.count == 2 ? Int64(parts[1]) : nil
        case "content-type": contentType = value
        case "etag": etag = value
        case "last-modified": lastModified = value
        case "icy-name": icyName = value
        case "icy-metaint": icyMetaInterval = Int(value)
        default: break
        }
    }

    /// Whether the body can be audio: HTML and other text pages are refused, so an error
    /// page or a login portal never reaches a decoder or the cache.
    var looksLikeAudio: Bool {
        guard let type = contentType?.lowercased(), !isPlaylist else { return true }
        // firstRange, not contains: Foundation's String.contains would link all of it (and ICU).
        return !(type.hasPrefix("text/") || ["html", "json", "xml"].contains(where: { type.firstRange(of: $0) != nil }))
    }
}

/// One HTTP GET on the calling thread, through libcurl: redirects followed (a bounded
/// number), connect and stall timeouts, a Range request from `offset`, and validators
/// for a conditional request; `icy` asks internet radio for its in-band titles. The body
/// goes to `onBody` as it arrives.
public final class HTTPTransfer {
    public struct Limits: Sendable, Equatable {
        public var connectSeconds = 10
        /// A transfer with no byte for this long is given up (and retried by the caller).
        public var stallSeconds = 10
        public var maximumRedirects = 5

        public init(connectSeconds: Int = 10, stallSeconds: Int = 10) {
            self.connectSeconds = connectSeconds
            self.stallSeconds = stallSeconds
        }
    }

    static let userAgent = "jukebox/1 (libcurl)"

    /// Below this many bytes a second no audio the box plays can come (4 kbit/s): the
    /// floor of the rate watch before the stream's own rate is known.
    public static let slowestUsefulRate = 512

    /// Runs the GET. `onHead` hears the final response's head before its first byte and may
    /// refuse it (false stops the transfer); `onBody` false stops it too, and so does
    /// `shouldStop`, asked a few times a second. Returns the final head (for a body-less
    /// answer such as 304, the only place it is told), and whether a handler stopped it.
    static func get(_ url: String, from offset: Int64 = 0, ifNoneMatch etag: String? = nil, ifModifiedSince date: String? = nil,
                    icy: Bool = false, limits: Limits = Limits(),
                    onHead: @escaping (HTTPResponseHead) -> Bool, onBody: @escaping (UnsafeRawBufferPointer) -> Bool,
                    shouldStop: @escaping () -> Bool = { false },
                    neededBytesPerSecond: @escaping () -> Int = { HTTPTransfer.slowestUsefulRate }) throws(NetworkError) -> (head: HTTPResponseHead, stopped: Bool) {
        guard url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://") else {
            throw .unsupportedScheme(url: url)
        }
        let easy = try CurlEasy(url: url)
        let watch = RateWatch(seconds: limits.stallSeconds, needed: neededBytesPerSecond)
        let context = HTTPTransferContext(easy: easy, watch: watch, onHead: onHead, onBody: onBody, shouldStop: shouldStop)
        let opaque = Unmanaged.passUnretained(context).toOpaque()
        var headers: UnsafeMutablePointer<curl_slist>?
        // SHOUTcast v1 servers answer `ICY 200 OK`, which libcurl takes for HTTP/1.0 200
        // only when told (MPD does the same).
        let aliases = jukebox_curl_slist_append(nil, "ICY 200 OK")
        defer {
            jukebox_curl_slist_free_all(headers)
            jukebox_curl_slist_free_all(aliases)
        }
        try easy.set(CURLOPT_HTTP200ALIASES, UnsafeMutableRawPointer(aliases))
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_FOLLOWLOCATION, 1)
        try easy.set(CURLOPT_MAXREDIRS, limits.maximumRedirects)
        // The DNS lookup and the connection; after that, `RateWatch` (libcurl's low-speed
        // limit averages over its last 5 s, so a stall showed only after 15-17 s).
        try easy.set(CURLOPT_CONNECTTIMEOUT, limits.connectSeconds)
        try easy.set(CURLOPT_FAILONERROR, 1)
        try easy.set(CURLOPT_USERAGENT, userAgent)
        // Larger pieces than libcurl's 16 KiB: fewer hand-overs to the reader per second.
        try easy.set(CURLOPT_BUFFERSIZE, 64 << 10)
        // A Range header, not libcurl's resume: a server that ignores ranges answers 200
        // with the whole file, which libcurl's resume refuses ("Cannot resume") and the
        // caller can still use from its first byte.
        if offset > 0 { try easy.set(CURLOPT_RANGE, "\(offset)-") }
        if let etag { headers = jukebox_curl_slist_append(headers, "If-None-Match: \(etag)") }
        if let date { headers = jukebox_curl_slist_append(headers, "If-Modified-Since: \(date)") }
        // Internet radio sends its titles in the stream only when asked.
        if icy { headers = jukebox_curl_slist_append(headers, "Icy-MetaData: 1") }
        if headers != nil { try easy.set(CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers)) }
        try easy.set(CURLOPT_HEADERFUNCTION, function: httpHeaderCallback)
        try easy.set(CURLOPT_HEADERDATA, opaque)
        try easy.set(CURLOPT_WRITEFUNCTION, function: httpBodyCallback)
        try easy.set(CURLOPT_WRITEDATA, opaque)
        try easy.setProgress(httpProgressCallback)
        try easy.set(CURLOPT_XFERINFODATA, opaque)
        try withExtendedLifetime(context) { () throws(NetworkError) in
            try easy.perform(connectSeconds: limits.connectSeconds, stalledAfter: limits.stallSeconds)
        }
        if let verdict = watch.verdict { throw verdict.error(url: url) }
        if !context.headDelivered { context.finishHead() }
        return (context.head, context.stopped)
    }

}

/// What libcurl's callbacks see: the head so far and the caller's handlers.
private final class HTTPTransferContext {
    var head = HTTPResponseHead()
    var headDelivered = false
    var stopped = false
    let onHead: (HTTPResponseHead) -> Bool
    let onBody: (UnsafeRawBufferPointer) -> Bool
    let shouldStop: () -> Bool
    let easy: CurlEasy
    let watch: RateWatch

    init(easy: CurlEasy, watch: RateWatch, onHead: @escaping (HTTPResponseHead) -> Bool, onBody: @escaping (UnsafeRawBufferPointer) -> Bool,
         shouldStop: @escaping () -> Bool) {
        self.easy = easy
        self.watch = watch
        self.onHead = onHead
        self.onBody = onBody
        self.shouldStop = shouldStop
    }

    /// The final response's head, completed from what libcurl knows.
    func finishHead() {
        head.status = easy.responseCode
        if head.contentType == nil { head.contentType = easy.contentType }
    }

    func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        watch.arrived(bytes.count, body: true)
        if !headDelivered {
            headDelivered = true
            finishHead()
            guard onHead(head) else { stopped = true; return false }
        }
        guard onBody(bytes) else { stopped = true; return false }
        return true
    }

    static func from(_ user: UnsafeMutableRawPointer?) -> HTTPTransferContext? {
        user.map { Unmanaged<HTTPTransferContext>.fromOpaque($0).takeUnretainedValue() }
    }
}

private func httpHeaderCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context = HTTPTransferContext.from(user) else { return 0 }
    context.watch.arrived(size * count, body: false)
    context.head.take(line: String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self))
    return size * count
}

/// Any count other than the one given stops the transfer (CURLE_WRITE_ERROR).
private func httpBodyCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context = HTTPTransferContext.from(user) else { return 0 }
    return context.body(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
}

/// Non-zero stops the transfer (CURLE_ABORTED_BY_CALLBACK).
private func httpProgressCallback(_ user: UnsafeMutableRawPointer?, _ total: curl_off_t, _ now: curl_off_t, _ upTotal: curl_off_t,
                                  _ upNow: curl_off_t) -> Int32 {
    guard let context = HTTPTransferContext.from(user) else { return 1 }
    if context.shouldStop() { context.stopped = true; return 1 }
    // The watch starts once connected: the connect timeout covers what comes before.
    if !context.watch.started, context.easy.isConnected { context.watch.start() }
    return context.watch.check() ? 0 : 1
}
