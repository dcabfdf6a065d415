import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Finds and decodes covers on a thread of its own, so the screen never waits on one: it
/// draws the track without its cover and the cover appears when ready. One decode at a
/// time (the memory `CoverLimits` allows is taken once); a newer track's request
/// replaces one not yet started. The last few covers are kept at the panel's size (an
/// album's tracks share one), and so are failures: a bad picture is tried once, not on
/// every track of its album.
final class CoverLoader: @unchecked Sendable {
    typealias Source = (key: String, bytes: () throws -> [UInt8])

    struct Request {
        var path: String
        var source: Source
        var side: Int
    }

    private struct Inbox {
        var request: Request?
        /// The picture being decoded, and the track that gets it (the latest to ask: a
        /// track's metadata arriving asks again, and so does the next track of the album).
        var decoding: (key: String, side: Int, path: String)?
        var stop = false
        /// Covers decoded lately (nil: the picture failed), newest last.
        var kept: [(key: String, side: Int, cover: Cover?)] = []
    }

    private let shared = ConditionLocked(Inbox())
    private let logger: Logger
    private let deliver: @Sendable (_ path: String, _ cover: Cover?) -> Void
    private var thread: pthread_t?
    static let coversKept = 4

    init(logger: Logger, deliver: @escaping @Sendable (_ path: String, _ cover: Cover?) -> Void) {
        self.logger = logger
        self.deliver = deliver
    }

    func start() throws {
        shared.withLock { $0.stop = false }
        thread = try WorkerThread.start(name: "jukebox-covers") { [self] in run() }
    }

    func stop() {
        guard let thread else { return }
        shared.withLock { $0.stop = true; $0.broadcast() }
        pthread_join(thread, nil)
        self.thread = nil
    }

    /// The cover at once if it was decoded lately (`.some(nil)`: it failed); otherwise
    /// nil, and it is decoded and delivered later.
    func cover(for path: String, source: Source, side: Int) -> Cover?? {
        shared.withLock { inbox in
            if let index = inbox.kept.firstIndex(where: { $0.key == source.key && $0.side == side }) {
                let known = inbox.kept.remove(at: index)
                inbox.kept.append(known)
                return .some(known.cover)
            }
            if let decoding = inbox.decoding, decoding.key == source.key, decoding.side == side {
                inbox.decoding?.path = path
                inbox.request = nil
                return nil
            }
            inbox.request = Request(path: path, source: source, side: side)
            inbox.broadcast()
            return nil
        }
    }

    private func run() {
        while true {
            let next: Request? = shared.withLock { inbox in
                while inbox.request == nil, !inbox.stop { inbox.wait(nanoseconds: 3_600_000_000_000) }
                defer { inbox.request = nil }
                if let request = inbox.request { inbox.decoding = (request.source.key, request.side, request.path) }
                return inbox.stop ? nil : inbox.request
            }
            guard let next else { return }
            var problems: [String] = []
            let cover = TrackArt.decode(next.source, limits: CoverLimits(side: next.side), problems: &problems)
            for problem in problems { logger.warning("screen: \(next.path): \(problem)") }
            let path = shared.withLock { inbox in
                inbox.kept.append((next.source.key, next.side, cover))
                if inbox.kept.count > Self.coversKept { inbox.kept.removeFirst() }
                defer { inbox.decoding = nil }
                return inbox.decoding?.path ?? next.path
            }
            deliver(path, cover)
        }
    }
}
