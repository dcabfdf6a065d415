import CCurl
import CJukeboxShim

#if canImport(Glibc)
import Glibc
#endif

/// libcurl's easy interface, behind one small typed wrapper: options are set through
/// typed calls, and every CURLcode becomes a `NetworkError` in `error(for:)` and nowhere
/// else. One transfer runs at a time, on the thread that calls `perform`.
final class CurlEasy {
    private let handle: UnsafeMutableRawPointer
    /// libcurl writes its own words about a failure here (CURLOPT_ERRORBUFFER).
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    let url: String

    /// libcurl, loaded and started once, before any thread uses it; the reason if it
    /// cannot be (not installed: a box that plays files needs no libcurl).
    private static let loading: String? = {
        var message = [CChar](repeating: 0, count: 512)
        guard jukebox_curl_load(&message, message.count) == 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return "libcurl cannot be loaded (\(reason)); install libcurl4"
        }
        return nil
    }()

    init(url: String) throws(NetworkError) {
        self.url = url
        if let problem = Self.loading {
            errorText.deallocate()
            throw .failed(url: url, reason: problem)
        }
        guard let handle = jukebox_curl_easy_init() else {
            errorText.deallocate()
            throw .failed(url: url, reason: "libcurl could not start")
        }
        self.handle = handle
        errorText[0] = 0
        try set(CURLOPT_URL, url)
        try set(CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorText))
        // Threads: no signals for timeouts (libcurl would use SIGALRM around DNS otherwise).
        try set(CURLOPT_NOSIGNAL, 1)
        // A DNS lookup that timed out is left to end on its own thread: without this the
        // cleanup waits for it, as long as the resolver's own retries last (20 s and more).
        // libcurl before 7.87 lacks it, and then waits.
        try? set(CURLOPT_QUICK_EXIT, 1)
    }

    deinit {
        jukebox_curl_easy_cleanup(handle)
        errorText.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int) throws(NetworkError) {
        try check(jukebox_curl_set_long(handle, option, value))
    }

    /// A string option: libcurl copies it.
    func set(_ option: CURLoption, _ value: String) throws(NetworkError) {
        let code = value.withCString { jukebox_curl_set_pointer(handle, option, UnsafeMutableRawPointer(mutating: $0)) }
        try check(code)
    }

    func set(_ option: CURLoption, _ pointer: UnsafeMutableRawPointer?) throws(NetworkError) {
        try check(jukebox_curl_set_pointer(handle, option, pointer))
    }

    func set(_ option: CURLoption, function: @escaping @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int) throws(NetworkError) {
        try check(jukebox_curl_set_write_function(handle, option, function))
    }

    func setProgress(_ function: @escaping @convention(c) (UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> Int32) throws(NetworkError) {
        try check(jukebox_curl_set_progress_function(handle, function))
        try set(CURLOPT_NOPROGRESS, 0)
    }

    var responseCode: Int {
        var code = 0
        _ = jukebox_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// The system's errno behind the last failure (ECONNREFUSED…).
    var osErrno: Int32 {
        var code = 0
        _ = jukebox_curl_get_long(handle, CURLINFO_OS_ERRNO, &code)
        return Int32(code)
    }

    /// Whether the connection to the server (the last one, after redirects) is made.
    var isConnected: Bool {
        var microseconds: curl_off_t = 0
        _ = jukebox_curl_get_off(handle, CURLINFO_CONNECT_TIME_T, &microseconds)
        return microseconds > 0
    }

    var redirects: Int {
        var count = 0
        _ = jukebox_curl_get_long(handle, CURLINFO_REDIRECT_COUNT, &count)
        return count
    }

    var contentType: String? {
        var text: UnsafePointer<CChar>?
        guard jukebox_curl_get_string(handle, CURLINFO_CONTENT_TYPE, &text) == CURLE_OK, let text else { return nil }
        return String(cString: text)
    }

    /// Runs the transfer. A transfer that our own callbacks stopped returns normally: the
    /// caller knows why it stopped it. `connectSeconds` and `stalledAfter` name the limits
    /// that were set, for the messages.
    func perform(connectSeconds: Int, stalledAfter: Int) throws(NetworkError) {
        errorText[0] = 0
        let code = jukebox_curl_easy_perform(handle)
        switch code {
        case CURLE_OK, CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR: return
        default: throw error(for: code, connectSeconds: connectSeconds, stalledAfter: stalledAfter)
        }
    }

    private func check(_ code: CURLcode) throws(NetworkError) {
        guard code == CURLE_OK else { throw error(for: code, connectSeconds: 0, stalledAfter: 0) }
    }

    /// The one place libcurl's codes become reasons.
    private func error(for code: CURLcode, connectSeconds: Int, stalledAfter: Int) -> NetworkError {
        let detail = String(cString: errorText[0] != 0 ? UnsafePointer(errorText) : jukebox_curl_easy_strerror(code))
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST: return .unresolvable(url: url, host: Self.host(of: url))
        case CURLE_COULDNT_CONNECT:
            return osErrno == ECONNREFUSED ? .refused(url: url) : .failed(url: url, reason: detail)
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl's connect timeout covers the DNS lookup; its own words tell which it was.
            if detail.hasPrefix("Resolving timed out") { return .resolverSilent(url: url, host: Self.host(of: url), seconds: connectSeconds) }
            return responseCode == 0 ? .unreachable(url: url, seconds: connectSeconds) : .stalled(url: url, seconds: stalledAfter)
        case CURLE_TOO_MANY_REDIRECTS: return .redirectLoop(url: url, redirects: redirects)
        case CURLE_HTTP_RETURNED_ERROR: return .status(url: url, code: responseCode)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return .tls(url: url, reason: detail)
        // The URL was http(s) (HTTPTransfer checks), so this is a reply in no HTTP libcurl
        // knows (it calls it HTTP/0.9), unless a redirect went to another scheme.
        case CURLE_UNSUPPORTED_PROTOCOL where detail.firstRange(of: "HTTP/0.9") != nil, CURLE_WEIRD_SERVER_REPLY:
            return .badReply(url: url, reason: "the server's reply is not HTTP (\(detail))")
        case CURLE_UNSUPPORTED_PROTOCOL: return .unsupportedScheme(url: url)
        case CURLE_URL_MALFORMAT: return .failed(url: url, reason: "a malformed URL (\(detail))")
        // libcurl refuses a header line over its bound (100 KiB) as "out of memory" (7.x)
        // or "too large" (8.x): the server's fault, not the box's memory.
        case CURLE_OUT_OF_MEMORY where responseCode != 0 || detail.lowercased().firstRange(of: "header") != nil,
             CURLcode(rawValue: 100):
            return .badReply(url: url, reason: "the server sent a header line longer than libcurl takes (\(detail))")
        default: return .failed(url: url, reason: detail)
        }
    }

    /// The host part of a URL, for messages.
    static func host(of url: String) -> String {
        let rest = url.split(separator: "://", maxSplits: 1).last ?? Substring(url)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@").last ?? authority
        if host.hasPrefix("[") { return String(host.prefix { $0 != "]" }) + "]" }
        return String(host.prefix { $0 != ":" })
    }
}
