import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The engine as the player drives it; `AudioEngine` in the box, a recorder in tests.
public protocol PlaybackEngine: AnyObject, Sendable {
    /// Starts `track`, with `next` to follow it (nil: nothing), in one step.
    func play(_ track: TrackRef, from frame: Int64, paused: Bool, next: TrackRef?)
    func setNext(_ track: TrackRef?)
    func pause()
    func resume()
    func stop()
    func seek(toFrame frame: Int64)
    func setVolume(_ volume: Int)
    /// Plays at `speed` times the tempo, pitch kept (1: as recorded).
    func setSpeed(_ speed: Double)
    func setReplayGain(_ rule: ReplayGainRule)
    var snapshot: EngineSnapshot { get }
}

extension AudioEngine: PlaybackEngine {}

/// The player: an explicit state machine (`PlayerMachine`) over the queue and the engine,
/// behind one lock, driven from any thread.
///
/// A caller that can wait (a client's command, a status) takes the lock on its own thread
/// and has its answer at once. What must not wait (events from the engine's threads) is
/// queued, and applied in order, each under the lock; a caller that queued work and then
/// asks something waits behind that work, so it sees it applied. A button's command is
/// applied on the input thread unless work is queued, and then queued behind it.
/// Observers hear each change after the lock is let go, in the order the changes were
/// made, one at a time, before the call that made the change returns (unless another
/// thread was telling meanwhile: it tells them all). They must not call back into the
/// player except through `send`.
public final class Player: Sendable {
    public struct Settings: Sendable, Equatable {
        /// "Previous" restarts the track when more than this much has played.
        public var previousRestartSeconds = 3.0
        public var volumeStep = 5
        public var startVolume = 60
        public var minimumVolume = 0
        public var maximumVolume = 100
        /// While fast-forward or rewind is held: skip this far, this often.
        public var scanStepSeconds = 5.0
        public var scanIntervalMilliseconds = 250
        public var resumeAfterInterruption = true
        /// Resume when the audio device that went away (or was absent) is back, if it was playing.
        public var resumeOnReconnect = true
        public var mode = PlayMode.once
        /// How loudness tags set each track's level.
        public var replayGain = ReplayGainSettings()
        public var historyLimit = 100
        /// Absolute folders that keep their own place (audiobooks), and their speed.
        public var rememberFolders: [String] = []
        /// The playback speed outside those folders, and in one first played
        /// (`[playback] speed`).
        public var speed = 1.0
        public init() {}
    }

    private let machine: ConditionLocked<PlayerMachine>
    /// Where queued work and the machine's timers wait their turn.
    private let queue = DispatchQueue(label: "jukebox.player")
    /// Work queued and not yet applied, counted without a lock: the engine's threads queue
    /// events and never wait.
    private let queued = Atomic<Int>(0)
    /// The observers, behind a lock of their own that is held while they are told, so
    /// that changes reach them in order and one at a time.
    private let observers = ConditionLocked(Observers())
    private struct Observers {
        /// Told first, of the changes alone: the control server, whose clients wait in idle.
        var ofChanges: [ChangeObserver] = []
        var list: [Observer] = []
        var lastId = 0
    }
    private struct ChangeObserver {
        let id: Int
        let handler: @Sendable (PlayerChanges) -> Void
    }
    /// A named struct, not a tuple: a closure in a tuple that is an array's element is
    /// kept in its most general form, and each call goes through a thunk.
    private struct Observer {
        let id: Int
        let handler: @Sendable (PlayerEvent) -> Void
    }
    /// What the machine said under its lock, waiting to be told.
    private let untold = ConditionLocked<[PlayerOutbox.Item]>([])
    #if DEBUG
    /// The thread that holds the lock, to name the mistake of taking it twice; and the one
    /// telling observers, to name an observer that calls back.
    private let holder = Atomic<UInt>(0)
    private let teller = Atomic<UInt>(0)
    #endif

    public init(engine: PlaybackEngine, settings: Settings = Settings()) {
        let queue = queue
        // The machine's timers take the lock through the player they belong to; the
        // player is weak there, so a player let go takes its timers with it.
        let box = WeakPlayer()
        machine = ConditionLocked(PlayerMachine(engine: engine, settings: settings, timerQueue: queue,
                                                reenter: { work in box.player?.locked(work) }))
        box.player = self
    }

    // MARK: Commands

    public func send(_ command: PlayerCommand) { later { $0.handle(command) } }

    /// Applies `command` and returns once the state machine has taken it, so a reply made
    /// afterwards (the control socket's `OK`, a `status`) describes its effect. The audible
    /// change follows on the engine's threads. Never call it from an observer.
    public func perform(_ command: PlayerCommand) {
        now { $0.handle(command) }
    }

    /// Applies `command` on this thread, as `perform` does, unless work is queued before it
    /// (a library's list being set): then it is queued behind that work, as `send` does.
    /// Either way it takes effect in order, and the caller never waits behind queued work:
    /// the input thread, whose edges must be read as they come, and which otherwise takes
    /// the command all the way to the audio thread itself.
    public func performUnlessBusy(_ command: PlayerCommand) {
        if queued.load(ordering: .acquiring) == 0 { locked { $0.handle(command) } } else { send(command) }
    }

    /// Chooses the command from the state at the moment it is applied, in the same step,
    /// so a relative change (volume +5, random on) cannot lose a press made in between.
    /// A nil command does nothing; an error thrown by `decide` is rethrown.
    public func perform<Failure: Error>(_ decide: (PlayerStatus) throws(Failure) -> PlayerCommand?) throws(Failure) {
        try now { machine throws(Failure) in
            if let command = try decide(machine.makeStatus()) { machine.handle(command) }
        }
    }

    /// Engine events arrive here from the engine's threads; one only for the log stays
    /// on the engine's thread.
    public func engineEvent(_ event: EngineEvent) {
        guard !event.isOnlyForTheLog else { return }
        later { $0.handle(event) }
    }

    /// Answers once the player has applied everything queued before: the watchdog's sign
    /// that it is not stuck.
    public func whenCaughtUp(_ answer: @escaping @Sendable () -> Void) { later { _ in answer() } }

    // MARK: The queue and settings

    /// Replaces the queue; the current track keeps playing if it is still in it.
    /// `provisional`: `paths` is only the track about to be started ahead of the real list
    /// (which a later call brings); its end then waits for that list.
    public func setTracks(_ paths: [String], provisional: Bool = false) {
        later { $0.setTracks(paths, provisional: provisional) }
    }

    public func updateSettings(_ new: Settings) { later { $0.updateSettings(new) } }

    /// A client's queue kept from the last run (`QueueFile`), with its entries' priorities
    /// (empty: all 0): it is the queue again, and stays the client's. `restore` then finds
    /// the place in it.
    public func restoreClientQueue(_ paths: [String], priorities: [Int] = []) {
        later { $0.restoreClientQueue(paths, priorities: priorities) }
    }

    /// Carries on from a saved memory: the volume, the mode, the folder places, and the
    /// queue's history and shuffle cycle when the track list is the one they were saved
    /// with. The saved track is cued at its frame, playing if `play`, else paused; a track
    /// no longer in the queue leaves the queue at its start (playing if `play`).
    public func restore(_ memory: PlaybackMemory, play: Bool) { later { $0.restore(memory, play: play) } }

    /// The history and shuffle cycle of `memory`, once the track list it was saved with is
    /// back (after `restore` started its track ahead of the list); the track plays on.
    public func restoreQueueMemory(_ memory: PlaybackMemory) { later { $0.restoreQueueMemory(memory) } }

    /// Changes the queue as a client asks, in one step, and returns once it is applied (so
    /// the reply describes it). `edit` throws to refuse, and then nothing changes. What
    /// plays keeps playing where it still is; a removed current entry gives way to the one
    /// now in its place, if it was playing.
    public func editQueue<T, Failure: Error>(_ edit: (inout QueueDraft) throws(Failure) -> T) throws(Failure) -> T {
        try now { machine throws(Failure) in try machine.editQueue(edit) }
    }

    /// Cancels its timers (the progress ticker, fast-forward steps) for good: the box is
    /// stopping. Commands are still taken, and change nothing audible once the engine stops.
    public func close() { now { $0.close() } }

    // MARK: What it says

    public var status: PlayerStatus { now { $0.makeStatus() } }

    /// What a restart needs to carry on from here (see `StateSaver`).
    public var memory: PlaybackMemory { now { $0.makeMemory() } }

    /// The memory and the client's queue (nil while the queue is the library's, or empty),
    /// taken in one step so that the two always describe the same list.
    public var saving: (memory: PlaybackMemory, clientQueue: ClientQueue?) { now { $0.saving } }

    /// Seconds spent playing since the player was made (MPD's `playtime`).
    public var playTime: Double { now { $0.playedSeconds } }

    /// The library's tracks as the library service last gave them for the queue (what a
    /// button on an emptied queue plays).
    public var library: [String] { now { $0.library } }

    /// The queue as clients list it: its version, and each entry's id and file.
    public var listing: QueueListing { now { $0.listing } }

    // MARK: Observers

    /// `handler` hears every event, in order, after the change is made (see `Player`).
    @discardableResult
    public func observe(_ handler: @escaping @Sendable (PlayerEvent) -> Void) -> Int {
        observers.withLock { o in
            o.lastId += 1
            o.list.append(Observer(id: o.lastId, handler: handler))
            return o.lastId
        }
    }

    /// `handler` hears what each change changed, before any observer of events and
    /// before the status is built for them: the quickest way to learn of a change, for
    /// whoever has a client waiting on it.
    @discardableResult
    public func observeChanges(_ handler: @escaping @Sendable (PlayerChanges) -> Void) -> Int {
        observers.withLock { o in
            o.lastId += 1
            o.ofChanges.append(ChangeObserver(id: o.lastId, handler: handler))
            return o.lastId
        }
    }

    /// Removes an observer of either kind.
    public func removeObserver(_ id: Int) {
        observers.withLock { o in
            o.list.removeAll { $0.id == id }
            o.ofChanges.removeAll { $0.id == id }
        }
    }

    // MARK: The lock

    /// Runs `work` under the lock on this thread, unless work queued earlier has not been
    /// applied yet: then behind it, so that a caller who sent a command and then asks
    /// sees the command applied.
    private func now<T, Failure: Error>(_ work: (PlayerMachine) throws(Failure) -> T) throws(Failure) -> T {
        if queued.load(ordering: .acquiring) == 0 { return try locked(work) }
        // The plain `sync`: the throwing one would wrap the work in two more closures.
        var result: Result<T, Failure>?
        queue.sync { result = Result { () throws(Failure) in try locked(work) } }
        return try result!.get()
    }

    /// Queues `work`, to run under the lock in the order it was queued.
    private func later(_ work: @escaping @Sendable (PlayerMachine) -> Void) {
        queued.wrappingAdd(1, ordering: .relaxed)
        queue.async {
            var handedOver = false
            self.applied(work, handedOver: &handedOver)
            // Applied: a caller asking now need not wait for the observers to hear of it.
            self.queued.wrappingSubtract(1, ordering: .releasing)
            if handedOver { self.tell() }
        }
    }

    fileprivate func locked<T, Failure: Error>(_ work: (PlayerMachine) throws(Failure) -> T) throws(Failure) -> T {
        var handedOver = false
        defer { if handedOver { tell() } }
        return try applied(work, handedOver: &handedOver)
    }

    /// Runs `work` under the lock and hands what it made untold over, saying whether it
    /// made any (then the caller tells the observers, with the lock let go).
    @discardableResult
    private func applied<T, Failure: Error>(_ work: (PlayerMachine) throws(Failure) -> T, handedOver: inout Bool) throws(Failure) -> T {
        #if DEBUG
        let me = UInt(pthread_self())
        precondition(holder.load(ordering: .relaxed) != me, "the player was called from its own observer or work")
        precondition(teller.load(ordering: .relaxed) != me, "the player was called from its own observer")
        #endif
        return try machine.withLock { access throws(Failure) in
            #if DEBUG
            holder.store(me, ordering: .relaxed)
            defer { holder.store(0, ordering: .relaxed) }
            #endif
            // Handed over under the machine's lock, so that they queue in the order made.
            defer {
                let events = access.wholeValue.takeEvents()
                if !events.isEmpty {
                    untold.withLock { $0.wholeValue.append(contentsOf: events) }
                    handedOver = true
                }
            }
            return try work(access.wholeValue)
        }
    }

    /// Tells the observers what is untold, in order, with the machine's lock let go: no
    /// observer's work (a socket write, a redraw) holds up the player. A change's status
    /// is built after the observers of changes have heard of it, so it is the status as
    /// it is when told (never older than the change).
    private func tell() {
        observers.withLock { observers in
            #if DEBUG
            teller.store(UInt(pthread_self()), ordering: .relaxed)
            defer { teller.store(0, ordering: .relaxed) }
            #endif
            while true {
                let items = untold.withLock { untold -> [PlayerOutbox.Item] in
                    defer { untold.wholeValue.removeAll() }
                    return untold.wholeValue
                }
                guard !items.isEmpty else { return }
                for item in items {
                    switch item {
                    case .changed(let changes):
                        if !changes.isEmpty {
                            for observer in observers.ofChanges { observer.handler(changes) }
                        }
                        guard !observers.list.isEmpty else { continue }
                        let event = PlayerEvent.changed(changes, machine.withLock { $0.wholeValue.makeStatus() })
                        for observer in observers.list { observer.handler(event) }
                    case .event(let event):
                        for observer in observers.list { observer.handler(event) }
                    }
                }
            }
        }
    }
}

/// The player as its machine's timers reach it.
private final class WeakPlayer: @unchecked Sendable {
    weak var player: Player?
}
