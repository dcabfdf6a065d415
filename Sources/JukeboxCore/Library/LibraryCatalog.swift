#if canImport(Glibc)
import Glibc
#endif

/// The library as clients browse it (MPD's database): the last scan's tracks with their
/// tags, and its playlists. The library service publishes each scan; control sessions
/// read the latest one, from any thread. Clients also ask here for the library to be
/// updated (MPD's update jobs), which the library service carries out.
public final class LibraryCatalog: Sendable {
    /// One scan's worth, looked up by path.
    public struct Snapshot: Sendable {
        public private(set) var tracks: [LibraryTrack] = []
        public private(set) var playlists: [LibraryPlaylist] = []
        /// Each folder's modification time, seconds since 1970, by path (`LibraryScan`).
        public private(set) var folderTimes: [String: Int] = [:]
        /// Where each track is in `tracks`.
        private var index = PathIndex([])
        /// When it was published (seconds since 1970; 0: never), MPD's `db_update`.
        public var updated: Int = 0

        init() {}

        init(tracks: [LibraryTrack], playlists: [LibraryPlaylist], folderTimes: [String: Int] = [:]) {
            self.tracks = tracks
            self.playlists = playlists
            self.folderTimes = folderTimes
            index = PathIndex(tracks)
        }

        public func position(of path: String) -> Int? { index.position(of: path, in: tracks) }

        /// Where each track is in `tracks`: `positions[path]`.
        public var positions: Positions { Positions(snapshot: self) }

        public struct Positions: Sendable {
            let snapshot: Snapshot
            public subscript(path: String) -> Int? { snapshot.position(of: path) }
        }

        public func tags(of path: String) -> SongTags? { position(of: path).map { tracks[$0].tags } }

        /// Bytes the library's structures keep beyond the snapshot's own size: the track
        /// list, each track's path and tags, and the path index (not the playlists).
        var heapBytes: Int {
            tracks.capacity * MemoryLayout<LibraryTrack>.stride + index.heapBytes
                + tracks.reduce(0) { $0 + $1.tags.heapBytes + PathIndex.stringBytes($1.path) }
        }
    }

    /// What observers hear: a new scan, or an update job that started or ended.
    public enum Change: Sendable, Equatable {
        case published
        case updateStarted(job: Int)
        case updateEnded(job: Int)
    }

    /// An update job the library service takes: its id, and whether to read every file
    /// again (`rescan`) or only folders whose time changed (`update`).
    public struct Job: Sendable, Equatable {
        public var id: Int
        public var everything: Bool
    }

    private struct State {
        var snapshot = Snapshot()
        var observers: [Int: @Sendable (Change) -> Void] = [:]
        var nextObserver = 0
        /// Told when a job is waiting; nil while nothing carries jobs out.
        var updater: (@Sendable () -> Void)?
        var lastJob = 0
        var waiting: Job?
        var running: Int?
    }

    private let shared = ConditionLocked(State())

    public init() {}

    public var snapshot: Snapshot { shared.current.snapshot }

    public func publish(_ scan: LibraryScan) {
        var next = Snapshot(tracks: scan.tracks, playlists: scan.playlists, folderTimes: scan.folderTimes)
        next.updated = time(nil)
        shared.withLock { $0.snapshot = next }
        tell(.published)
    }

    // MARK: Observers

    /// `handler` hears every change, on the thread that made it; it must not wait.
    @discardableResult
    public func observe(_ handler: @escaping @Sendable (Change) -> Void) -> Int {
        shared.withLock { state in
            state.nextObserver += 1
            state.observers[state.nextObserver] = handler
            return state.nextObserver
        }
    }

    public func removeObserver(_ id: Int) { shared.withLock { $0.observers[id] = nil } }

    private func tell(_ change: Change) {
        for observer in shared.current.observers.values { observer(change) }
    }

    // MARK: Update jobs

    /// The job running or waiting, MPD's `updating_db`.
    public var updatingJob: Int? { shared.withLock { $0.running ?? $0.waiting?.id } }

    /// Asks for the library to be scanned again; returns the job's id, or nil when no
    /// library service runs. A request made while a job waits joins it (the scan covers
    /// the whole library), as one made while a job runs waits for the next.
    public func requestUpdate(everything: Bool) -> Int? {
        let (id, wake) = shared.withLock { state -> (Int?, (@Sendable () -> Void)?) in
            guard let updater = state.updater else { return (nil, nil) }
            if var waiting = state.waiting {
                waiting.everything = waiting.everything || everything
                state.waiting = waiting
                return (waiting.id, nil)
            }
            state.lastJob += 1
            state.waiting = Job(id: state.lastJob, everything: everything)
            return (state.lastJob, updater)
        }
        wake?()
        return id
    }

    /// The library service carries out jobs from now on: `wake` is called (never under
    /// a lock of ours) when one waits; it then takes it with `takeJob`. Nil stops.
    public func carryOutUpdates(_ wake: (@Sendable () -> Void)?) {
        let pending = shared.withLock { state -> Bool in
            state.updater = wake
            return state.waiting != nil
        }
        if pending { wake?() }
    }

    /// The waiting job, now running; nil when none waits.
    public func takeJob() -> Job? {
        let job = shared.withLock { state -> Job? in
            guard let job = state.waiting else { return nil }
            state.waiting = nil
            state.running = job.id
            return job
        }
        if let job { tell(.updateStarted(job: job.id)) }
        return job
    }

    public func jobEnded(_ job: Job) {
        shared.withLock { state in
            if state.running == job.id { state.running = nil }
        }
        tell(.updateEnded(job: job.id))
    }
}
