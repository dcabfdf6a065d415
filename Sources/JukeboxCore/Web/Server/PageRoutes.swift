import HTTPTypes
import HummingbirdCore
import NIOCore

/// Every path the page server answers, in one table: the method, the path, and the
/// handler. Another path is a 404, another method on a known path a 405.
enum PageRoutes {
    typealias Handler = @Sendable (PageAPI) -> @Sendable (Request, PageContext) async -> Response

    static let table: [(method: HTTPRequest.Method, path: String, handler: Handler)] = [
        (.get, "/", { _ in { request, _ in PageFile.html.reply(ifNoneMatch: request.headers[.ifNoneMatch]) } }),
        (.get, "/page.js", { _ in { request, _ in PageFile.script.reply(ifNoneMatch: request.headers[.ifNoneMatch]) } }),
        (.get, "/page.css", { _ in { request, _ in PageFile.style.reply(ifNoneMatch: request.headers[.ifNoneMatch]) } }),
        (.get, "/api/session", { api in api.session }),
        (.post, "/api/login", { api in api.login }),
        (.post, "/api/logout", { api in api.logout }),
        (.get, "/api/status", { api in api.status }),
        (.get, "/api/events", { api in api.events }),
        (.get, "/api/lyrics", { api in api.lyrics }),
        (.get, "/api/cover", { api in api.cover }),
        (.post, "/api/mpd", { api in api.mpd }),
        (.get, "/api/cards", { api in api.cardList }),
        (.post, "/api/cards/link", { api in api.linkCard }),
        (.post, "/api/cards/unlink", { api in api.unlinkCard }),
        (.get, "/api/config", { api in api.config }),
        (.post, "/api/config", { api in api.saveConfig }),
        (.put, "/api/upload", { api in api.upload }),
    ]

    /// The table, looked up by path, then by method.
    struct Responder: Sendable {
        let handlers: [String: [HTTPRequest.Method: @Sendable (Request, PageContext) async -> Response]]

        init(_ api: PageAPI) {
            var handlers: [String: [HTTPRequest.Method: @Sendable (Request, PageContext) async -> Response]] = [:]
            for route in PageRoutes.table { handlers[route.path, default: [:]][route.method] = route.handler(api) }
            self.handlers = handlers
        }

        func respond(to request: Request, _ context: PageContext) async -> Response {
            guard let methods = handlers[String(request.uri.path)] else { return PageReplies.refused(.notFound, "no such page") }
            // HEAD is GET without the body (the server leaves it out).
            let method = request.method == .head ? .get : request.method
            guard let handle = methods[method] else { return PageReplies.refused(.methodNotAllowed, "not with \(request.method)") }
            return await handle(request, context)
        }
    }
}
