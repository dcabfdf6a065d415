import HTTPTypes
import HummingbirdCore
import NIOCore

/// `/api/session`, `/api/login`, `/api/logout`.
extension PageAPI {
    struct SessionView: Encodable {
        var canChange: Bool
        var needsLogin: Bool
        var name: String
        var reason: String?
    }

    func session(_ request: Request, _ context: PageContext) async -> Response {
        let view: SessionView = switch right(of: request) {
        case .change: SessionView(canChange: true, needsLogin: false, name: parts.name)
        case .loginNeeded: SessionView(canChange: false, needsLogin: true, name: parts.name)
        case .refused(let reason): SessionView(canChange: false, needsLogin: false, name: parts.name, reason: reason)
        }
        return PageReplies.json(view)
    }

    struct Login: Decodable { var password: String }
    struct LoggedIn: Encodable {
        var ok = true
        var canChange = true
    }

    func login(_ request: Request, _ context: PageContext) async -> Response {
        if let reason = crossSite(request) { return PageReplies.refused(.forbidden, reason) }
        let attempt: Login
        switch await PageReplies.decode(Login.self, from: request, context: context) {
        case .success(let body): attempt = body
        case .failure(let refusal): return PageReplies.refused(.badRequest, refusal.reason)
        }
        let peer = context.peer
        let now = MonotonicClock.now()
        enum Outcome { case wait(Double), wrong(Int, Double), noPassword, token(String) }
        let outcome = guardian.withLock { guardian -> Outcome in
            guard guardian.access.password != nil else { return .noPassword }
            if case .wait(let seconds) = guardian.throttle.verdict(for: peer, at: now) { return .wait(seconds) }
            guard guardian.access.accepts(attempt.password) else {
                let (failures, delay) = guardian.wholeValue.throttle.failed(peer, at: now)
                return .wrong(failures, delay)
            }
            guardian.wholeValue.throttle.succeeded(peer)
            return .token(guardian.wholeValue.sessions.open(at: now))
        }
        switch outcome {
        case .noPassword:
            return PageReplies.refused(.badRequest, "no password is set ([web] password or [control] password)")
        case .wait(let seconds):
            return PageReplies.refused(.tooManyRequests, "too many wrong passwords; wait \(Int(seconds.rounded(.up))) s", retryAfter: seconds)
        case .wrong(let failures, let delay):
            logger.warning("web: wrong password from \(peer) (\(failures) in a row; the next is checked after \(delay) s)")
            return PageReplies.refused(.unauthorized, "wrong password")
        case .token(let token):
            logger.info("web: \(peer) logged in")
            let cookie = "\(WebSessions.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(30 * 86_400)"
            return PageReplies.json(LoggedIn(), extra: [.setCookie: cookie])
        }
    }

    func logout(_ request: Request, _ context: PageContext) async -> Response {
        if let reason = crossSite(request) { return PageReplies.refused(.forbidden, reason) }
        let token = WebSessions.token(inCookies: request.headers[.cookie])
        guardian.withLock { $0.wholeValue.sessions.close(token) }
        let cookie = "\(WebSessions.cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"
        return PageReplies.json(PageReplies.Done(), extra: [.setCookie: cookie])
    }
}
