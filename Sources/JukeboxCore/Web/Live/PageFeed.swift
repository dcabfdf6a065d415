import Dispatch
import FoundationEssentials

/// The box as the page sees it, kept up to date by the player's typed changes and the
/// daemon's notices, and pushed to every page that follows it.
///
/// The player's observer thread only stores the new status and wakes the followers: it
/// never encodes, writes or waits. Each follower's stream holds at most one wake-up
/// (newest wins), so a phone that reads slowly misses steps, never memory; the JSON is
/// made once per change, by the first follower that asks for it.
final class PageFeed: @unchecked Sendable {
    private struct Shared {
        /// Where the music is: the page is shown paths inside it.
        var library: LibraryPaths
        var status = PlayerStatus()
        var statusAt: UInt64 = 0
        var extras = PageStatus.Extras()
        var version = 0
        var encoded: (version: Int, at: UInt64, json: [UInt8])?
        var followers: [Int: Follower] = [:]
        var nextID = 0
        /// The track whose cover was looked for, so it is looked for once.
        var coverLookedFor: String?
    }

    private struct Follower {
        var peer: String
        var wake: AsyncStream<Void>.Continuation
    }

    private let shared: ConditionLocked<Shared>
    /// Where covers are looked for (it reads folders): never the player's thread.
    private let files = DispatchQueue(label: "jukebox.page.files")

    /// At most this many pages follow the box at once, and this many from one address.
    static let maximumFollowers = 32
    static let maximumFollowersPerPeer = 8

    /// How often every follower gets the status though nothing changed: the page's clock
    /// is set right again, and a connection that died is found.
    static let keepAliveSeconds = 15
    private var keepAlive: DispatchSourceTimer?

    init(library: LibraryPaths, volumeRange: ClosedRange<Int>) {
        var first = Shared(library: library)
        first.extras.volumeRange = volumeRange
        shared = ConditionLocked(first)
    }

    /// The keep-alive wakes, while the server runs.
    func startKeepAlive() {
        let timer = DispatchSource.makeTimerSource(queue: files)
        timer.schedule(deadline: .now() + .seconds(Self.keepAliveSeconds), repeating: .seconds(Self.keepAliveSeconds))
        timer.setEventHandler { [weak self] in
            self?.shared.withLock { shared in
                for follower in shared.followers.values { follower.wake.yield() }
            }
        }
        timer.resume()
        keepAlive = timer
    }

    // MARK: Told (any thread, never waits)

    func playerEvent(_ event: PlayerEvent) {
        guard case .changed(let changes, let status) = event else { return }
        let now = MonotonicClock.now()
        // The player says "nothing changed" once a second while playing (the screen's
        // clock): the page runs its own clock from `elapsed`, so no follower is woken.
        guard !changes.isEmpty else {
            shared.withLock { shared in
                shared.status = status
                shared.statusAt = now
            }
            return
        }
        let lookUpCover = !changes.isDisjoint(with: [.track, .tags])
        change { shared in
            shared.status = status
            shared.statusAt = now
            if lookUpCover { shared.extras.hasCover = false }
        }
        if lookUpCover, let path = status.path { lookForCover(path, metadata: status.metadata) }
    }

    func sleepUntil(_ deadline: UInt64?) { change { $0.extras.sleepUntil = deadline } }
    func keysLocked(_ locked: Bool) { change { $0.extras.keysLocked = locked } }
    /// A card the cards file does not know was put on a reader: the page offers to link it.
    func unknownCard(_ card: String) { change { $0.extras.unknownCard = card } }
    func notices(_ notices: [String]) { change { $0.extras.notices = notices } }
    /// A reload moved the music folder (the paths the page shows) or the volume's range.
    func follow(library: LibraryPaths, volumeRange: ClosedRange<Int>) {
        change { shared in
            shared.library = library
            shared.extras.volumeRange = volumeRange
        }
    }

    private func change(_ edit: (inout Shared) -> Void) {
        shared.withLock { shared in
            edit(&shared.wholeValue)
            shared.version += 1
            for follower in shared.followers.values { follower.wake.yield() }
        }
    }

    private func lookForCover(_ path: String, metadata: TrackMetadata?) {
        files.async { [self] in
            let found = TrackArt.coverSource(for: path, metadata: metadata) != nil
            guard found else { return }
            change { shared in
                if shared.status.path == path { shared.extras.hasCover = true }
            }
        }
    }

    // MARK: Read

    /// The status now, as JSON.
    func json() -> [UInt8] {
        shared.withLock { shared -> [UInt8] in
            let now = MonotonicClock.now()
            // Made once for all the followers a change wakes; while playing, `elapsed` moves,
            // so a copy older than a quarter of a second is made again.
            if let encoded = shared.encoded, encoded.version == shared.version,
               shared.status.state != .playing || now &- encoded.at < 250_000_000 { return encoded.json }
            let status = PageStatus(shared.status, at: shared.statusAt, extras: shared.extras, library: shared.library, now: now)
            let json = (try? Array(PageReplies.encoder.encode(status))) ?? Array("{}".utf8)
            shared.encoded = (shared.version, now, json)
            return json
        }
    }

    /// The status and the time it was taken, for the parts of the page that need more
    /// than the JSON (the cover, the lyrics).
    var current: PlayerStatus { shared.current.status }

    /// Whether one more page from `peer` may follow now.
    func hasRoom(for peer: String) -> Bool {
        shared.withLock { Self.room(in: $0.followers, for: peer) }
    }

    private static func room(in followers: [Int: Follower], for peer: String) -> Bool {
        followers.count < maximumFollowers && followers.values.filter { $0.peer == peer }.count < maximumFollowersPerPeer
    }

    /// A stream that yields once now and once after each change; nil when too many pages
    /// follow already (in all, or from `peer`). `stop` ends it.
    func follow(from peer: String) -> (id: Int, wakes: AsyncStream<Void>)? {
        let (stream, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = shared.withLock { shared -> Int? in
            guard Self.room(in: shared.followers, for: peer) else { return nil }
            shared.nextID += 1
            shared.followers[shared.nextID] = Follower(peer: peer, wake: wake)
            return shared.nextID
        }
        guard let id else { return nil }
        wake.yield()
        return (id, stream)
    }

    func stop(following id: Int) {
        let follower = shared.withLock { $0.followers.removeValue(forKey: id) }
        follower?.wake.finish()
    }

    var followers: Int { shared.current.followers.count }

    /// Ends every follower's stream and the keep-alive (the server stops).
    func stopAll() {
        keepAlive?.cancel()
        keepAlive = nil
        let all = shared.withLock { shared -> [Follower] in
            defer { shared.followers.removeAll() }
            return Array(shared.followers.values)
        }
        for follower in all { follower.wake.finish() }
    }
}
