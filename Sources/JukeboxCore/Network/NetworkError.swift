/// Why a URL could not be played. Each case names the URL and a reason a person can act
/// on; `description` is what the log, the status and the screen show.
public enum NetworkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The host name did not resolve (no DNS, a typo, no network).
    case unresolvable(url: String, host: String)
    case refused(url: String)
    /// No connection within the connect timeout.
    case unreachable(url: String, seconds: Int)
    /// The DNS server did not answer within the connect timeout.
    case resolverSilent(url: String, host: String, seconds: Int)
    /// Connected, but the server's answer (its status line and headers) did not come.
    case noAnswer(url: String, seconds: Int)
    /// An HTTP status that is not a success: 404, 500…
    case status(url: String, code: Int)
    /// The server sent something else than audio: an HTML page, say.
    case notAudio(url: String, contentType: String)
    case redirectLoop(url: String, redirects: Int)
    /// Nothing arrived for this long in the middle of a transfer.
    case stalled(url: String, seconds: Int)
    /// Bytes come, but too few a second for the track ever to play.
    case tooSlow(url: String, bytesPerSecond: Int, needed: Int)
    /// The reply is not HTTP a player can take (another protocol, a giant header line).
    case badReply(url: String, reason: String)
    case tls(url: String, reason: String)
    /// The server sent more than the length it announced, or changed the file under us.
    case inconsistent(url: String, reason: String)
    /// Not http:// or https://.
    case unsupportedScheme(url: String)
    case failed(url: String, reason: String)

    public var url: String {
        switch self {
        case .unresolvable(let url, _), .refused(let url), .unreachable(let url, _), .resolverSilent(let url, _, _),
             .noAnswer(let url, _), .status(let url, _), .notAudio(let url, _), .redirectLoop(let url, _),
             .stalled(let url, _), .tooSlow(let url, _, _), .badReply(let url, _), .tls(let url, _),
             .inconsistent(let url, _), .unsupportedScheme(let url), .failed(let url, _):
            url
        }
    }

    public var reason: String {
        switch self {
        case .unresolvable(_, let host): "cannot resolve host \(host) (no DNS or no network?)"
        case .refused: "connection refused"
        case .unreachable(_, let seconds): "no connection within \(seconds) s"
        case .resolverSilent(_, let host, let seconds): "the DNS server gave no answer for \(host) within \(seconds) s"
        case .noAnswer(_, let seconds): "connected, but the server gave no answer within \(seconds) s"
        case .status(_, let code): "the server answered HTTP \(code)\(Self.statusName(code).map { " (\($0))" } ?? "")"
        case .notAudio(_, let type): "the server sent \(type), not audio"
        case .redirectLoop(_, let count): "more than \(count) redirects (a redirect loop?)"
        case .stalled(_, let seconds): "nothing arrived for \(seconds) s"
        case .tooSlow(_, let rate, let needed): "the network brings \(rate) bytes/s, too slow to play (needs at least \(needed))"
        case .badReply(_, let reason): reason
        case .tls(_, let reason): "TLS failed: \(reason)"
        case .inconsistent(_, let reason): reason
        case .unsupportedScheme: "only http:// and https:// URLs are played"
        case .failed(_, let reason): reason
        }
    }

    public var description: String { "\(url): \(reason)" }

    /// Worth trying again later: the network or the server may come back. A 404, an HTML
    /// page or a TLS failure will not mend by itself.
    public var isTransient: Bool {
        switch self {
        case .unresolvable, .refused, .unreachable, .resolverSilent, .noAnswer, .stalled, .failed: true
        case .status(_, let code): code >= 500 || code == 408 || code == 429
        case .notAudio, .redirectLoop, .tooSlow, .badReply, .tls, .inconsistent, .unsupportedScheme: false
        }
    }

    /// An error answer from a station that was playing: Icecast answers 404 while the
    /// station's source is away (a dropped encoder, a restart), and it comes back.
    public var mayMendOnALiveStation: Bool {
        if case .status = self { return true }
        return false
    }

    /// A wait as long as the timeout, with nothing from the server: trying again before it
    /// has ever answered would only make the listener wait that long again.
    public var isTimeout: Bool {
        switch self {
        case .unreachable, .resolverSilent, .noAnswer: true
        default: false
        }
    }

    private static func statusName(_ code: Int) -> String? {
        switch code {
        case 401: "unauthorised"
        case 403: "forbidden"
        case 404: "not found"
        case 410: "gone"
        case 416: "range not satisfiable"
        case 500: "server error"
        case 502: "bad gateway"
        case 503: "unavailable"
        case 504: "gateway timeout"
        default: nil
        }
    }
}
