#if canImport(Glibc)
import Glibc
#endif

/// The page's logins: random tokens kept in the browser as an HttpOnly, SameSite=Strict
/// cookie. At most `capacity` live at once (the one used longest ago goes first), and
/// one unused for `lifetime` expires: logins cannot pile up in memory.
public struct WebSessions: Sendable {
    private var lastUse: [String: UInt64] = [:]
    public let capacity: Int
    public let lifetime: UInt64

    public static let cookieName = "jukebox_session"

    public init(capacity: Int = 64, lifetimeSeconds: UInt64 = 30 * 86_400) {
        self.capacity = capacity
        lifetime = lifetimeSeconds * 1_000_000_000
    }

    public var count: Int { lastUse.count }

    /// A new session's token.
    public mutating func open(at now: UInt64) -> String {
        if lastUse.count >= capacity, let oldest = lastUse.min(by: { $0.value < $1.value })?.key { lastUse[oldest] = nil }
        let token = Self.token()
        lastUse[token] = now
        return token
    }

    /// Whether `token` is a live session; using it keeps it alive.
    public mutating func check(_ token: String?, at now: UInt64) -> Bool {
        guard let token, let last = lastUse[token] else { return false }
        guard now &- last < lifetime else {
            lastUse[token] = nil
            return false
        }
        lastUse[token] = now
        return true
    }

    public mutating func close(_ token: String?) {
        if let token { lastUse[token] = nil }
    }

    /// Every session ends (the password changed).
    public mutating func closeAll() { lastUse.removeAll() }

    /// 32 bytes from the kernel's generator, as hex.
    static func token() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = generator.next() }
        return bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The token in a `Cookie:` header, if any.
    public static func token(inCookies header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.drop { $0 == " " }
            guard pair.hasPrefix(cookieName + "=") else { continue }
            let value = pair.dropFirst(cookieName.count + 1)
            guard value.count == 64, value.allSatisfy(\.isHexDigit) else { return nil }
            return String(value)
        }
        return nil
    }
}
