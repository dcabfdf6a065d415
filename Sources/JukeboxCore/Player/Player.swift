import Dispatch

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
    var snapshot: EngineSnapshot { get }
}

extension AudioEngine: PlaybackEngine {}

/// The player: an explicit state machine over the queue and the engine.
///
/// Everything runs on one serial queue: commands from any input, events from the engine's
/// threads, and observer notifications. Nothing on it waits for the audio thread; the
/// engine's position is read from the snapshot it publishes.
public final class Player: @unchecked Sendable {
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
        public var historyLimit = 100
        /// Absolute folders that keep their own place (audiobooks).
        public var rememberFolders: [String] = []
        public init() {}
    }

    public let queue = DispatchQueue(label: "jukebox.player")
    private let engine: PlaybackEngine
    private var settings: Settings

    // Confined to `queue`.
    private var tracks: [String] = []
    /// Each queue entry's id, which stays with it while the queue changes around it
    /// (MPD's `songid`), and the queue's version, which every change moves on.
    private var ids: [Int] = []
    private var lastId = 0
    private var queueVersion = 1
    /// The version at which each entry last got its id or place (MPD's `plchanges`).
    private var entryVersions: [Int] = []
    /// The library's tracks as last given, and whether the queue is still that list: once
    /// a client edits the queue it is the client's, and a rescan no longer replaces it.
    private var libraryTracks: [String] = []
    private var queueEdited = false
    private var playQueue: PlayQueue<SystemRandom>
    private var state = PlayerState.stopped {
        didSet {
            // Time spent playing, for MPD's `playtime`.
            let now = MonotonicClock.now()
            if oldValue == .playing, state != .playing, let since = playingSince { playedBefore += now - since }
            if state == .playing, oldValue != .playing { playingSince = now }
            if state != .playing { playingSince = nil }
        }
    }
    private var playingSince: UInt64?
    private var playedBefore: UInt64 = 0
    private var volume: Int
    private var lastError: String?
    private var nextToken = 1
    /// Which queue position each token plays, and what the decode thread found in it.
    private var tokens: [Int: Int] = [:]
    private var opened: [Int: (info: StreamInfo, metadata: TrackMetadata)] = [:]
    private var currentToken: Int?
    /// The frame the current track was started at, until the engine reports hearing it.
    private var cuedFrame: Int64 = 0
    /// The track the engine will continue with, not yet decoded into.
    private var pendingNext: (token: Int, position: Int)?
    /// The engine holds a track to continue with (the last `setNext` named one).
    private var engineHasNext = false
    /// A track the decode thread has moved into, or (`passedOver`) could not open and
    /// went past, before the listener got there.
    private struct Ahead {
        var token: Int
        var position: Int
        var passedOver = false
    }
    /// Tracks the decode thread has moved into but the listener has not reached yet.
    private var decodedAhead: [Ahead] = []
    /// The current track was started by "previous" and has not opened yet: if it cannot
    /// be, the way on is further back.
    private var movingBack = false
    private var wasPlayingBeforeInterruption = false
    private var interrupted = false
    /// The device that went away, while waiting for one; and whether to resume then.
    private var lostOutput: OutputError?
    private var resumeWhenOutputReturns = false
    private var scanTimer: DispatchSourceTimer?
    private var consecutiveFailures = 0
    /// Told of every change before the status is built (the control server, whose idle
    /// clients wait on a change), then the observers. Lists: every change walks them.
    private var digestObservers: [DigestObserver] = []
    private var observers: [EventObserver] = []
    /// Named structs, not tuples: a closure in a tuple that is an array's element is kept
    /// in its most general form, and each call went through a thunk that copied the
    /// digest or event into memory first.
    private struct DigestObserver {
        let id: Int
        let handler: @Sendable (StatusDigest) -> Void
    }
    private struct EventObserver {
        let id: Int
        let handler: @Sendable (PlayerEvent) -> Void
    }
    private var nextObserver = 0
    private var ticker: DispatchSourceTimer?
    /// Set by `close`: no timer starts again.
    private var closed = false
    private var places: FolderPlaces
    /// Names the track list, so a saved queue order is used only for the same tracks.
    private var tracksFingerprint = QueueFingerprint(paths: [])
    /// The list holds only a track started ahead of the real list (a resume before the
    /// library is loaded): what follows it is not known yet, so nothing is opened ahead,
    /// and an end that comes first waits for the list (`endedBeforeList`).
    private var provisional = false
    private var endedBeforeList = false

    public init(engine: PlaybackEngine, settings: Settings = Settings()) {
        self.engine = engine
        self.settings = settings
        volume = max(settings.minimumVolume, min(settings.maximumVolume, settings.startVolume))
        playQueue = PlayQueue(count: 0, mode: settings.mode, historyLimit: settings.historyLimit, generator: SystemRandom())
        places = FolderPlaces(folders: settings.rememberFolders)
        engine.setVolume(volume)
    }

    // MARK: Public interface (any thread)

    public func send(_ command: PlayerCommand) { queue.async { self.handle(command) } }

    /// Applies `command` and returns once the state machine has taken it, so a reply made
    /// afterwards (the control socket's `OK`, a `status`) describes its effect. The audible
    /// change follows on the engine's threads. Never call it from the player's queue.
    public func perform(_ command: PlayerCommand) {
        checkNotOnQueue()
        queue.sync { handle(command) }  // no status to decide on: none is made
    }

    /// Chooses the command from the state at the moment it is applied, in the same step,
    /// so a relative change (volume +5, random on) cannot lose a press made in between.
    /// A nil command does nothing; an error thrown by `decide` is rethrown.
    public func perform<Failure: Error>(_ decide: (PlayerStatus) throws(Failure) -> PlayerCommand?) throws(Failure) {
        checkNotOnQueue()
        // The plain sync: the throwing one wraps the work in two more closures, on the
        // path of every change a client makes.
        var failure: Failure?
        queue.sync {
            do throws(Failure) {
                if let command = try decide(makeStatus()) { handle(command) }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// A `sync` onto the queue from the queue itself would deadlock; libdispatch traps it
    /// in every build (`__DISPATCH_WAIT_FOR_QUEUE__`), so only debug builds spend a check
    /// that names the mistake on every command a client sends.
    private func checkNotOnQueue() {
        #if DEBUG
        dispatchPrecondition(condition: .notOnQueue(queue))
        #endif
    }

    /// Engine events arrive here from the engine's threads.
    public func engineEvent(_ event: EngineEvent) { queue.async { self.handle(event) } }

    /// Replaces the queue; the current track keeps playing if it is still in it.
    /// `provisional`: `paths` is only the track about to be started ahead of the real list
    /// (which a later call brings); its end then waits for that list.
    public func setTracks(_ paths: [String], provisional: Bool = false) {
        queue.async {
            if !provisional { self.libraryTracks = paths }
            // A queue a client made stays; the library's new list waits for an empty queue.
            guard !self.queueEdited else { return }
            let currentPath = self.playQueue.current.map { self.tracks[$0] }
            if paths != self.tracks {
                let kept = self.idsKept(for: paths)
                self.queueVersion += 1
                self.entryVersions = kept.indices.map { i in
                    i < self.ids.count && self.ids[i] == kept[i] ? self.entryVersions[i] : self.queueVersion
                }
                self.ids = kept
            }
            self.tracks = paths
            self.tracksFingerprint = QueueFingerprint(paths: paths)
            let kept = currentPath.flatMap { paths.firstIndex(of: $0) }
            self.playQueue.reset(count: paths.count, current: kept)
            if let kept, let token = self.currentToken { self.tokens[token] = kept }
            self.provisional = provisional
            if self.endedBeforeList, !provisional {
                self.endedBeforeList = false
                self.trackEnded()
            } else {
                self.scheduleNext()
            }
            self.notify()
        }
    }

    public func updateSettings(_ new: Settings) {
        queue.async {
            if new.rememberFolders != self.settings.rememberFolders {
                let saved = self.places.saved
                self.places = FolderPlaces(folders: new.rememberFolders)
                self.places.restore(saved)
            }
            // The configured mode applies when it is changed, not over options set since.
            if new.mode != self.settings.mode { self.playQueue.setMode(new.mode) }
            self.settings = new
            self.setVolume(self.volume)
            self.scheduleNext()
            self.notify()
        }
    }

    public var status: PlayerStatus { queue.sync { makeStatus() } }

    /// Cancels its timers (the progress ticker, fast-forward steps) for good: the box is
    /// stopping. Commands are still taken, and change nothing audible once the engine stops.
    public func close() {
        queue.sync {
            closed = true
            stopScanning()
            ticker?.cancel()
            ticker = nil
        }
    }

    /// What a restart needs to carry on from here (see `StateSaver`).
    public var memory: PlaybackMemory { queue.sync { makeMemory() } }

    /// The memory and the client's queue (nil while the queue is the library's, or empty),
    /// taken in one step so that the two always describe the same list.
    public var saving: (memory: PlaybackMemory, clientQueue: ClientQueue?) {
        queue.sync { (makeMemory(), queueEdited && !tracks.isEmpty ? ClientQueue(version: queueVersion, tracks: tracks) : nil) }
    }

    /// A client's queue kept from the last run (`QueueFile`): it is the queue again, and
    /// stays the client's. `restore` then finds the place in it.
    public func restoreClientQueue(_ paths: [String]) {
        queue.async {
            self.queueEdited = true
            self.replaceQueue(ids: self.freshIds(paths.count), paths: paths, moved: self.ids.map { _ in nil })
        }
    }

    /// Carries on from a saved memory: the volume, the mode, the folder places, and the
    /// queue's history and shuffle cycle when the track list is the one they were saved
    /// with. The saved track is cued at its frame, playing if `play`, else paused; a track
    /// no longer in the queue leaves the queue at its start (playing if `play`).
    public func restore(_ memory: PlaybackMemory, play: Bool) {
        queue.async {
            self.setVolume(memory.volume)
            self.settings.mode = memory.mode
            self.playQueue.setOptions(memory.options ?? PlayOptions(mode: memory.mode))
            self.places.restore(memory.places)
            if memory.queueFingerprint == self.tracksFingerprint { self.playQueue.restore(memory.queue) }
            let position = memory.path.flatMap { path in
                self.playQueue.current.flatMap { self.tracks[safe: $0] == path ? $0 : nil } ?? self.tracks.firstIndex(of: path)
            }
            if let position {
                if self.playQueue.current != position { self.playQueue.retarget(to: position) }
                if play || memory.state != .stopped {
                    self.start(position: position, fromFrame: memory.frame, paused: !play, exactly: true)
                }
            } else if play {
                self.handle(PlayerCommand.play)
            }
            self.notify()
        }
    }

    /// The history and shuffle cycle of `memory`, once the track list it was saved with is
    /// back (after `restore` started its track ahead of the list); the track plays on.
    public func restoreQueueMemory(_ memory: PlaybackMemory) {
        queue.async {
            guard memory.queueFingerprint == self.tracksFingerprint else { return }
            let playing = self.playQueue.current
            self.playQueue.restore(memory.queue)
            if let playing, self.playQueue.current != playing { self.playQueue.retarget(to: playing) }
            self.scheduleNext()
            self.notify()
        }
    }

    /// Seconds spent playing since the player was made (MPD's `playtime`).
    public var playTime: Double {
        queue.sync { Double(playedBefore + (playingSince.map { MonotonicClock.now() - $0 } ?? 0)) / 1e9 }
    }

    /// The library's tracks as the library service last gave them for the queue (what a
    /// button on an emptied queue plays).
    public var library: [String] { queue.sync { libraryTracks } }

    /// Changes the queue as a client asks, in one step on the player's queue, and returns
    /// once it is applied (so the reply describes it). `edit` throws to refuse, and then
    /// nothing changes. What plays keeps playing where it still is; a removed current
    /// entry gives way to the one now in its place, if it was playing.
    public func editQueue<T>(_ edit: (inout QueueDraft) throws -> T) rethrows -> T {
        dispatchPrecondition(condition: .notOnQueue(queue))
        return try queue.sync {
            var draft = QueueDraft(entries: zip(ids, tracks).map { QueueEntry(id: $0, path: $1) },
                                   current: playQueue.current, lastId: lastId)
            let result = try edit(&draft)
            apply(draft)
            return result
        }
    }

    /// The queue as clients list it: its version, and each entry's id and file.
    public var listing: QueueListing { queue.sync { QueueListing(version: queueVersion, ids: ids, paths: tracks, changedAt: entryVersions) } }

    /// Ids for a new track list: an entry whose file was already queued keeps that
    /// entry's id (the first unclaimed one, for a file queued twice); others get new ones.
    private func idsKept(for paths: [String]) -> [Int] {
        var old: [String: [Int]] = [:]
        for (path, id) in zip(tracks, ids) { old[path, default: []].append(id) }
        return paths.map { path in
            if var known = old[path], !known.isEmpty {
                let id = known.removeFirst()
                old[path] = known
                return id
            }
            lastId += 1
            return lastId
        }
    }

    /// `handler` hears every event, on the player's queue (the thread of whoever made the
    /// change).
    @discardableResult
    public func observe(_ handler: @escaping @Sendable (PlayerEvent) -> Void) -> Int {
        register { observers.append(EventObserver(id: $0, handler: handler)) }
    }

    /// `handler` hears the digest of every status change, on the player's queue, before
    /// the status itself is built and before any observer hears of it: the quickest way
    /// to learn that something changed, for whoever has a client waiting on it.
    @discardableResult
    public func observeDigests(_ handler: @escaping @Sendable (StatusDigest) -> Void) -> Int {
        register { digestObservers.append(DigestObserver(id: $0, handler: handler)) }
    }

    /// Gives an observer the next id, on the player's queue, and `file`s it under it.
    private func register(_ file: (Int) -> Void) -> Int {
        queue.sync {
            nextObserver += 1
            file(nextObserver)
            return nextObserver
        }
    }

    /// Removes an observer of either kind.
    public func removeObserver(_ id: Int) {
        queue.async {
            self.observers.removeAll { $0.id == id }
            self.digestObservers.removeAll { $0.id == id }
        }
    }

    // MARK: Commands

    private func handle(_ command: PlayerCommand) {
        switch command {
        case .play:
            switch state {
            case .paused: resumePlayback()
            case .playing, .loading: break
            case .stopped, .error:
                // A button on a queue a client emptied plays the library again.
                if tracks.isEmpty, queueEdited, !libraryTracks.isEmpty { returnToLibrary() }
                start(position: playQueue.current ?? playQueue.next() ?? 0)
            }
        case .playPosition(let position):
            guard playQueue.jump(to: position) != nil else { return }
            start(position: position)
        case .playFrom(let position, let frame):
            guard playQueue.jump(to: position) != nil else { return }
            start(position: position, fromFrame: max(0, frame), paused: state == .paused, exactly: true)
        case .pause:
            resumeWhenOutputReturns = false  // paused on purpose: stay paused when it returns
            if state == .playing || state == .loading { pausePlayback() }
        case .toggle:
            handle(state == .playing || state == .loading ? .pause : .play)
        case .stop:
            resumeWhenOutputReturns = false
            endedBeforeList = false
            if let path = currentPath { places.left(path, at: heardFrame) }
            stopScanning()
            engine.stop()
            currentToken = nil
            state = .stopped
        case .next:
            let left = currentToken != nil ? playQueue.current : nil
            if let position = playQueue.next() {
                start(position: position, paused: state == .paused)
            } else {
                stopAtEnd()  // and observers hear of it below, as of any command
            }
            if let left { consume(left) }
        case .previous:
            if elapsed > settings.previousRestartSeconds {
                seek(to: 0)
            } else if let position = playQueue.previous() {
                start(position: position, paused: state == .paused, backwards: true)
            }
        case .seek(let seconds):
            seek(to: seconds)
        case .skip(let delta):
            let target = elapsed + delta
            if target >= duration, duration > 0 { handle(.next) } else { seek(to: max(0, target)) }
        case .seekFraction(let fraction):
            seek(to: max(0, min(1, fraction)) * duration)
        case .setVolume(let v):
            setVolume(v)
        case .volumeStep(let steps):
            setVolume(volume + steps * settings.volumeStep)
        case .setMode(let mode):
            settings.mode = mode
            playQueue.setMode(mode)
            scheduleNext()
        case .setOption(let change):
            var options = playQueue.options
            options.set(change)
            playQueue.setOptions(options)
            scheduleNext()
        case .cycleMode:
            handle(.setMode(playQueue.mode.cycled))
        case .fastForward(.begin): startScanning(+settings.scanStepSeconds)
        case .rewind(.begin): startScanning(-settings.scanStepSeconds)
        case .fastForward(.end), .rewind(.end): stopScanning()
        case .interruptionBegan:
            guard !interrupted else { return }
            interrupted = true
            wasPlayingBeforeInterruption = state == .playing || state == .loading
            if wasPlayingBeforeInterruption { pausePlayback() }
        case .clearError:
            lastError = nil
            if state == .error { state = .stopped }
        case .interruptionEnded:
            guard interrupted else { return }
            interrupted = false
            if wasPlayingBeforeInterruption, settings.resumeAfterInterruption, state == .paused { resumePlayback() }
        }
        notify()
    }

    /// Starts the track at `position`. Coming into a folder that keeps its place, from
    /// outside it, starts where that folder was left instead, unless `exactly`. The track
    /// left is remembered where it was left, unless it `ended` by itself. `backwards`: a
    /// step back ("previous"), which a track that fails to open continues.
    private func start(position: Int, fromFrame frame: Int64 = 0, paused: Bool = false, exactly: Bool = false, ended: Bool = false,
                       backwards: Bool = false) {
        endedBeforeList = false
        movingBack = backwards
        guard position >= 0, position < tracks.count else { return stopAtEnd() }
        var position = position, frame = frame
        let leaving = currentPath
        if let leaving, !ended { places.left(leaving, at: heardFrame) }
        if !exactly, frame == 0, let place = places.place(enteringAt: tracks[position], from: leaving),
           let remembered = tracks.firstIndex(of: place.path) {
            if remembered != position { playQueue.retarget(to: remembered) }
            position = remembered
            frame = place.frame
        }
        let token = nextToken
        nextToken += 1
        tokens[token] = position
        currentToken = token
        cuedFrame = frame
        pendingNext = nil
        decodedAhead.removeAll()
        // What follows goes with the start, in one step: told after it, it could come when
        // a short track (or any, on a busy CPU) was already decoded to its end, with a gap.
        var following: TrackRef?
        if case .track(let next) = nextToName() { following = next }
        engineHasNext = following != nil
        engine.play(TrackRef(token: token, path: tracks[position]), from: frame, paused: paused, next: following)
        state = paused ? .paused : .loading
        startTicker()
    }

    private func pausePlayback() {
        stopScanning()
        engine.pause()
        state = .paused
    }

    private func resumePlayback() {
        engine.resume()
        state = .playing
    }

    private func seek(to seconds: Double) {
        // A live stream (no length) has nowhere to seek to.
        guard let info = currentInfo, info.totalFrames > 0 else { return }
        engine.seek(toFrame: info.frame(atSeconds: min(seconds, info.durationSeconds)))
    }

    private func setVolume(_ requested: Int) {
        volume = max(settings.minimumVolume, min(settings.maximumVolume, requested))
        engine.setVolume(volume)
    }

    private func stopAtEnd() {
        stopScanning()
        engine.stop()
        currentToken = nil
        state = .stopped
    }

    /// Names the track after the last one the engine has, so it can open it early and
    /// continue without a gap.
    private func scheduleNext() {
        switch nextToName() {
        case .unchanged: break
        case .nothing: tellEngineNext(nil)
        case .track(let next): tellEngineNext(next)
        }
    }

    private enum NextName {
        case unchanged
        case nothing
        case track(TrackRef)
    }

    /// What follows the last track the engine has, now pending; `unchanged` when it is
    /// the one already named.
    private func nextToName() -> NextName {
        let position: Int?
        if currentToken == nil || provisional {
            position = nil
        } else if let last = decodedAhead.last {
            position = playQueue.peekAfterUpcoming(last.position)
        } else {
            position = playQueue.peekAfterNaturalEnd()
        }
        // Into a folder that keeps its place: no gapless start at its top; the track's
        // end starts the remembered place instead.
        guard let position, position < tracks.count, places.place(enteringAt: tracks[position], from: currentPath) == nil else {
            pendingNext = nil
            return .nothing
        }
        if pendingNext?.position == position { return .unchanged }
        let token = nextToken
        nextToken += 1
        tokens[token] = position
        pendingNext = (token, position)
        return .track(TrackRef(token: token, path: tracks[position]))
    }

    /// Tells the engine what follows, unless it is "nothing" again: each telling wakes the
    /// audio threads, and a stopped box changing its options must not.
    private func tellEngineNext(_ track: TrackRef?) {
        guard track != nil || engineHasNext else { return }
        engineHasNext = track != nil
        engine.setNext(track)
    }

    private func startScanning(_ step: Double) {
        stopScanning()
        guard state == .playing || state == .paused, !closed else { return }
        handle(.skip(seconds: step))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.milliseconds(settings.scanIntervalMilliseconds)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.handle(.skip(seconds: step)) }
        timer.resume()
        scanTimer = timer
    }

    private func stopScanning() {
        scanTimer?.cancel()
        scanTimer = nil
    }

    /// The current track played to its end: the next one per the mode, or the queue's end.
    private func trackEnded() {
        let finished = playQueue.current ?? 0
        if let path = tracks[safe: finished] {
            places.finished(path, nextPath: playQueue.peekAfterNaturalEnd().flatMap { tracks[safe: $0] })
        }
        var position = playQueue.advanceAfterNaturalEnd()
        // What the decoder could not open and passed over is not tried again.
        for entry in decodedAhead where entry.passedOver {
            guard let at = position, at == entry.position else { break }
            position = playQueue.advanceAfterNaturalEnd()
            playQueue.forgetPlayed(at)
        }
        if let position {
            emit(.completed(position: finished, queueEnded: false))
            start(position: position, ended: true)
        } else {
            emit(.completed(position: finished, queueEnded: true))
            currentToken = nil
            state = .stopped
        }
        consume(finished)
    }

    // MARK: Engine events

    private func handle(_ event: EngineEvent) {
        switch event {
        case .trackOpened(let token, let info, let metadata):
            opened[token] = (info, metadata)
            consecutiveFailures = 0
            if token == currentToken { movingBack = false }  // a later failure is not a step back
        case .streamNews(let token, let news):
            guard var entry = opened[token] else { break }
            switch news {
            case .station(let name): entry.metadata.stationName = name
            case .title(let title): entry.metadata.title = title
            case .problem: return  // the log's, not the status's
            }
            opened[token] = entry
            if token == currentToken { notify() }
        case .decoderAdvanced(let token):
            guard let pending = pendingNext, pending.token == token else { break }
            decodedAhead.append(Ahead(token: token, position: pending.position))
            pendingNext = nil
            scheduleNext()
        case .trackStarted(let token):
            guard token != currentToken || state == .loading else { break }
            if token != currentToken {
                if pendingNext?.token == token, let pending = pendingNext {
                    // Heard before the decoder's note arrived: same thing.
                    decodedAhead.append(Ahead(token: token, position: pending.position))
                    pendingNext = nil
                }
                if let at = decodedAhead.firstIndex(where: { $0.token == token }) {
                    // A gapless change: each track before this one completed by itself,
                    // but those the decoder passed over, which were never heard.
                    var finishedIds: [Int] = []
                    for step in 0...at {
                        let finished = playQueue.current ?? 0
                        if step > 0, decodedAhead[step - 1].passedOver {
                            _ = playQueue.advanceAfterNaturalEnd()
                            playQueue.forgetPlayed(finished)
                            continue
                        }
                        if finished < ids.count { finishedIds.append(ids[finished]) }
                        if let path = tracks[safe: finished] { places.finished(path, nextPath: tracks[safe: decodedAhead[at].position]) }
                        _ = playQueue.advanceAfterNaturalEnd()
                        emit(.completed(position: finished, queueEnded: false))
                    }
                    decodedAhead.removeFirst(at + 1)
                    currentToken = token
                    scheduleNext()
                    for id in finishedIds { if let position = ids.firstIndex(of: id) { consume(position) } }
                }
            }
            if state == .loading { state = .playing }
            forgetOldTokens()
        case .finished:
            if provisional {
                endedBeforeList = true
            } else {
                trackEnded()
            }
        case .trackFailed(let token, let error):
            guard let position = tokens[token] else { break }
            lastError = "\(error)"
            emit(.trackSkipped(path: tracks[safe: position] ?? "?", reason: "\(error)"))
            if let pending = pendingNext, pending.token == token {
                // Passed over: the decoder goes on to the entry after it, without a gap
                // (it waits a moment for that to be named), and the queue steps over it
                // when the change is heard.
                pendingNext = nil
                decodedAhead.append(Ahead(token: token, position: position, passedOver: true))
                if decodedAhead.count(where: \.passedOver) < tracks.count { scheduleNext() } else { tellEngineNext(nil) }
            } else if token == currentToken {
                consecutiveFailures += 1
                let failed = playQueue.current
                // On the way it was going: back past it after "previous" (forward from
                // the first entry), forward otherwise.
                var target: Int?
                if movingBack, let back = playQueue.previous(), back != failed { target = back }
                let backwards = target != nil
                if target == nil { target = playQueue.next() }
                // "previous" never walks back onto it again.
                if let failed { playQueue.forgetPlayed(failed) }
                guard consecutiveFailures < tracks.count, let target else {
                    state = .error
                    currentToken = nil
                    break
                }
                start(position: target, paused: state == .paused, backwards: backwards)
            }
        case .outputFailed(let error):
            lastError = "\(error)"
            state = .error
        case .outputLost(let error):
            // As an interruption: the engine has paused itself at the frame heard last.
            if lostOutput == nil { resumeWhenOutputReturns = state == .playing || state == .loading }
            lostOutput = error
            if state == .playing || state == .loading {
                stopScanning()
                state = .paused
            }
        case .outputReturned:
            lostOutput = nil
            if resumeWhenOutputReturns, settings.resumeOnReconnect, state == .paused { resumePlayback() }
            resumeWhenOutputReturns = false
        case .outputChanged:
            lostOutput = nil
            resumeWhenOutputReturns = false
        case .volumeChangedOutside(let outside):
            // The control was moved elsewhere: that is the volume now, within the limits
            // (a control set beyond max_volume is brought back to it).
            if (settings.minimumVolume...settings.maximumVolume).contains(outside) {
                volume = outside  // the engine has it already; sending it back would move the control
            } else {
                setVolume(outside)
            }
        case .damaged, .decoderNote, .outputConfigured, .mixerChanged, .mixerOpened, .underrun, .commandApplied:
            break
        }
        notify()
    }

    private func forgetOldTokens() {
        let keep = Set([currentToken, pendingNext?.token].compactMap { $0 } + decodedAhead.map(\.token))
        tokens = tokens.filter { keep.contains($0.key) || $0.key > (currentToken ?? 0) }
        opened = opened.filter { keep.contains($0.key) || $0.key > (currentToken ?? 0) }
    }

    // MARK: Queue edits

    /// Applies an edited copy of the queue as one change.
    private func apply(_ draft: QueueDraft) {
        lastId = draft.lastId
        let newIds = draft.entries.map(\.id)
        guard newIds != ids || draft.entries.map(\.path) != tracks else { return }
        queueEdited = true
        var placed: [Int: Int] = [:]
        for (at, id) in newIds.enumerated() { placed[id] = at }
        replaceQueue(ids: newIds, paths: draft.entries.map(\.path), moved: ids.map { placed[$0] })
    }

    /// The client's queue was emptied and a button asks to play: the library's tracks.
    private func returnToLibrary() {
        queueEdited = false
        replaceQueue(ids: freshIds(libraryTracks.count), paths: libraryTracks, moved: ids.map { _ in nil })
    }

    private func freshIds(_ count: Int) -> [Int] {
        defer { lastId += count }
        return Array(lastId + 1 ..< lastId + 1 + count)
    }

    /// Puts a new list in place: `moved[old]` is each old entry's new position (nil:
    /// gone). Tokens, the track decoded next and the queue's history follow their entries.
    private func replaceQueue(ids newIds: [Int], paths: [String], moved: [Int?]) {
        let oldCurrent = playQueue.current
        let wasPlaying = state == .playing || state == .loading
        queueVersion += 1
        var oldPlace: [Int: Int] = [:]
        for (at, id) in ids.enumerated() { oldPlace[id] = at }
        entryVersions = newIds.indices.map { at in
            // An entry keeps its version only where it stayed put.
            if let old = oldPlace[newIds[at]], old == at, moved[old] == at { return entryVersions[old] }
            return queueVersion
        }
        ids = newIds
        tracks = paths
        tracksFingerprint = QueueFingerprint(paths: paths)
        tokens = tokens.compactMapValues { $0 < moved.count ? moved[$0] : nil }
        playQueue.remap(count: paths.count, moved: moved)
        // An entry the decoder passed over and the client removed needs no stepping over.
        decodedAhead.removeAll { $0.passedOver && ($0.position >= moved.count || moved[$0.position] == nil) }
        // What the decoder has already gone on to plays as decoded: if any of it is gone
        // or out of order, start the current track again where it is heard.
        let ahead = decodedAhead.map { entry in
            entry.position < moved.count ? moved[entry.position].map { Ahead(token: entry.token, position: $0, passedOver: entry.passedOver) } : nil
        }
        // The track named next is named again (or another) once the list is in place.
        if pendingNext != nil {
            pendingNext = nil
            tellEngineNext(nil)
        }
        decodedAhead = ahead.compactMap { $0 }
        if let current = playQueue.current, currentToken != nil {
            if decodedAhead.count != ahead.count || !aheadFollows() {
                start(position: current, fromFrame: heardFrame, paused: !wasPlaying, exactly: true)
            } else {
                scheduleNext()
            }
        } else if let oldCurrent, currentToken != nil || state == .stopped {
            // The current entry went: the one now in its place takes over.
            let replacement = moved.prefix(oldCurrent).compactMap { $0 }.count
            if replacement < paths.count {
                playQueue.retarget(to: replacement)
                if wasPlaying { start(position: replacement) } else { stopAtEnd() }
            } else {
                stopAtEnd()
            }
        }
        notify()
    }

    /// Whether the tracks the decoder went on to still follow the current one in play order.
    private func aheadFollows() -> Bool {
        var expected = playQueue.upcoming
        for entry in decodedAhead {
            guard entry.position == expected else { return false }
            expected = playQueue.peekAfterUpcoming(entry.position)
        }
        return true
    }

    /// With consume on, the entry that finished leaves the queue.
    private func consume(_ position: Int) {
        guard playQueue.options.consume, position < ids.count else { return }
        var moved: [Int?] = Array(0..<ids.count)
        moved[position] = nil
        for at in (position + 1)..<max(position + 1, ids.count) { moved[at] = at - 1 }
        var newIds = ids, newPaths = tracks
        newIds.remove(at: position)
        newPaths.remove(at: position)
        queueEdited = true
        replaceQueue(ids: newIds, paths: newPaths, moved: moved)
    }

    // MARK: Status

    private var currentInfo: StreamInfo? { currentToken.flatMap { opened[$0]?.info } }

    private var elapsed: Double {
        guard let token = currentToken, let info = opened[token]?.info else { return 0 }
        return Double(heardFrame) / Double(info.sampleRate)
    }

    private var duration: Double { currentInfo?.durationSeconds ?? 0 }

    private var currentPath: String? { currentToken.flatMap { tokens[$0] }.flatMap { tracks[safe: $0] } }

    /// The frame of the current track being heard now (where it was cued, until the
    /// engine has it).
    private var heardFrame: Int64 {
        let snapshot = engine.snapshot
        guard let token = currentToken else { return 0 }
        return snapshot.token == token ? snapshot.frame : cuedFrame
    }

    private func makeMemory() -> PlaybackMemory {
        let path = currentPath
        let frame = heardFrame
        if let path { places.left(path, at: frame) }
        let resting: PlayerState = switch state {
        case .playing, .loading: .playing
        case .paused: .paused
        case .stopped, .error: .stopped
        }
        return PlaybackMemory(state: resting, path: path, frame: frame, volume: volume, mode: playQueue.mode,
                              options: playQueue.options, queue: playQueue.memory, queueFingerprint: tracksFingerprint,
                              places: places.saved)
    }

    /// The status's digest, from the same state as `makeStatus(snapshot)`.
    private func makeDigest(_ snapshot: EngineSnapshot) -> StatusDigest {
        var d = StatusDigest()
        d.state = state
        d.selected = playQueue.current.map { QueueSpot(position: $0, id: ids[$0]) }
        d.path = currentToken != nil ? playQueue.current.flatMap { tracks[safe: $0] } : nil
        d.hasMetadata = currentToken.flatMap { opened[$0]?.metadata } != nil
        d.queueVersion = queueVersion
        d.options = playQueue.options
        d.volume = volume
        d.route = snapshot.route
        d.elapsed = elapsed
        return d
    }

    private func makeStatus(_ snapshot: EngineSnapshot? = nil) -> PlayerStatus {
        let snapshot = snapshot ?? engine.snapshot
        var s = PlayerStatus.Fields()
        s.state = state
        s.queueLength = tracks.count
        s.queuePosition = currentToken != nil ? playQueue.current : nil
        s.selected = playQueue.current.map { QueueSpot(position: $0, id: ids[$0]) }
        s.upcoming = playQueue.upcoming.map { QueueSpot(position: $0, id: ids[$0]) }
        s.queueVersion = queueVersion
        s.path = s.queuePosition.flatMap { tracks[safe: $0] }
        s.metadata = currentToken.flatMap { opened[$0]?.metadata }
        s.info = currentInfo
        s.elapsed = elapsed
        s.duration = duration
        s.options = playQueue.options
        s.volume = volume
        s.route = snapshot.route
        s.mixer = snapshot.mixer
        if let stream = snapshot.stream, let path = s.path, NetworkPlayback.isURL(path) {
            let rate = Double(currentInfo?.sampleRate ?? 0)
            s.bufferedSeconds = (rate > 0 ? Double(snapshot.queuedFrames) / rate : 0) + stream.secondsAhead
            s.buffering = state == .playing && stream.waiting && snapshot.queuedFrames == 0
        }
        s.lastError = lostOutput.map(Self.lossReason) ?? lastError ?? snapshot.error.map { "\($0)" }
        return PlayerStatus(s)
    }

    /// What the status says while waiting for a device.
    private static func lossReason(_ error: OutputError) -> String {
        switch error {
        case .absent(let device): "waiting for \(device)"
        case .busy: "\(error); retrying"
        default: "output lost: \(error.device)"
        }
    }

    /// Tells the digest observers, then everyone the whole status, both from one look at
    /// the engine.
    private func notify() {
        let snapshot = engine.snapshot
        if !digestObservers.isEmpty {
            let digest = makeDigest(snapshot)
            for observer in digestObservers { observer.handler(digest) }
        }
        emit(.statusChanged(makeStatus(snapshot)))
    }

    private func emit(_ event: PlayerEvent) {
        for observer in observers { observer.handler(event) }
    }

    /// While playing, observers also hear about progress once a second.
    private func startTicker() {
        guard ticker == nil, !closed else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in
            guard let self, self.state == .playing else { return }
            self.notify()
        }
        timer.resume()
        ticker = timer
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
