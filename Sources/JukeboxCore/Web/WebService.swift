import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The page on the phone (`[web]`): an HTTP server inside the box, for now playing, the
/// library, uploads, cards and the settings. Restarted with back-off if it dies; a busy
/// port is said on the screen and in the log, and the rest of the box plays on.
public final class WebService: Service, @unchecked Sendable {
    public let name = "web page"
    public let policy = FailurePolicy.restarted()

    private let api: PageAPI
    private let feed: PageFeed
    private let logger: Logger
    private let shared: ConditionLocked<Current>

    private struct Current {
        var settings: JukeboxConfig.Web
        var server: PageServer?
    }

    init(settings: JukeboxConfig.Web, access: WebAccess, parts: PageAPI.Parts, places: PageAPI.Places, logger: Logger) {
        feed = parts.feed
        api = PageAPI(parts: parts, places: places, access: access, logger: logger)
        self.logger = logger
        shared = ConditionLocked(Current(settings: settings))
    }

    /// The settings the next start takes, and the password rules at once.
    func update(_ settings: JukeboxConfig.Web, access: WebAccess) {
        shared.withLock { $0.settings = settings }
        api.update(access)
    }

    var settings: JukeboxConfig.Web { shared.current.settings }

    /// The music folder and the upload rules the page works with now.
    var places: PageAPI.Places { api.places }

    /// A reload moved the music folder, the upload rules or the volume's range: the page
    /// follows at once, without a restart, so the phones following it stay connected.
    func follow(_ places: PageAPI.Places, scope: ControlServer.Scope, volumeRange: ClosedRange<Int>) {
        api.follow(places)
        api.parts.commands.follow(scope)
        feed.follow(library: places.library, volumeRange: volumeRange)
    }

    public func start(died: @escaping @Sendable (any Error) -> Void) throws {
        let settings = self.settings
        guard settings.enabled else {
            logger.info("web: off ([web] enabled = false)")
            return
        }
        let port = settings.port ?? Self.defaultPort()
        let server = PageServer()
        let routes = PageRoutes.Responder(api)
        switch server.start(address: settings.address, port: port, respond: { await routes.respond(to: $0, $1) }, logger: logger, ended: died) {
        case .failed(let error):
            server.stop(patience: 0)
            throw WebStartError(address: settings.address, port: port, reason: "\(error)")
        case .listening(let port):
            shared.withLock { $0.server = server }
            feed.startKeepAlive()
            let shown = settings.address.utf8.contains(UInt8(ascii: ":")) ? "[\(settings.address)]" : settings.address
            logger.info("web: the page is on http://\(shown):\(port)/\(WebAccess.isLoopback(settings.address) ? " (this machine only; [web] address opens it)" : "")")
        }
    }

    public func stop() {
        let server = shared.withLock { access -> PageServer? in
            defer { access.server = nil }
            return access.server
        }
        feed.stopAll()
        server?.stop()
    }

    /// The port Zeroconf announces the page on: only when it is on and reachable beyond
    /// this machine.
    static func announcedPort(_ web: JukeboxConfig.Web) -> Int? {
        guard web.enabled, !WebAccess.isLoopback(web.address) else { return nil }
        return web.port ?? defaultPort()
    }

    /// 80 when the box runs under systemd with the right to bind it (its own service, as
    /// installed), else 8080, which any user may take.
    static func defaultPort() -> Int {
        getenv("INVOCATION_ID") != nil && canBindLowPorts() ? 80 : 8080
    }

    /// CAP_NET_BIND_SERVICE (bit 10) in the effective set, from /proc/self/status.
    static func canBindLowPorts() -> Bool {
        guard let text = try? FileReader.contents(of: "/proc/self/status", limit: 64 << 10) else { return false }
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") where line.hasPrefix("CapEff:") {
            let hex = line.dropFirst("CapEff:".count).drop { $0 == " " || $0 == "\t" }
            guard let bits = UInt64(hex, radix: 16) else { return false }
            return bits & (1 << 10) != 0
        }
        return false
    }
}

/// The page could not listen: the address and port, and why (in use, no such address).
struct WebStartError: Error, CustomStringConvertible {
    var address: String
    var port: Int
    var reason: String
    var description: String { "web: cannot listen on \(address) port \(port): \(reason)" }
}
