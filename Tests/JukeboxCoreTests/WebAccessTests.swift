import Testing
@testable import JukeboxCore

/// The page's rules for who may change what, logins and their back-off, and cross-site
/// requests: values, tested alone.
@Suite struct WebAccessTests {
    let s: UInt64 = 1_000_000_000

    private func access(address: String = "127.0.0.1", web: String = "", control: String = "") -> WebAccess {
        var w = JukeboxConfig.Web()
        w.address = address
        w.password = web
        var c = JukeboxConfig.Control()
        c.password = control
        return WebAccess(web: w, control: c)
    }

    @Test func onThisMachineWithoutAPasswordEveryoneMayChange() {
        #expect(access().right(loggedIn: false) == .change)
    }

    @Test func openToTheNetworkWithoutAPasswordThePageOnlyShows() {
        guard case .refused(let reason) = access(address: "0.0.0.0").right(loggedIn: false) else {
            Issue.record("changes allowed from the network without a password")
            return
        }
        #expect(reason.contains("[web] password"))
    }

    @Test func aPasswordIsNeededOnceSetAndTheControlOneServesWhenTheWebOneIsEmpty() {
        let open = access(address: "0.0.0.0", control: "sesame")
        #expect(open.right(loggedIn: false) == .loginNeeded)
        #expect(open.right(loggedIn: true) == .change)
        #expect(open.accepts("sesame"))
        #expect(!open.accepts("sesam"))
        #expect(!open.accepts("sesame "))
        #expect(!open.accepts(""))
        let own = access(address: "0.0.0.0", web: "page", control: "sesame")
        #expect(own.accepts("page"))
        #expect(!own.accepts("sesame"))
        #expect(!access().accepts(""))
    }

    @Test func wrongPasswordsBackOffPerAddressUpToAMinute() {
        var throttle = LoginThrottle()
        #expect(throttle.verdict(for: "10.0.0.5", at: 0) == .check)
        #expect(throttle.failed("10.0.0.5", at: 0).delay == 0.5)
        #expect(throttle.verdict(for: "10.0.0.5", at: s / 4) == .wait(0.25))
        // Another address is not held up by this one.
        #expect(throttle.verdict(for: "10.0.0.6", at: s / 4) == .check)
        #expect(throttle.failed("10.0.0.5", at: s).delay == 1)
        #expect(throttle.failed("10.0.0.5", at: 3 * s).delay == 2)
        var delay = 0.0
        for i in 0..<20 { delay = throttle.failed("10.0.0.5", at: UInt64(100 + i * 100) * s).delay }
        #expect(delay == 60)
        throttle.succeeded("10.0.0.5")
        #expect(throttle.verdict(for: "10.0.0.5", at: 2001 * s) == .check)
    }

    @Test func aCrowdOfAddressesCannotGrowTheBackOffTable() {
        var throttle = LoginThrottle(capacity: 16)
        for i in 0..<1000 { throttle.failed("10.0.\(i / 256).\(i % 256)", at: UInt64(i) * s) }
        #expect(throttle.records.count == 16)
        // The most recent stay.
        #expect(throttle.records["10.0.3.231"] != nil)
    }

    @Test func sessionsAreBoundedExpireAndEndWithThePassword() {
        var sessions = WebSessions(capacity: 3, lifetimeSeconds: 10)
        let first = sessions.open(at: 0)
        #expect(first.count == 64)
        let live = sessions.check(first, at: s)
        #expect(live)
        let others = (1...3).map { sessions.open(at: UInt64(1 + $0) * s) }
        #expect(sessions.count == 3)
        let evicted = !sessions.check(first, at: 5 * s)
        #expect(evicted, "the session used longest ago makes room")
        let newest = sessions.check(others[2], at: 6 * s)
        #expect(newest)
        let expired = !sessions.check(others[0], at: 30 * s)
        #expect(expired, "unused for its lifetime, it expired")
        let none = !sessions.check(nil, at: 0) && !sessions.check("", at: 0)
        #expect(none)
        sessions.closeAll()
        let closed = !sessions.check(others[2], at: 7 * s)
        #expect(closed)
    }

    @Test func theTokenIsReadFromTheCookieHeaderOnlyWhenWellFormed() {
        let token = String(repeating: "ab", count: 32)
        #expect(WebSessions.token(inCookies: "theme=dark; jukebox_session=\(token)") == token)
        #expect(WebSessions.token(inCookies: "jukebox_session=\(token)x") == nil)
        #expect(WebSessions.token(inCookies: "jukebox_session=../../etc") == nil)
        #expect(WebSessions.token(inCookies: nil) == nil)
        #expect(WebSessions.token(inCookies: "xjukebox_session=\(token)") == nil)
    }

    @Test func changesFromAnotherSiteAreRefused() {
        #expect(CrossSiteCheck.refusal(marker: "1", origin: nil, host: "box:8080", fetchSite: nil) == nil)
        #expect(CrossSiteCheck.refusal(marker: "1", origin: "http://box:8080", host: "box:8080", fetchSite: "same-origin") == nil)
        // A form on another site cannot set the header.
        #expect(CrossSiteCheck.refusal(marker: nil, origin: "http://evil.example", host: "box:8080", fetchSite: "cross-site") != nil)
        // A script there that sets it anyway is named by its origin or by the browser.
        #expect(CrossSiteCheck.refusal(marker: "1", origin: "http://evil.example", host: "box:8080", fetchSite: nil) != nil)
        #expect(CrossSiteCheck.refusal(marker: "1", origin: nil, host: "box:8080", fetchSite: "cross-site") != nil)
        #expect(CrossSiteCheck.refusal(marker: "1", origin: "http://box:8080.evil.example", host: "box:8080", fetchSite: nil) != nil)
        #expect(CrossSiteCheck.refusal(marker: "1", origin: "null", host: "box:8080", fetchSite: nil) != nil)
    }
}
