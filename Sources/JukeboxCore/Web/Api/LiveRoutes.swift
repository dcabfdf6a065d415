import HTTPTypes
import HummingbirdCore
import NIOCore

/// `/api/status`, `/api/events` (the page follows the box), `/api/lyrics`, `/api/cover`.
extension PageAPI {
    func status(_ request: Request, _ context: PageContext) async -> Response {
        PageReplies.json(parts.feed.json())
    }

    func events(_ request: Request, _ context: PageContext) async -> Response {
        let feed = parts.feed
        let peer = context.peer
        guard feed.hasRoom(for: peer) else {
            return PageReplies.refused(.serviceUnavailable, "too many pages follow the box; close one")
        }
        var headers = PageReplies.securityHeaders
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // Taken here, not above: a body that never runs (the client left before the
            // head went out) must not keep a follower's place.
            guard let (id, wakes) = feed.follow(from: peer) else {
                try await writer.finish(nil)
                return
            }
            // A page that goes away gives its place back at once (its connection's inbound
            // side closes); one that stays but reads nothing is closed by the connection
            // gate, which ends the write below. The feed wakes every follower now and then
            // (`keepAliveSeconds`).
            defer { feed.stop(following: id) }
            try await request.body.consumeWithInboundCloseHandler({ _ in
                for await _ in wakes {
                    var buffer = ByteBuffer(string: "event: status\ndata: ")
                    buffer.writeBytes(feed.json())
                    buffer.writeString("\n\n")
                    try await writer.write(buffer)
                }
            }, onInboundClosed: { feed.stop(following: id) })
            try await writer.finish(nil)
        })
    }

    struct LyricsView: Encodable {
        struct Line: Encodable {
            var start: Int
            var end: Int
            var text: String
            var words: [Word]
        }
        struct Word: Encodable {
            var start: Int
            var end: Int
            var text: String
        }
        var synced: Bool
        var lines: [Line]
    }

    /// The playing track's lyrics, with each line's and word's end worked out by the
    /// screen's own rules (`LyricsMoment`), so the page's fill runs as the screen's does.
    func lyrics(_ request: Request, _ context: PageContext) async -> Response {
        let status = parts.feed.current
        guard let path = status.path else { return PageReplies.json(LyricsView(synced: false, lines: [])) }
        let metadata = status.metadata
        let logger = self.logger
        let view = await offLoop { () -> LyricsView in
            var problems: [String] = []
            let lyrics = TrackArt.lyrics(for: path, metadata: metadata, problems: &problems)
            for problem in problems { logger.info("web: lyrics: \(problem)") }
            guard let lyrics else { return LyricsView(synced: false, lines: []) }
            return Self.view(of: lyrics)
        }
        return PageReplies.json(view)
    }

    static func view(of lyrics: Lyrics) -> LyricsView {
        let lines = lyrics.lines
        var shown: [LyricsView.Line] = []
        for (i, line) in lines.enumerated() where !line.text.isEmpty {
            guard lyrics.synced, let start = line.timeMs else {
                shown.append(.init(start: 0, end: 0, text: line.text, words: []))
                continue
            }
            let next = lines[(i + 1)...].first { ($0.timeMs ?? 0) > start }?.timeMs
            let end = LyricsMoment.lineEnd(line, start: start, nextStart: next)
            let words = line.words.enumerated().map { j, word in
                LyricsView.Word(start: word.timeMs, end: j + 1 < line.words.count ? line.words[j + 1].timeMs : end, text: word.text)
            }
            shown.append(.init(start: start, end: end, text: line.text, words: words))
        }
        return LyricsView(synced: lyrics.synced, lines: shown)
    }

    /// The playing track's cover as it is on the disk (the browser decodes it, in its
    /// own sandbox), or 404.
    func cover(_ request: Request, _ context: PageContext) async -> Response {
        let status = parts.feed.current
        guard let path = status.path else { return PageReplies.refused(.notFound, "nothing is playing") }
        let metadata = status.metadata
        let bytes = await offLoop { () -> [UInt8]? in
            guard let source = TrackArt.coverSource(for: path, metadata: metadata) else { return nil }
            return try? source.bytes()
        }
        guard let bytes, !bytes.isEmpty else { return PageReplies.refused(.notFound, "this track has no cover") }
        let type = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "image/png" : bytes.starts(with: [0xFF, 0xD8, 0xFF]) ? "image/jpeg" : nil
        guard let type else { return PageReplies.refused(.notFound, "the cover is not a JPEG or PNG picture") }
        var headers = PageReplies.securityHeaders
        headers[.contentType] = type
        headers[.cacheControl] = "private, max-age=3600"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
