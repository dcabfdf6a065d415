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
///
/// Whether a status calls for a write is decided where the player tells it, and the
/// saver's queue is woken only to book or make a write: a burst of changes (a knob
/// turned, a client toggling modes) wakes no thread per change, and the thread that
/// made the change goes on to its clients.
public final class StateSaver: @unchecked Sendable {
    public let file: StateFile
    public let queueFile: QueueFile
    private let player: Player
    private let interval: Double
    private let source: QueueSource
    private let logger: Logger
    /// The cards' places to keep with `memory` (the playing card's taken from it).
    private let cardPlaces: @Sendable (PlaybackMemory) -> [CardPlaces.Place]
    private let queue = DispatchQueue(label: "jukebox.state")

    // Confined to `queue`.
    private var observer: Int?
    private var lastWritten: PlaybackMemory?
    private var queueOnDisk = QueueOnDisk.unknown
    private enum QueueOnDisk: Equatable {
        /// At the start: a file from the last run may be there, or not.
        case unknown
        case none
        /// The tracks' version, with the priorities (which change without it).
        case version(Int, priorities: [Int])
    }
    private var failing = false
    private var writeCount = 0

    /// What the player's observer and the saver's queue share.
    struct Plan {
        /// When the next write is due, and which booking it is (a sooner one replaces it).
        var due: (at: UInt64, generation: Int)?
        var generation = 0
        var lastWriteAt: UInt64 = 0
        var stopped = false

        /// Books a write at `time` (monotonic), unless one is due sooner already: the
        /// booking to arm a timer for, or nil.
        mutating func book(at time: UInt64) -> (at: UInt64, generation: Int)? {
            guard !stopped else { return nil }
            if let due, due.at <= time { return nil }
            generation += 1
            due = (time, generation)
            return due
        }

        /// For each change the player tells: the write it calls for, soon but at most once
        /// a second, or nil. (The periodic writes while playing follow from each write
        /// itself, in `arm`.)
        mutating func heard(_ changes: PlayerChanges, at now: UInt64) -> (at: UInt64, generation: Int)? {
            guard !changes.isDisjoint(with: StateSaver.worthWriting) else { return nil }
            return book(at: max(now, lastWriteAt &+ UInt64(StateSaver.minimumGapSeconds * 1e9)))
        }
    }
    private let plan = ConditionLocked(Plan())

    /// Changes closer together than this are written once.
    static let minimumGapSeconds = 1.0

    /// `source` names what the queue was made from.
    public init(file: StateFile, player: Player, interval: Double, source: QueueSource, logger: Logger,
                cardPlaces: @escaping @Sendable (PlaybackMemory) -> [CardPlaces.Place] = { _ in [] }) {
        self.cardPlaces = cardPlaces
        self.file = file
        queueFile = QueueFile(beside: file)
        self.player = player
        self.interval = interval
        self.source = source
        self.logger = logger
    }

    public func start() {
        let id = player.observe { [weak self] event in
            guard case .changed(let changes, _) = event, let self else { return }
            let now = MonotonicClock.now()
            if let booking = plan.withLock({ $0.wholeValue.heard(changes, at: now) }) {
                queue.async { self.arm(booking) }
            }
        }
        // The place is on the disk before `start` returns, so before the library index the
        // scan then writes: a disk too full for that large file still has the small one.
        let (memory, clientQueue) = player.saving
        queue.sync {
            observer = id
            write(memory, clientQueue)
            // Playing already (a resume that came first): no change may come for a while,
            // and the periodic writes follow from this one, as from any write.
            if memory.state == .playing { armNext() }
        }
    }

    /// Writes what is unsaved, and saves nothing more.
    public func stop() {
        if let id = queue.sync(execute: { observer }) { player.removeObserver(id) }
        let saving = player.saving
        plan.withLock { $0.stopped = true }
        queue.sync { write(saving.memory, saving.clientQueue) }
    }

    /// How many times the file was written (for tests: none while idle).
    public var writes: Int { queue.sync { writeCount } }

    /// The changes worth writing straight away: what a power cut must not lose (the
    /// output and an error are not).
    static let worthWriting: PlayerChanges = [.state, .track, .seeked, .mixer, .options, .playlist]

    /// On the saver's queue: the write `booking` asked for, when it is due, unless a
    /// sooner booking has replaced it by then.
    private func arm(_ booking: (at: UInt64, generation: Int)) {
        let delay = max(0, Self.seconds(from: MonotonicClock.now(), to: booking.at))
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            let current = plan.withLock { plan -> Bool in
                guard plan.due?.generation == booking.generation, !plan.stopped else { return false }
                plan.due = nil
                // Stamped as the write begins: a change heard while it is made is booked a
                // gap later, not straight away as if the last write were long ago.
                plan.lastWriteAt = MonotonicClock.now()
                return true
            }
            guard current else { return }
            let (memory, clientQueue) = player.saving
            write(memory, clientQueue)
            // While playing, the next write comes `interval` after this one, whatever the
            // player says in between.
            if memory.state == .playing { armNext() }
        }
    }

    /// On the saver's queue: books the write `interval` after the last one.
    private func armNext() {
        let next = plan.withLock { plan in
            let at = plan.lastWriteAt &+ UInt64(interval * 1e9)
            return plan.wholeValue.book(at: at)
        }
        if let next { arm(next) }
    }

    /// Signed: a write can be stamped after the status that asked for it.
    private static func seconds(from start: UInt64, to end: UInt64) -> Double {
        Double(Int64(bitPattern: end &- start)) / 1e9
    }

    private func write(_ memory: PlaybackMemory, _ clientQueue: ClientQueue?) {
        let queueNow = clientQueue.map { QueueOnDisk.version($0.version, priorities: $0.priorities) } ?? .none
        guard memory != lastWritten || queueNow != queueOnDisk else { return }
        var state = SavedState(source: source, identity: memory.path.flatMap { FileIdentity(track: $0) }, memory: memory,
                               clientQueue: clientQueue != nil)
        let cards = cardPlaces(memory)
        state.cards = cards.isEmpty ? nil : cards
        do {
            if queueNow != queueOnDisk {
                if let clientQueue { try queueFile.write(clientQueue.tracks, priorities: clientQueue.priorities) } else { queueFile.remove() }
                queueOnDisk = queueNow
            }
            try file.write(state)
            lastWritten = memory
            plan.withLock { $0.lastWriteAt = MonotonicClock.now() }
            writeCount += 1
            if failing { logger.notice("state: saving to \(file.path) works again") }
            failing = false
        } catch {
            // Once, not every second: the box plays on, it just will not remember.
            if !failing { logger.warning("state: \(error); the place will not be remembered until this is fixed") }
            failing = true
            plan.withLock { $0.lastWriteAt = MonotonicClock.now() }
        }
    }
}
