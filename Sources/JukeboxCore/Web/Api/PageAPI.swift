import Dispatch
import HTTPTypes
import HummingbirdCore
import NIOCore
import Logging

/// What the page's requests reach: the box's parts, and who may change them. Each
/// group of routes is an extension in a file of its own (session, live, library, cards,
/// settings, uploads).
final class PageAPI: @unchecked Sendable {
    struct Parts: Sendable {
        var feed: PageFeed
        var commands: PageCommands
        var cards: CardService?
        var catalog: LibraryCatalog
        /// Where the config is read and saved; nil: the box runs without a file.
        var configSource: ConfigSource?
        var name: String
    }

    /// What a live reload of the config moves: the music folder, and the upload rules.
    struct Places: Sendable {
        var library: LibraryPaths
        /// Where uploads go; nil: uploads are off.
        var uploads: UploadFolder?
    }

    let parts: Parts
    /// Read once per request: a request already running keeps the places it began with.
    private let currentPlaces: ConditionLocked<Places>
    var places: Places { currentPlaces.current }
    let logger: Logger
    /// The rules, the logins and the back-off: one locked value.
    let guardian: ConditionLocked<Guardian>
    /// File reads (lyrics, covers, the config) wait here, never on the event loop.
    let files = DispatchQueue(label: "jukebox.page.files", attributes: .concurrent)

    struct Guardian {
        var access: WebAccess
        var sessions = WebSessions()
        var throttle = LoginThrottle()
    }

    init(parts: Parts, places: Places, access: WebAccess, logger: Logger) {
        self.parts = parts
        currentPlaces = ConditionLocked(places)
        self.logger = logger
        guardian = ConditionLocked(Guardian(access: access))
    }

    /// The music folder or the upload rules changed (a reload).
    func follow(_ places: Places) {
        currentPlaces.withLock { $0.wholeValue = places }
    }

    /// The rules changed (a reload): with another password every login ends.
    func update(_ access: WebAccess) {
        guardian.withLock { guardian in
            if guardian.access.password != access.password { guardian.wholeValue.sessions.closeAll() }
            guardian.access = access
        }
    }

    // MARK: Rights

    func right(of request: Request) -> WebAccess.Right {
        let token = WebSessions.token(inCookies: request.headers[.cookie])
        let now = MonotonicClock.now()
        return guardian.withLock { guardian in
            let loggedIn = guardian.wholeValue.sessions.check(token, at: now)
            return guardian.access.right(loggedIn: loggedIn)
        }
    }

    /// nil when `request` may change the box; else the answer refusing it. A read that
    /// needs the right (the config, which holds the passwords) skips the cross-site
    /// check: another site's page cannot read what a GET answers.
    func refusalToChange(_ request: Request) -> Response? {
        if request.method != .get, let reason = crossSite(request) { return PageReplies.refused(.forbidden, reason) }
        switch right(of: request) {
        case .change: return nil
        case .loginNeeded: return PageReplies.refused(.unauthorized, "log in to make changes")
        case .refused(let reason): return PageReplies.refused(.forbidden, reason)
        }
    }

    /// What a change's handler gets: its body, or the answer refusing the request.
    enum Checked<Body> {
        case body(Body)
        case refused(Response)
    }

    /// A change's JSON body, once the request may make it (`refusalToChange`).
    func change<Body: Decodable>(_ type: Body.Type, _ request: Request, _ context: PageContext) async -> Checked<Body> {
        if let refusal = refusalToChange(request) { return .refused(refusal) }
        switch await PageReplies.decode(type, from: request, context: context) {
        case .success(let body): return .body(body)
        case .failure(let refusal): return .refused(PageReplies.refused(.badRequest, refusal.reason))
        }
    }

    func crossSite(_ request: Request) -> String? {
        CrossSiteCheck.refusal(marker: request.headers[HTTPField.Name(CrossSiteCheck.header)!], origin: request.headers[.origin],
                               host: request.head.authority,
                               fetchSite: request.headers[HTTPField.Name("Sec-Fetch-Site")!])
    }

    /// Runs `work` on the file queue and hands back its result.
    func offLoop<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { done in files.async { done.resume(returning: work()) } }
    }
}
