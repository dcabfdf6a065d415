import Dispatch
import Logging

/// Keeps the state file up to date with the player, on a queue of its own (the disk never
/// holds up the player or the audio thread):
/// - soon after a change that matters (pause, stop, another track, a seek, the volume,
///   the mode), at most once a second;
/// - every `interval` seconds while playing, so a power cut loses at most that much;
/// - at `stop()`, when the box shuts down;
/// - never when nothing changed, so an idle box does not wear its SD card.
///
/// A queue a client made goes to the `QueueFile` beside the state, written before the
/// state that names it, only when the queue changed.
public final class StateSaver: @unchecked Sendable {
    public let file: StateFile
    public let queueFile: QueueFile
    private let player: Player
    private let interval: Double
    private let source: String
    private let logger: Logger
    private let queue = DispatchQueue(label: "jukebox.state")

    // Confined to `queue`.
    private var observer: Int?
    private var lastWritten: PlaybackMemory?
    private var queueOnDisk = QueueOnDisk.unknown
    private enum QueueOnDisk: Equatable {
        /// At the start: a file from the last run may be there, or not.
        case unknown
        case none
        case version(Int)
    }
    private var lastWriteAt: UInt64 = 0
    /// When the next write is due, and which scheduling it is (a sooner one replaces it).
    private var due: (at: UInt64, generation: Int)?
    private var generation = 0
    private var last: (status: PlayerStatus, at: UInt64)?
    private var failing = false
    private var stopped = false
    private var writeCount = 0

    /// Changes closer together than this are written once.
    static let minimumGapSeconds = 1.0

    /// `source` names what the queue was made from ("library", or a playlist's name).
    public init(file: StateFile, player: Player, interval: Double, source: String, logger: Logger) {
        self.file = file
        queueFile = QueueFile(beside: file)
        self.player = player
        self.interval = interval
        self.source = source
        self.logger = logger
    }

    public func start() {
        let id = player.observe { [weak self] event in
            guard case .statusChanged(let status) = event, let self else { return }
            let now = MonotonicClock.now()
            self.queue.async { self.consider(status, at: now) }
        }
        queue.sync { observer = id }
    }

    /// Writes what is unsaved, and saves nothing more.
    public func stop() {
        if let id = queue.sync(execute: { observer }) { player.removeObserver(id) }
        let saving = player.saving
        queue.sync {
            stopped = true
            write(saving.memory, saving.clientQueue)
        }
    }

    /// How many times the file was written (for tests: none while idle).
    public var writes: Int { queue.sync { writeCount } }

    private func consider(_ status: PlayerStatus, at now: UInt64) {
        guard !stopped else { return }
        defer { last = (status, now) }
        guard let (before, then) = last else { return schedule(at: now) }
        // Soon, but at most once a second. (The periodic writes while playing follow from
        // each write itself, in `schedule`.)
        if Self.matters(from: before, to: status, seconds: Self.seconds(from: then, to: now)) {
            schedule(at: max(now, lastWriteAt &+ UInt64(Self.minimumGapSeconds * 1e9)))
        }
    }

    /// A change worth writing straight away.
    static func matters(from before: PlayerStatus, to after: PlayerStatus, seconds: Double) -> Bool {
        if before.state != after.state || before.path != after.path || before.queuePosition != after.queuePosition
            || before.volume != after.volume || before.options != after.options || before.queueVersion != after.queueVersion {
            return true
        }
        return after.jumped(from: before, seconds: seconds)
    }

    /// A write at `time` (monotonic), unless one is due sooner already.
    private func schedule(at time: UInt64) {
        if let due, due.at <= time { return }
        generation += 1
        let mine = generation
        due = (time, mine)
        let delay = max(0, Self.seconds(from: MonotonicClock.now(), to: time))
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            guard due?.generation == mine, !stopped else { return }
            due = nil
            let (memory, clientQueue) = player.saving
            write(memory, clientQueue)
            // While playing, the next write comes `interval` after this one, whatever the
            // player says in between.
            if memory.state == .playing { schedule(at: lastWriteAt &+ UInt64(interval * 1e9)) }
        }
    }

    /// Signed: a write can be stamped after the status that asked for it.
    private static func seconds(from start: UInt64, to end: UInt64) -> Double {
        Double(Int64(bitPattern: end &- start)) / 1e9
    }

    private func write(_ memory: PlaybackMemory, _ clientQueue: ClientQueue?) {
        let queueNow = clientQueue.map { QueueOnDisk.version($0.version) } ?? .none
        guard memory != lastWritten || queueNow != queueOnDisk else { return }
        let state = SavedState(source: source, identity: memory.path.flatMap { FileIdentity(path: $0) }, memory: memory,
                               clientQueue: clientQueue != nil)
        do {
            if queueNow != queueOnDisk {
                if let clientQueue { try queueFile.write(clientQueue.tracks) } else { queueFile.remove() }
                queueOnDisk = queueNow
            }
            try file.write(state)
            lastWritten = memory
            lastWriteAt = MonotonicClock.now()
            writeCount += 1
            if failing { logger.notice("state: saving to \(file.path) works again") }
            failing = false
        } catch {
            // Once, not every second: the box plays on, it just will not remember.
            if !failing { logger.warning("state: \(error); the place will not be remembered until this is fixed") }
            failing = true
            lastWriteAt = MonotonicClock.now()
        }
    }
}
