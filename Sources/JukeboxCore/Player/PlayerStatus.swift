/// The player's states. `completed` is an event, not a state: see `PlayerEvent`.
public enum PlayerState: String, Sendable, Codable, BitwiseCopyable {
    case stopped, loading, playing, paused, error
}

/// What observers (the screen, state saving, the control socket) are told.
///
/// Copies share one set of fields until one of them is changed: the player hands every
/// status to several observers, and copying eighteen fields (titles, paths, stream
/// details) for each was most of what telling them cost. Sendable: the shared fields are
/// changed only through a copy that holds them alone.
@dynamicMemberLookup
public struct PlayerStatus: @unchecked Sendable, Equatable {
    public struct Fields: Sendable, Equatable {
        public var state: PlayerState = .stopped
        /// The current track's place in the queue, and its file.
        public var queuePosition: Int?
        public var queueLength = 0
        /// The queue's current entry, also while stopped (where `play` starts: MPD's `song`),
        /// and the one due after it (`nextsong`).
        public var selected: QueueSpot?
        public var upcoming: QueueSpot?
        /// Moves on with every change to the queue (MPD's `playlist`).
        public var queueVersion = 1
        /// Moves on each time the playing track's tags change while it plays (a station's
        /// name or a new title): MPD's `player` and `playlist` changes.
        public var tagChanges = 0
        /// The queue's version when its list of entries last changed (not their tags).
        public var tracksVersion = 1
        /// The stored playlist a client loaded last, until the queue is cleared.
        public var loadedPlaylist: String?
        public var path: String?
        public var metadata: TrackMetadata?
        public var info: StreamInfo?
        public var elapsed: Double = 0
        public var duration: Double = 0
        /// A network track: seconds of it downloaded ahead of what is heard (nil for a file).
        public var bufferedSeconds: Double?
        /// Playing, but the audio ran out while the network is behind: it goes on by itself
        /// when the bytes arrive.
        public var buffering = false
        /// Repeat, random, single and consume.
        public var options = PlayOptions()
        public var replayGainMode = ReplayGainMode.off
        public var volume = 100
        /// The playback speed, pitch kept (1: as recorded).
        public var speed = 1.0
        /// Where the audio goes: playing on a device, waiting for one, or lost.
        public var route = RouteState.idle
        /// Where volume is applied: "software", or the card's control and its range.
        public var mixer = "software"
        public var lastError: String?

        /// Where `path` lives (the queue keeps its entries as strings).
        public var location: TrackLocation? { path.map(TrackLocation.init) }
    }

    private final class Storage: ManagedBuffer<Fields, Void> {}
    private var storage: Storage

    public init() { self.init(Fields()) }

    public init(_ fields: Fields) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 0) { _ in fields }, to: Storage.self)
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
        // Through the pointer: `header` itself is checked for exclusive access at run time.
        get { storage.withUnsafeMutablePointerToHeader { $0.pointee[keyPath: field] } }
        set {
            if !isKnownUniquelyReferenced(&storage) { self = PlayerStatus(storage.header) }
            storage.withUnsafeMutablePointerToHeader { $0.pointee[keyPath: field] = newValue }
        }
    }

    public static func == (a: PlayerStatus, b: PlayerStatus) -> Bool {
        a.storage === b.storage
            || a.storage.withUnsafeMutablePointerToHeader { x in b.storage.withUnsafeMutablePointerToHeader { y in x.pointee == y.pointee } }
    }

    /// The mode the options amount to; setting one sets repeat, random and single.
    public var mode: PlayMode {
        get { self.options.mode }
        set { self.options = PlayOptions(mode: newValue, consume: self.options.consume) }
    }

    /// Where the current track lives.
    public var location: TrackLocation? { self.path.map(TrackLocation.init) }

    public var progress: Double { self.duration > 0 ? min(1, max(0, self.elapsed / self.duration)) : 0 }

    public static func clock(_ seconds: Double) -> String {
        let s = Int(max(0, seconds))
        return "\(s / 60):\(String(s % 60).leftPadded(to: 2))"
    }
}

extension PlayerStatus {
    /// The status the player's parts make together: its state and volume, the queue,
    /// the track heard (`cursor`, at `heardFrame`) and the engine's news.
    init(state: PlayerState, volume: Int, replayGainMode: ReplayGainMode, speed: Double, queue: QueueEntries, cursor: GaplessCursor, heardFrame: Int64,
         engine snapshot: EngineSnapshot, lastError: String?, lostOutput: OutputError?) {
        var s = Fields()
        s.state = state
        s.queueLength = queue.count
        s.queuePosition = cursor.current != nil ? queue.order.current : nil
        s.selected = queue.order.current.map { QueueSpot(position: $0, id: queue.ids[$0], priority: queue.priority(at: $0)) }
        s.upcoming = queue.order.upcoming.map { QueueSpot(position: $0, id: queue.ids[$0], priority: queue.priority(at: $0)) }
        s.queueVersion = queue.version
        s.tagChanges = queue.tagChanges
        s.tracksVersion = queue.tracksVersion
        s.loadedPlaylist = queue.loadedPlaylist
        s.path = s.queuePosition.flatMap { queue.tracks[safe: $0] }
        s.metadata = cursor.currentMetadata
        s.info = cursor.currentInfo
        s.elapsed = cursor.seconds(at: heardFrame)
        s.duration = cursor.duration
        s.options = queue.order.options
        s.replayGainMode = replayGainMode
        s.volume = volume
        s.speed = speed
        s.route = snapshot.route
        s.mixer = snapshot.mixer
        // The network's state is the decoded track's: shown while that is the one heard.
        if let stream = snapshot.stream, stream.token == cursor.current, case .url? = s.location {
            let rate = Double(cursor.currentInfo?.sampleRate ?? 0)
            s.bufferedSeconds = (rate > 0 ? Double(snapshot.queuedFrames) / rate : 0) + stream.secondsAhead
            s.buffering = state == .playing && stream.waiting && snapshot.queuedFrames == 0
        }
        s.lastError = lostOutput.map(Self.waitingReason) ?? lastError ?? snapshot.error.map { "\($0)" }
        self.init(s)
    }

    /// What the status says while waiting for a device.
    private static func waitingReason(_ error: OutputError) -> String {
        switch error {
        case .absent(let device): "waiting for \(device)"
        case .busy: "\(error); retrying"
        default: "output lost: \(error.device)"
        }
    }
}

/// A queue entry by position and by id.
public struct QueueSpot: Sendable, Equatable, BitwiseCopyable {
    public var position: Int
    public var id: Int
    /// MPD's `Prio` (0 unless a client set one).
    public var priority = 0

    public init(position: Int, id: Int, priority: Int = 0) {
        self.position = position
        self.id = id
        self.priority = priority
    }
}

/// The queue as clients list it.
public struct QueueListing: Sendable, Equatable {
    public var version: Int
    /// The version when the entries last changed: a command that found a position in
    /// this listing applies it while the entries are still these.
    public var tracksVersion: Int
    public var ids: [Int]
    public var paths: [String]
    /// The version at which each entry came to be where it is.
    public var changedAt: [Int]
    /// Each entry's priority; empty while all are 0.
    public var priorities: [Int] = []

    public func spot(_ position: Int) -> QueueSpot {
        QueueSpot(position: position, id: ids[position], priority: position < priorities.count ? priorities[position] : 0)
    }

    /// The positions that changed after `version`: all of them for a version this queue
    /// never had (a client that knew another run's queue).
    public func changed(since version: Int) -> [Int] {
        guard version <= self.version else { return Array(paths.indices) }
        return changedAt.indices.filter { changedAt[$0] > version }
    }
}

/// Things that happen, as opposed to what is (the status).
public enum PlayerEvent: Sendable, Equatable {
    /// The player changed what `changes` says, and this is its status now; while playing,
    /// the status also comes once a second with no change (the time moved on).
    case changed(PlayerChanges, PlayerStatus)
    /// A track ended by itself (the `completed` event); `queueEnded` when nothing follows.
    case completed(position: Int, queueEnded: Bool)
    case trackSkipped(path: String, reason: String)
}

/// A queue a client made, as the state saver keeps it: its tracks, and its version to
/// tell whether it changed since it was last written.
public struct ClientQueue: Sendable, Equatable {
    public var version: Int
    public var tracks: [String]
    /// Each entry's MPD priority; empty while every one is 0.
    public var priorities: [Int] = []
}
