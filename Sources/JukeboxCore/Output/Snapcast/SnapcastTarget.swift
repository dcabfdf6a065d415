#if canImport(Glibc)
import Glibc
#endif

/// Where a Snapcast output sends the music: snapserver's `pipe` source (a FIFO it reads,
/// normally on the box itself) or its `tcp` source in server mode (snapserver listens,
/// the box connects). Named in `[audio] devices` as `snapcast:/run/snapserver/jukebox`
/// or `snapcast:tcp://192.168.1.10:4953`.
public enum SnapcastTarget: Sendable, Hashable, CustomStringConvertible {
    case pipe(path: String)
    /// An address, not a name: resolving a name could keep the audio thread waiting on DNS.
    case tcp(host: String, port: Int)

    public static let prefix = "snapcast:"

    /// Whether a configured device names a Snapcast stream (then `init(device:)` says if
    /// it is a valid one).
    public static func names(_ device: String) -> Bool { device.hasPrefix(prefix) }

    public enum Invalid: Error, Equatable, CustomStringConvertible {
        case notSnapcast
        case emptyPath
        case relativePath(String)
        case badAddress(String)

        public var description: String {
            switch self {
            case .notSnapcast: "a Snapcast device starts with \"snapcast:\""
            case .emptyPath: "\"snapcast:\" needs the path of snapserver's pipe (snapcast:/run/snapserver/jukebox) or tcp://ADDRESS:PORT"
            case .relativePath(let path): "the pipe \"\(path)\" must be an absolute path, as in snapserver's source = pipe:///run/snapserver/jukebox"
            case .badAddress(let text): "\"\(text)\" is not ADDRESS:PORT with a numeric address (such as tcp://127.0.0.1:4953 or tcp://[::1]:4953) and a port 1-65535"
            }
        }
    }

    public init(device: String) throws(Invalid) {
        guard Self.names(device) else { throw .notSnapcast }
        let rest = String(device.dropFirst(Self.prefix.count))
        guard !rest.isEmpty else { throw .emptyPath }
        if rest.hasPrefix("tcp://") {
            let address = String(rest.dropFirst("tcp://".count))
            guard let (host, port) = Self.split(address) else { throw .badAddress(address) }
            self = .tcp(host: host, port: port)
        } else {
            guard rest.hasPrefix("/") else { throw .relativePath(rest) }
            self = .pipe(path: rest)
        }
    }

    /// `1.2.3.4:5`, `[::1]:5`, or `localhost:5` (the one name allowed: it needs no lookup).
    private static func split(_ address: String) -> (String, Int)? {
        let host: Substring
        let portText: Substring
        if address.hasPrefix("[") {
            guard let close = address.firstIndex(of: "]") else { return nil }
            host = address[address.index(after: address.startIndex)..<close]
            let after = address[address.index(after: close)...]
            guard after.hasPrefix(":") else { return nil }
            portText = after.dropFirst()
        } else {
            guard let colon = address.lastIndex(of: ":") else { return nil }
            host = address[..<colon]
            portText = address[address.index(after: colon)...]
        }
        guard let port = Int(portText), (1...65535).contains(port), !host.isEmpty else { return nil }
        let name = host == "localhost" ? "127.0.0.1" : String(host)
        guard isNumeric(name) else { return nil }
        return (name, port)
    }

    static func isNumeric(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    public var description: String {
        switch self {
        case .pipe(let path): "\(Self.prefix)\(path)"
        case .tcp(let host, let port): "\(Self.prefix)tcp://\(host.contains(":" as Character) ? "[\(host)]" : host):\(port)"
        }
    }
}
