/// Who may change what through the page: the rules, from the config alone.
///
/// As with MPD's TCP clients, anyone who reaches the page may read (what plays, the
/// library, the cards). Changes need the password (`[web] password`, else `[control]
/// password`) once one is set. With none set, changes are allowed only while the page
/// listens on this machine alone: a page opened to the network without a password
/// shows, but changes nothing.
public struct WebAccess: Sendable, Equatable {
    /// The password changes need; nil: none is set.
    public let password: String?
    /// The page listens beyond this machine.
    public let open: Bool

    public init(web: JukeboxConfig.Web, control: JukeboxConfig.Control) {
        let password = web.password.isEmpty ? control.password : web.password
        self.password = password.isEmpty ? nil : password
        open = !Self.isLoopback(web.address)
    }

    public enum Right: Sendable, Equatable {
        case change
        /// A login would give it.
        case loginNeeded
        /// No login can: open to the network with no password set.
        case refused(String)
    }

    /// What a request may do: `loggedIn` says it carries a live session.
    public func right(loggedIn: Bool) -> Right {
        if password != nil { return loggedIn ? .change : .loginNeeded }
        if open { return .refused("the page is open to the network without a password: set [web] password to make changes from it") }
        return .change
    }

    /// Compares without an early exit, so the time taken does not tell how much matched.
    public func accepts(_ attempt: String) -> Bool {
        guard let password else { return false }
        let a = Array(attempt.utf8), b = Array(password.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<max(a.count, b.count) {
            difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
        }
        return difference == 0
    }

    static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address == "localhost" || address.hasPrefix("127.")
    }
}
