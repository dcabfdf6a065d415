import Hummingbird

/// Every path the page server answers, in one table: the method, the path, and the
/// handler. Anything else is a 404.
enum PageRoutes {
    typealias Handler = @Sendable (PageAPI) -> @Sendable (Request, PageContext) async -> Response

    static let table: [(method: HTTPRequest.Method, path: String, handler: Handler)] = [
        (.get, "/", { _ in { _, _ in PageReplies.file(PageAssets.html, type: "text/html; charset=utf-8") } }),
        (.get, "/page.js", { _ in { _, _ in PageReplies.file(PageAssets.script, type: "text/javascript; charset=utf-8") } }),
        (.get, "/page.css", { _ in { _, _ in PageReplies.file(PageAssets.style, type: "text/css; charset=utf-8") } }),
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

    static func router(_ api: PageAPI) -> Router<PageContext> {
        let router = Router(context: PageContext.self)
        for route in table {
            let handle = route.handler(api)
            router.on(RouterPath(route.path), method: route.method) { request, context in await handle(request, context) }
        }
        return router
    }
}
