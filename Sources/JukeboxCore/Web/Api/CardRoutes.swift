import HTTPTypes
import HummingbirdCore
import NIOCore

/// `/api/cards`, `/api/cards/link`, `/api/cards/unlink`: the same cards file, and the
/// same checks, as `jukebox cards link` and `forget` in the shell.
extension PageAPI {
    struct CardsView: Encodable {
        struct Card: Encodable {
            struct Place: Encodable {
                var path: String
            }
            var card: String
            var title: String
            var plays: String
            var place: Place?
        }
        var lastUnknown: String?
        var file: String
        var cards: [Card]
    }

    func cardList(_ request: Request, _ context: PageContext) async -> Response {
        guard let service = parts.cards else { return PageReplies.refused(.notFound, "this box has no cards") }
        let library = places.library
        let overview = await offLoop { service.overview() }
        let cards = overview.file.entries.map { entry in
            CardsView.Card(card: entry.id.text, title: entry.title, plays: "\(entry.does)",
                           place: overview.places[entry.id].map { .init(path: library.uri($0.path)) })
        }
        return PageReplies.json(CardsView(lastUnknown: overview.lastUnknown?.text, file: overview.path, cards: cards))
    }

    struct Link: Decodable {
        var card: String?
        var folder: String
        var resume: Bool?
        var name: String?
    }
    struct Linked: Encodable {
        var ok = true
        var card: String
    }

    func linkCard(_ request: Request, _ context: PageContext) async -> Response {
        guard let service = parts.cards else { return PageReplies.refused(.notFound, "this box has no cards") }
        let link: Link
        switch await change(Link.self, request, context) {
        case .body(let body): link = body
        case .refused(let answer): return answer
        }
        let logger = self.logger
        let peer = context.peer
        let outcome = await offLoop { () -> Result<CardID, PageRefusal> in
            let overview = service.overview()
            guard !overview.path.isEmpty else { return .failure(.init("there is no cards file ([cards] file = \"none\")")) }
            guard let id = link.card.map({ CardID($0) }) ?? overview.lastUnknown else {
                return .failure(.init(link.card == nil ? "no unknown card was put on a reader yet" : "\(link.card ?? "") is not a card number"))
            }
            let folder = link.folder.hasSuffix("/") ? String(link.folder.dropLast()) : link.folder
            let entry = CardEntry(id: id, name: link.name?.isEmpty == false ? link.name : nil,
                                  does: .play(CardMusic(target: .library(folder), resume: link.resume ?? false)))
            do {
                // The card alone first, so a wrong folder is named as such.
                _ = try CardsFile.parse(CardsFileEdit.block(for: entry), path: overview.path)
                try CardsFileEdit.edit(path: overview.path) { text throws(CardsFileEdit.Failure) in
                    try CardsFileEdit.link(entry, in: text, path: overview.path)
                }
            } catch let error as ConfigError {
                return .failure(.init(error.reason))
            } catch {
                return .failure(.init("\(error)"))
            }
            service.edited(id)
            logger.notice("web: \(peer) linked card \(id) to \(folder)")
            return .success(id)
        }
        switch outcome {
        case .success(let id): return PageReplies.json(Linked(card: id.text))
        case .failure(let refusal): return PageReplies.refused(.unprocessableContent, refusal.reason)
        }
    }

    struct Unlink: Decodable { var card: String }

    func unlinkCard(_ request: Request, _ context: PageContext) async -> Response {
        guard let service = parts.cards else { return PageReplies.refused(.notFound, "this box has no cards") }
        let unlink: Unlink
        switch await change(Unlink.self, request, context) {
        case .body(let body): unlink = body
        case .refused(let answer): return answer
        }
        guard let id = CardID(unlink.card) else { return PageReplies.refused(.badRequest, "\(unlink.card.prefix(40)) is not a card number") }
        let logger = self.logger
        let peer = context.peer
        let failure = await offLoop { () -> String? in
            let path = service.overview().path
            guard !path.isEmpty else { return "there is no cards file ([cards] file = \"none\")" }
            do {
                try CardsFileEdit.edit(path: path) { text throws(CardsFileEdit.Failure) in try CardsFileEdit.forget(id, in: text, path: path) }
            } catch {
                return "\(error)"
            }
            service.edited(id)
            logger.notice("web: \(peer) forgot card \(id)")
            return nil
        }
        if let failure { return PageReplies.refused(.unprocessableContent, failure) }
        return PageReplies.json(PageReplies.Done())
    }
}
