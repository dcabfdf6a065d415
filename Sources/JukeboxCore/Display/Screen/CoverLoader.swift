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
                return inbox.stop ? nil : inbox.request
            }
            guard let next else { return }
            var problems: [String] = []
            let cover = TrackArt.decode(next.source, limits: CoverLimits(side: next.side), problems: &problems)
            for problem in problems { logger.warning("screen: \(next.path): \(problem)") }
            shared.withLock { inbox in
                inbox.kept.append((next.source.key, next.side, cover))
                if inbox.kept.count > Self.coversKept { inbox.kept.removeFirst() }
            }
            deliver(next.path, cover)
        }
    }
}
