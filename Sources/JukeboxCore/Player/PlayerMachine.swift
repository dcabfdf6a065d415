import Dispatch

/// The player's state machine over the queue and the engine. `Player` holds it behind its
/// lock, the only way to it: each method runs with the lock held, and what runs later (its
/// timers) comes back through `reenter`.
final class PlayerMachine {
    typealias Settings = Player.Settings

    private let engine: PlaybackEngine
    private var settings: Settings
    private var queue: QueueEntries
    private var cursor = GaplessCursor()
    private var places: FolderPlaces
    private let timers: PlayerTimers
    private var outbox = PlayerOutbox()
    private var interruptions = Interruptions()
    private var playTime = PlayTime()
    private var state = PlayerState.stopped {
        didSet {
            guard state != oldValue else { return }
            outbox.changed(.state)
            playTime.stateChanged(from: oldValue, to: state, at: MonotonicClock.now())
        }
    }
    private var volume: Int {
        didSet { if volume != oldValue { outbox.changed(.mixer) } }
    }
    private var lastError: String? {
        didSet { if lastError != oldValue { outbox.changed(.error) } }
    }

    init(engine: PlaybackEngine, settings: Settings, timerQueue: DispatchQueue,
         reenter: @escaping @Sendable (@escaping (PlayerMachine) -> Void) -> Void) {
        self.engine = engine
        self.settings = settings
        timers = PlayerTimers(queue: timerQueue, reenter: reenter)
        volume = max(settings.minimumVolume, min(settings.maximumVolume, settings.startVolume))
        queue = QueueEntries(order: PlayQueue(count: 0, mode: settings.mode, historyLimit: settings.historyLimit, generator: SystemRandom()))
        places = FolderPlaces(folders: settings.rememberFolders)
        engine.setVolume(volume)
    }

    // MARK: What the player asks of it (see `Player` for each)

    func setTracks(_ paths: [String], provisional: Bool) {
        let currentPath = queue.order.current.map { queue.tracks[$0] }
        // A queue a client made stays; the library's new list waits for an empty queue.
        guard let changed = queue.offerLibrary(paths, provisional: provisional) else { return }
        if changed {
            cursor.failuresInARow = 0
            outbox.changed(.playlist)
        }
        let kept = currentPath.flatMap { paths.firstIndex(of: $0) }
        if kept != queue.order.current { outbox.changed(.track) }
        queue.order.reset(count: paths.count, current: kept)
        if let kept { cursor.currentMoved(to: kept) }
        if cursor.endedBeforeList, !provisional {
            cursor.endedBeforeList = false
            trackEnded()
        } else {
            scheduleNext()
        }
        notify()
    }

    func updateSettings(_ new: Settings) {
        if new.rememberFolders != settings.rememberFolders {
            let saved = places.saved
            places = FolderPlaces(folders: new.rememberFolders)
            places.restore(saved)
        }
        // The configured mode applies when it is changed, not over options set since.
        if new.mode != settings.mode, queue.order.setMode(new.mode) { outbox.changed(.options) }
        settings = new
        setVolume(volume)
        scheduleNext()
        notify()
    }

    func close() { timers.close() }

    var saving: (memory: PlaybackMemory, clientQueue: ClientQueue?) {
        (makeMemory(), queue.clientQueue)
    }

    func restoreClientQueue(_ paths: [String]) {
        queueChanged(queue.replaceAll(paths, edited: true))
    }

    func restore(_ memory: PlaybackMemory, play: Bool) {
        setVolume(memory.volume)
        settings.mode = memory.mode
        if queue.order.setOptions(memory.options ?? PlayOptions(mode: memory.mode)) { outbox.changed(.options) }
        places.restore(memory.places)
        if memory.queueFingerprint == queue.fingerprint {
            queue.order.restore(memory.queue)
            outbox.changed(.track)
        }
        let position = memory.path.flatMap { path in
            queue.order.current.flatMap { queue.tracks[safe: $0] == path ? $0 : nil } ?? queue.tracks.firstIndex(of: path)
        }
        if let position {
            if queue.order.current != position { queue.order.retarget(to: position) }
            if play || memory.state != .stopped {
                start(position: position, fromFrame: memory.frame, paused: !play, exactly: true)
            }
        } else if play {
            handle(PlayerCommand.play)
        }
        notify()
    }

    func restoreQueueMemory(_ memory: PlaybackMemory) {
        guard memory.queueFingerprint == queue.fingerprint else { return }
        let playing = queue.order.current
        queue.order.restore(memory.queue)
        if let playing, queue.order.current != playing { queue.order.retarget(to: playing) }
        if queue.order.current != playing { outbox.changed(.track) }
        scheduleNext()
        notify()
    }

    var playedSeconds: Double { playTime.seconds(at: MonotonicClock.now()) }

    var library: [String] { queue.library }

    func editQueue<T, Failure: Error>(_ edit: (inout QueueDraft) throws(Failure) -> T) throws(Failure) -> T {
        var draft = queue.draft(current: queue.order.current)
        let result = try edit(&draft)
        if let moved = queue.apply(draft) { queueChanged(moved) }
        return result
    }

    var listing: QueueListing { queue.listing }

    /// What happened since the last call, in order, for the player to tell its observers
    /// once its lock is released.
    func takeEvents() -> [PlayerOutbox.Item] { outbox.take() }

    // MARK: Commands

    func handle(_ command: PlayerCommand) {
        switch command {
        case .play:
            startAfresh()
            switch state {
            case .paused: resumePlayback()
            case .playing, .loading: break
            case .stopped, .error:
                // A button on a queue a client emptied plays the library again.
                if queue.isEmpty, queue.edited, !queue.library.isEmpty { returnToLibrary() }
                start(position: queue.order.current ?? queue.order.next() ?? 0)
            }
        case .playPosition(let position):
            guard queue.order.jump(to: position) != nil else { return }
            startAfresh()
            start(position: position)
        case .playFrom(let position, let frame):
            guard queue.order.jump(to: position) != nil else { return }
            startAfresh()
            start(position: position, fromFrame: max(0, frame), paused: state == .paused, exactly: true)
        case .pause:
            interruptions.listenerPaused()  // paused on purpose: stay paused when it returns
            if state == .playing || state == .loading { pausePlayback() }
        case .toggle:
            handle(state == .playing || state == .loading ? .pause : .play)
        case .stop:
            interruptions.listenerPaused()
            cursor.endedBeforeList = false
            if let path = currentPath { places.left(path, at: heardFrame) }
            timers.stopScanning()
            engine.stop()
            stopTrack()
            state = .stopped
        case .next:
            let left = cursor.current != nil ? queue.order.current : nil
            if let position = queue.order.next() {
                start(position: position, paused: state == .paused)
            } else {
                stopAtEnd()  // and observers hear of it below, as of any command
            }
            if let left { consume(left) }
        case .previous:
            if elapsed > settings.previousRestartSeconds {
                seek(to: 0)
            } else if let position = queue.order.previous() {
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
            if queue.order.setMode(mode) { outbox.changed(.options) }
            scheduleNext()
        case .setOption(let change):
            var options = queue.order.options
            options.set(change)
            if queue.order.setOptions(options) { outbox.changed(.options) }
            scheduleNext()
        case .cycleMode:
            handle(.setMode(queue.order.mode.cycled))
        case .fastForward(.begin): startScanning(+settings.scanStepSeconds)
        case .rewind(.begin): startScanning(-settings.scanStepSeconds)
        case .fastForward(.end), .rewind(.end): timers.stopScanning()
        case .interruptionBegan:
            if interruptions.began(playing: state == .playing || state == .loading) { pausePlayback() }
        case .clearError:
            lastError = nil
            if state == .error { state = .stopped }
        case .interruptionEnded:
            if interruptions.ended(), settings.resumeAfterInterruption, state == .paused { resumePlayback() }
        }
        notify()
    }

    /// An explicit play starts with a clean slate, as MPD's does: the last error is
    /// cleared, and the entries that failed before it no longer count towards stopping.
    private func startAfresh() {
        lastError = nil
        cursor.failuresInARow = 0
    }

    /// Starts the track at `position`. Coming into a folder that keeps its place, from
    /// outside it, starts where that folder was left instead, unless `exactly`. The track
    /// left is remembered where it was left, unless it `ended` by itself. `backwards`: a
    /// step back ("previous"), which a track that fails to open continues.
    private func start(position: Int, fromFrame frame: Int64 = 0, paused: Bool = false, exactly: Bool = false, ended: Bool = false,
                       backwards: Bool = false) {
        cursor.endedBeforeList = false
        cursor.movingBack = backwards
        guard position >= 0, position < queue.tracks.count else { return stopAtEnd() }
        var position = position, frame = frame
        let leaving = currentPath
        if let leaving, !ended { places.left(leaving, at: heardFrame) }
        if !exactly, frame == 0, let place = places.place(enteringAt: queue.tracks[position], from: leaving),
           let remembered = queue.tracks.firstIndex(of: place.path) {
            if remembered != position { queue.order.retarget(to: remembered) }
            position = remembered
            frame = place.frame
        }
        let token = cursor.start(at: position, frame: frame)
        outbox.changed(.track)
        // What follows goes with the start, in one step: told after it, it could come when
        // a short track (or any, on a busy CPU) was already decoded to its end, with a gap.
        var following: TrackRef?
        if case .track(let next) = nextToName() { following = next }
        cursor.engineHolds(next: following != nil)
        engine.play(TrackRef(token: token, path: queue.tracks[position]), from: frame, paused: paused, next: following)
        state = paused ? .paused : .loading
        startTicker()
    }

    private func pausePlayback() {
        timers.stopScanning()
        engine.pause()
        state = .paused
    }

    private func resumePlayback() {
        engine.resume()
        state = .playing
    }

    private func seek(to seconds: Double) {
        // A live stream (no length) has nowhere to seek to.
        guard let info = cursor.currentInfo, info.totalFrames > 0 else { return }
        engine.seek(toFrame: info.frame(atSeconds: min(seconds, info.durationSeconds)))
        outbox.changed(.seeked)
    }

    private func setVolume(_ requested: Int) {
        volume = max(settings.minimumVolume, min(settings.maximumVolume, requested))
        engine.setVolume(volume)
    }

    private func stopAtEnd() {
        timers.stopScanning()
        engine.stop()
        stopTrack()
        state = .stopped
    }

    /// No track plays any more.
    private func stopTrack() {
        if cursor.current != nil { outbox.changed(.track) }
        cursor.stop()
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
        // Into a folder that keeps its place: no gapless start at its top; the track's
        // end starts the remembered place instead.
        guard let position = queue.following(ahead: cursor.ahead, playing: cursor.current != nil), places.place(enteringAt: queue.tracks[position], from: currentPath) == nil else {
            cursor.nameNothing()
            return .nothing
        }
        guard let token = cursor.name(position) else { return .unchanged }
        return .track(TrackRef(token: token, path: queue.tracks[position]))
    }

    /// Tells the engine what follows, unless it is "nothing" again: each telling wakes the
    /// audio threads, and a stopped box changing its options must not.
    private func tellEngineNext(_ track: TrackRef?) {
        guard cursor.tell(hasNext: track != nil) else { return }
        engine.setNext(track)
    }

    private func startScanning(_ step: Double) {
        timers.stopScanning()
        guard state == .playing || state == .paused, !timers.closed else { return }
        handle(.skip(seconds: step))
        timers.startScanning(every: settings.scanIntervalMilliseconds) { $0.handle(.skip(seconds: step)) }
    }

    /// The current track played to its end: the next one per the mode, or the queue's end.
    private func trackEnded() {
        let finished = queue.order.current ?? 0
        if let path = queue.tracks[safe: finished] {
            places.finished(path, nextPath: queue.order.peekAfterNaturalEnd().flatMap { queue.tracks[safe: $0] })
        }
        if let position = queue.advanceAfterEnd(passing: cursor.ahead) {
            emit(.completed(position: finished, queueEnded: false))
            start(position: position, ended: true)
        } else {
            emit(.completed(position: finished, queueEnded: true))
            stopTrack()
            state = .stopped
        }
        consume(finished)
    }

    // MARK: Engine events

    func handle(_ event: EngineEvent) {
        switch event {
        case .trackOpened(let token, let info, let metadata):
            cursor.opened(token, info: info, metadata: metadata)
            if token == cursor.current { outbox.changed(.tags) }
            cursor.failuresInARow = 0
        case .streamNews(let token, let news):
            guard let before = cursor.metadata(of: token), let metadata = before.applying(news), metadata != before else { return }
            cursor.setMetadata(metadata, of: token)
            if token == cursor.current { currentTagsChanged() }
        case .decoderAdvanced(let token):
            guard cursor.decoderAdvanced(token) else { break }
            scheduleNext()
        case .trackStarted(let token):
            guard token != cursor.current || state == .loading else { break }
            if token != cursor.current, let reached = cursor.heard(token) {
                outbox.changed(.track)
                let heardPath = queue.tracks[safe: reached[reached.count - 1].position]
                let finished = queue.advance(through: reached)
                for entry in finished {
                    places.finished(entry.path, nextPath: heardPath)
                    emit(.completed(position: entry.position, queueEnded: false))
                }
                scheduleNext()
                for entry in finished { if let position = queue.ids.firstIndex(of: entry.id) { consume(position) } }
            }
            if state == .loading { state = .playing }
            cursor.forgetOld()
        case .finished:
            if queue.provisional {
                cursor.endedBeforeList = true
            } else {
                trackEnded()
            }
        case .trackFailed(let token, let error):
            guard let position = cursor.positions[token] else { break }
            lastError = "\(error)"
            emit(.trackSkipped(path: queue.tracks[safe: position] ?? "?", reason: "\(error)"))
            if cursor.passedOver(token, at: position) {
                // Passed over: the decoder goes on to the entry after it, without a gap
                // (it waits a moment for that to be named), and the queue steps over it
                // when the change is heard.
                if cursor.ahead.count(where: \.passedOver) < queue.tracks.count { scheduleNext() } else { tellEngineNext(nil) }
            } else if token == cursor.current {
                cursor.failuresInARow += 1
                let (target, backwards) = queue.wayPastFailure(movingBack: cursor.movingBack)
                guard cursor.failuresInARow < queue.tracks.count, let target else {
                    state = .error
                    stopTrack()
                    break
                }
                start(position: target, paused: state == .paused, backwards: backwards)
            }
        case .outputFailed(let error):
            lastError = "\(error)"
            state = .error
        case .routeChanged:
            outbox.changed(.output)
        case .outputLost(let error):
            // As an interruption: the engine has paused itself at the frame heard last.
            interruptions.outputLost(error, playing: state == .playing || state == .loading)
            if state == .playing || state == .loading {
                timers.stopScanning()
                state = .paused
            }
        case .outputReturned:
            if interruptions.outputReturned(), settings.resumeOnReconnect, state == .paused { resumePlayback() }
        case .outputChanged:
            interruptions.outputChanged()
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
        // An event only for the log (a note, an underrun) tells no one.
        if !outbox.changes.isEmpty { notify() }
    }

    /// The playing entry's tags changed: `plchanges` lists it again.
    private func currentTagsChanged() {
        queue.tagsChanged(at: cursor.currentPosition)
        outbox.changed([.tags, .playlist])
    }

    // MARK: Queue edits

    /// The client's queue was emptied and a button asks to play: the library's tracks.
    private func returnToLibrary() {
        queueChanged(queue.replaceAll(queue.library, edited: false))
    }

    /// A new list is in place: `moved[old]` is each old entry's new position (nil: gone).
    /// Tokens, the track decoded next and the queue's history follow their entries.
    private func queueChanged(_ moved: [Int?]) {
        let oldCurrent = queue.order.current
        let wasPlaying = state == .playing || state == .loading
        // Failures in a row count against the list they happened in.
        cursor.failuresInARow = 0
        outbox.changed(.playlist)
        queue.order.remap(count: queue.count, moved: moved)
        if let oldCurrent, oldCurrent >= moved.count || moved[oldCurrent] != oldCurrent { outbox.changed(.track) }
        // What the decoder has already gone on to plays as decoded: if any of it is gone
        // or out of order, start the current track again where it is heard. The track
        // named next is named again (or another) once the list is in place.
        let (aheadKept, wasNamed) = cursor.remap(moved)
        if wasNamed { tellEngineNext(nil) }
        if let current = queue.order.current, cursor.current != nil {
            if !aheadKept || !aheadFollows() {
                start(position: current, fromFrame: heardFrame, paused: !wasPlaying, exactly: true)
            } else {
                scheduleNext()
            }
        } else if let oldCurrent, cursor.current != nil || state == .stopped {
            // The current entry went: the one now in its place takes over.
            if let replacement = queue.replacement(forRemoved: oldCurrent, moved: moved) {
                if queue.order.current != replacement { outbox.changed(.track) }
                queue.order.retarget(to: replacement)
                if wasPlaying { start(position: replacement) } else { stopAtEnd() }
            } else {
                stopAtEnd()
            }
        }
        notify()
    }

    /// Whether the tracks the decoder went on to still follow the current one in play order.
    private func aheadFollows() -> Bool {
        var expected = queue.order.upcoming
        for entry in cursor.ahead {
            guard entry.position == expected else { return false }
            expected = queue.order.peekAfterUpcoming(entry.position)
        }
        return true
    }

    /// With consume on, the entry that finished leaves the queue.
    private func consume(_ position: Int) {
        guard queue.order.options.consume, let moved = queue.consume(position) else { return }
        queueChanged(moved)
    }

    // MARK: Status

    private var elapsed: Double { cursor.seconds(at: heardFrame) }

    private var duration: Double { cursor.duration }

    private var currentPath: String? { cursor.currentPosition.flatMap { queue.tracks[safe: $0] } }

    /// The frame of the current track being heard now (where it was cued, until the
    /// engine has it).
    private var heardFrame: Int64 {
        let snapshot = engine.snapshot
        guard let token = cursor.current else { return 0 }
        return snapshot.token == token ? snapshot.frame : cursor.cuedFrame
    }

    func makeMemory() -> PlaybackMemory {
        let path = currentPath
        let frame = heardFrame
        if let path { places.left(path, at: frame) }
        let resting: PlayerState = switch state {
        case .playing, .loading: .playing
        case .paused: .paused
        case .stopped, .error: .stopped
        }
        return PlaybackMemory(state: resting, path: path, frame: frame, volume: volume, mode: queue.order.mode,
                              options: queue.order.options, queue: queue.order.memory, queueFingerprint: queue.fingerprint,
                              places: places.saved)
    }

    func makeStatus(_ snapshot: EngineSnapshot? = nil) -> PlayerStatus {
        PlayerStatus(state: state, volume: volume, queue: queue, cursor: cursor, heardFrame: heardFrame, engine: snapshot ?? engine.snapshot,
                     lastError: lastError, lostOutput: interruptions.lostOutput)
    }

    /// Tells what changed since the last telling (`Player` adds the status).
    private func notify() { outbox.postChanges() }

    private func emit(_ event: PlayerEvent) { outbox.post(event) }

    /// While playing, observers also hear about progress once a second.
    private func startTicker() {
        timers.startTicking { machine in
            guard machine.state == .playing else { return }
            machine.notify()
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
