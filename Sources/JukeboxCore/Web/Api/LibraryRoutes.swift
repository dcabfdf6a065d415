import HTTPTypes
import HummingbirdCore
import NIOCore

/// `/api/mpd`: one MPD command from the page (`PageCommands` says which may pass).
extension PageAPI {
    struct Command: Decodable { var command: String }
    struct CommandAnswer: Encodable {
        var ok: Bool
        var pairs: [[String]]?
        var error: String?
    }

    func mpd(_ request: Request, _ context: PageContext) async -> Response {
        if let reason = crossSite(request) { return PageReplies.refused(.forbidden, reason) }
        let command: Command
        switch await PageReplies.decode(Command.self, from: request, context: context) {
        case .success(let body): command = body
        case .failure(let refusal): return PageReplies.refused(.badRequest, refusal.reason)
        }
        let mayChange = right(of: request) == .change
        switch await parts.commands.run(command.command, mayChange: mayChange) {
        case .pairs(let pairs):
            return PageReplies.json(CommandAnswer(ok: true, pairs: pairs.map { [$0.0, $0.1] }))
        case .refused(let reason):
            return PageReplies.json(CommandAnswer(ok: false, error: reason), status: .unprocessableContent)
        }
    }
}
