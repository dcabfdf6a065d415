import Dispatch

/// The player's state machine over the queue and the engine. `Player` holds it behind its
/// lock, the only way to it: each method runs with the lock held, and what runs later (its
/// timers) comes back through `reenter`.
final class PlayerMachine {
    typealias Settings = Player.Settings

    private let engine: PlaybackEngine
    /// Where the timers fire, and how they take the lock to reach the machine again.
    private let timerQueue: DispatchQueue
    private let reenter: @Sendable (@escaping (PlayerMachine) -> Void) -> Void
    private var settings: Settings

    private var queue = QueueEntries()
    private var playQueue: PlayQueue<SystemRandom>
    private var state = PlayerState.stopped {
        didSet {
            if state != oldValue { changes.insert(.state) }
            // Time spent playing, for MPD's `playtime`.
            let now = MonotonicClock.now()
            if oldValue == .playing, state != .playing, let since = playingSince { playedBefore += now - since }
            if state == .playing, oldValue != .playing { playingSince = now }
            if state != .playing { playingSince = nil }
        }
    }
    private var playingSince: UInt64?
    private var playedBefore: UInt64 = 0
    private var volume: Int {
        didSet { if volume != oldValue { changes.insert(.mixer) } }
    }
    private var lastError: String? {
        didSet { if lastError != oldValue { changes.insert(.error) } }
    }
    private var cursor = GaplessCursor()
    private var wasPlayingBeforeInterruption = false
    private var interrupted = false
    /// The device that went away, while waiting for one; and whether to resume then.
    private var lostOutput: OutputError?
    private var resumeWhenOutputReturns = false
    private var scanTimer: DispatchSourceTimer?
    private var consecutiveFailures = 0
    /// What the player changed since it last told, said where each change is made.
    private var changes: PlayerChanges = []
    /// What to tell observers once the player's lock is released (`takeEvents`).
    private var outbox: [PlayerEvent] = []
    private var ticker: DispatchSourceTimer?
    /// Set by `close`: no timer starts again.
    private var closed = false
    private var places: FolderPlaces
    /// The list holds only a track started ahead of the real list (a resume before the
    /// library is loaded): what follows it is not known yet, so nothing is opened ahead,
    /// and an end that comes first waits for the list (`endedBeforeList`).
    private var provisional = false
    private var endedBeforeList = false

    init(engine: PlaybackEngine, settings: Settings, timerQueue: DispatchQueue,
         reenter: @escaping @Sendable (@escaping (PlayerMachine) -> Void) -> Void) {
        self.engine = engine
        self.settings = settings
        self.timerQueue = timerQueue
        self.reenter = reenter
        volume = max(settings.minimumVolume, min(settings.maximumVolume, settings.startVolume))
        playQueue = PlayQueue(count: 0, mode: settings.mode, historyLimit: settings.historyLimit, generator: SystemRandom())
        places = FolderPlaces(folders: settings.rememberFolders)
        engine.setVolume(volume)
    }

    // MARK: What the player asks of it (see `Player` for each)

    func setTracks(_ paths: [String], provisional: Bool) {
        let currentPath = playQueue.current.map { queue.tracks[$0] }
        // A queue a client made stays; the library's new list waits for an empty queue.
        guard let changed = queue.offerLibrary(paths, provisional: provisional) else { return }
        if changed {
            consecutiveFailures = 0
            changes.insert(.playlist)
        }
        let kept = currentPath.flatMap { paths.firstIndex(of: $0) }
        if kept != playQueue.current { changes.insert(.track) }
        playQueue.reset(count: paths.count, current: kept)
        if let kept { cursor.currentMoved(to: kept) }
        self.provisional = provisional
        if endedBeforeList, !provisional {
            endedBeforeList = false
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
        if new.mode != settings.mode, playQueue.setMode(new.mode) { changes.insert(.options) }
        settings = new
        setVolume(volume)
        scheduleNext()
        notify()
    }

    func close() {
        closed = true
        stopScanning()
        ticker?.cancel()
        ticker = nil
    }

    var saving: (memory: PlaybackMemory, clientQueue: ClientQueue?) {
        (makeMemory(), queue.clientQueue)
    }

    func restoreClientQueue(_ paths: [String]) {
        queueChanged(queue.replaceAll(paths, edited: true))
    }

    func restore(_ memory: PlaybackMemory, play: Bool) {
        setVolume(memory.volume)
        settings.mode = memory.mode
        if playQueue.setOptions(memory.options ?? PlayOptions(mode: memory.mode)) { changes.insert(.options) }
        places.restore(memory.places)
        if memory.queueFingerprint == queue.fingerprint {
            playQueue.restore(memory.queue)
            changes.insert(.track)
        }
        let position = memory.path.flatMap { path in
            playQueue.current.flatMap { queue.tracks[safe: $0] == path ? $0 : nil } ?? queue.tracks.firstIndex(of: path)
        }
        if let position {
            if playQueue.current != position { playQueue.retarget(to: position) }
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
        let playing = playQueue.current
        playQueue.restore(memory.queue)
        if let playing, playQueue.current != playing { playQueue.retarget(to: playing) }
        if playQueue.current != playing { changes.insert(.track) }
        scheduleNext()
        notify()
    }

    var playTime: Double {
        Double(playedBefore + (playingSince.map { MonotonicClock.now() - $0 } ?? 0)) / 1e9
    }

    var library: [String] { queue.library }

    func editQueue<T, Failure: Error>(_ edit: (inout QueueDraft) throws(Failure) -> T) throws(Failure) -> T {
        var draft = queue.draft(current: playQueue.current)
        let result = try edit(&draft)
        if let moved = queue.apply(draft) { queueChanged(moved) }
        return result
    }

    var listing: QueueListing { queue.listing }

    /// What happened since the last call, in order, for the player to tell its observers
    /// once its lock is released.
    func takeEvents() -> [PlayerEvent] {
        var taken: [PlayerEvent] = []
        swap(&taken, &outbox)
        return taken
    }

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
                start(position: playQueue.current ?? playQueue.next() ?? 0)
            }
        case .playPosition(let position):
            guard playQueue.jump(to: position) != nil else { return }
            startAfresh()
            start(position: position)
        case .playFrom(let position, let frame):
            guard playQueue.jump(to: position) != nil else { return }
            startAfresh()
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
            stopTrack()
            state = .stopped
        case .next:
            let left = cursor.current != nil ? playQueue.current : nil
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
            if playQueue.setMode(mode) { changes.insert(.options) }
            scheduleNext()
        case .setOption(let change):
            var options = playQueue.options
            options.set(change)
            if playQueue.setOptions(options) { changes.insert(.options) }
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

    /// An explicit play starts with a clean slate, as MPD's does: the last error is
    /// cleared, and the entries that failed before it no longer count towards stopping.
    private func startAfresh() {
        lastError = nil
        consecutiveFailures = 0
    }

    /// Starts the track at `position`. Coming into a folder that keeps its place, from
    /// outside it, starts where that folder was left instead, unless `exactly`. The track
    /// left is remembered where it was left, unless it `ended` by itself. `backwards`: a
    /// step back ("previous"), which a track that fails to open continues.
    private func start(position: Int, fromFrame frame: Int64 = 0, paused: Bool = false, exactly: Bool = false, ended: Bool = false,
                       backwards: Bool = false) {
        endedBeforeList = false
        cursor.movingBack = backwards
        guard position >= 0, position < queue.tracks.count else { return stopAtEnd() }
        var position = position, frame = frame
        let leaving = currentPath
        if let leaving, !ended { places.left(leaving, at: heardFrame) }
        if !exactly, frame == 0, let place = places.place(enteringAt: queue.tracks[position], from: leaving),
           let remembered = queue.tracks.firstIndex(of: place.path) {
            if remembered != position { playQueue.retarget(to: remembered) }
            position = remembered
            frame = place.frame
        }
        let token = cursor.start(at: position, frame: frame)
        changes.insert(.track)
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
        guard let info = cursor.currentInfo, info.totalFrames > 0 else { return }
        engine.seek(toFrame: info.frame(atSeconds: min(seconds, info.durationSeconds)))
        changes.insert(.seeked)
    }

    private func setVolume(_ requested: Int) {
        volume = max(settings.minimumVolume, min(settings.maximumVolume, requested))
        engine.setVolume(volume)
    }

    private func stopAtEnd() {
        stopScanning()
        engine.stop()
        stopTrack()
        state = .stopped
    }

    /// No track plays any more.
    private func stopTrack() {
        if cursor.current != nil { changes.insert(.track) }
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
        let position: Int?
        if cursor.current == nil || provisional {
            position = nil
        } else if let last = cursor.ahead.last {
            position = playQueue.peekAfterUpcoming(last.position)
        } else {
            position = playQueue.peekAfterNaturalEnd()
        }
        // Into a folder that keeps its place: no gapless start at its top; the track's
        // end starts the remembered place instead.
        guard let position, position < queue.tracks.count, places.place(enteringAt: queue.tracks[position], from: currentPath) == nil else {
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
        stopScanning()
        guard state == .playing || state == .paused, !closed else { return }
        handle(.skip(seconds: step))
        let timer = DispatchSource.makeTimerSource(queue: timerQueue)
        let interval = DispatchTimeInterval.milliseconds(settings.scanIntervalMilliseconds)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [reenter] in reenter { $0.handle(.skip(seconds: step)) } }
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
        if let path = queue.tracks[safe: finished] {
            places.finished(path, nextPath: playQueue.peekAfterNaturalEnd().flatMap { queue.tracks[safe: $0] })
        }
        var position = playQueue.advanceAfterNaturalEnd()
        // What the decoder could not open and passed over is not tried again.
        for entry in cursor.ahead where entry.passedOver {
            guard let at = position, at == entry.position else { break }
            position = playQueue.advanceAfterNaturalEnd()
            playQueue.forgetPlayed(at)
        }
        if let position {
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
            if token == cursor.current { changes.insert(.tags) }
            consecutiveFailures = 0
        case .streamNews(let token, let news):
            guard let before = cursor.metadata(of: token) else { break }
            var metadata = before
            switch news {
            case .station(let name): metadata.stationName = name
            case .title(let title):
                // A new title names a new song: what a tag at the stream's start said
                // (an ID3 artist, album, cover) was about another one.
                var fresh = TrackMetadata()
                fresh.stationName = before.stationName
                fresh.title = title
                metadata = fresh
            case .problem: return  // the log's, not the status's
            }
            guard metadata != before else { return }
            cursor.setMetadata(metadata, of: token)
            if token == cursor.current { currentTagsChanged() }
        case .decoderAdvanced(let token):
            guard cursor.decoderAdvanced(token) else { break }
            scheduleNext()
        case .trackStarted(let token):
            guard token != cursor.current || state == .loading else { break }
            if token != cursor.current, let reached = cursor.heard(token) {
                changes.insert(.track)
                // A gapless change: each track before this one completed by itself,
                // but those the decoder passed over, which were never heard.
                let heardPosition = reached[reached.count - 1].position
                var finishedIds: [Int] = []
                for step in reached.indices {
                    let finished = playQueue.current ?? 0
                    if step > 0, reached[step - 1].passedOver {
                        _ = playQueue.advanceAfterNaturalEnd()
                        playQueue.forgetPlayed(finished)
                        continue
                    }
                    if finished < queue.ids.count { finishedIds.append(queue.ids[finished]) }
                    if let path = queue.tracks[safe: finished] { places.finished(path, nextPath: queue.tracks[safe: heardPosition]) }
                    _ = playQueue.advanceAfterNaturalEnd()
                    emit(.completed(position: finished, queueEnded: false))
                }
                scheduleNext()
                for id in finishedIds { if let position = queue.ids.firstIndex(of: id) { consume(position) } }
            }
            if state == .loading { state = .playing }
            cursor.forgetOld()
        case .finished:
            if provisional {
                endedBeforeList = true
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
                consecutiveFailures += 1
                let failed = playQueue.current
                // On the way it was going: back past it after "previous" (forward from
                // the first entry), forward otherwise.
                var target: Int?
                if cursor.movingBack, let back = playQueue.previous(), back != failed { target = back }
                let backwards = target != nil
                if target == nil { target = playQueue.next() }
                // "previous" never walks back onto it again.
                if let failed { playQueue.forgetPlayed(failed) }
                guard consecutiveFailures < queue.tracks.count, let target else {
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
            changes.insert(.output)
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
        // An event only for the log (a note, an underrun) tells no one.
        if !changes.isEmpty { notify() }
    }

    /// The playing entry's tags changed: `plchanges` lists it again.
    private func currentTagsChanged() {
        queue.tagsChanged(at: cursor.currentPosition)
        changes.formUnion([.tags, .playlist])
    }

    // MARK: Queue edits

    /// The client's queue was emptied and a button asks to play: the library's tracks.
    private func returnToLibrary() {
        queueChanged(queue.replaceAll(queue.library, edited: false))
    }

    /// A new list is in place: `moved[old]` is each old entry's new position (nil: gone).
    /// Tokens, the track decoded next and the queue's history follow their entries.
    private func queueChanged(_ moved: [Int?]) {
        let oldCurrent = playQueue.current
        let wasPlaying = state == .playing || state == .loading
        // Failures in a row count against the list they happened in.
        consecutiveFailures = 0
        changes.insert(.playlist)
        playQueue.remap(count: queue.count, moved: moved)
        if let oldCurrent, oldCurrent >= moved.count || moved[oldCurrent] != oldCurrent { changes.insert(.track) }
        // What the decoder has already gone on to plays as decoded: if any of it is gone
        // or out of order, start the current track again where it is heard. The track
        // named next is named again (or another) once the list is in place.
        let (aheadKept, wasNamed) = cursor.remap(moved)
        if wasNamed { tellEngineNext(nil) }
        if let current = playQueue.current, cursor.current != nil {
            if !aheadKept || !aheadFollows() {
                start(position: current, fromFrame: heardFrame, paused: !wasPlaying, exactly: true)
            } else {
                scheduleNext()
            }
        } else if let oldCurrent, cursor.current != nil || state == .stopped {
            // The current entry went: the one now in its place takes over.
            let replacement = moved.prefix(oldCurrent).compactMap { $0 }.count
            if replacement < queue.count {
                if playQueue.current != replacement { changes.insert(.track) }
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
        for entry in cursor.ahead {
            guard entry.position == expected else { return false }
            expected = playQueue.peekAfterUpcoming(entry.position)
        }
        return true
    }

    /// With consume on, the entry that finished leaves the queue.
    private func consume(_ position: Int) {
        guard playQueue.options.consume, let moved = queue.consume(position) else { return }
        queueChanged(moved)
    }

    // MARK: Status

    private var elapsed: Double {
        guard cursor.current != nil, let info = cursor.currentInfo else { return 0 }
        return Double(heardFrame) / Double(info.sampleRate)
    }

    private var duration: Double { cursor.currentInfo?.durationSeconds ?? 0 }

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
        return PlaybackMemory(state: resting, path: path, frame: frame, volume: volume, mode: playQueue.mode,
                              options: playQueue.options, queue: playQueue.memory, queueFingerprint: queue.fingerprint,
                              places: places.saved)
    }

    func makeStatus(_ snapshot: EngineSnapshot? = nil) -> PlayerStatus {
        let snapshot = snapshot ?? engine.snapshot
        var s = PlayerStatus.Fields()
        s.state = state
        s.queueLength = queue.count
        s.queuePosition = cursor.current != nil ? playQueue.current : nil
        s.selected = playQueue.current.map { QueueSpot(position: $0, id: queue.ids[$0]) }
        s.upcoming = playQueue.upcoming.map { QueueSpot(position: $0, id: queue.ids[$0]) }
        s.queueVersion = queue.version
        s.tagChanges = queue.tagChanges
        s.tracksVersion = queue.tracksVersion
        s.path = s.queuePosition.flatMap { queue.tracks[safe: $0] }
        s.metadata = cursor.currentMetadata
        s.info = cursor.currentInfo
        s.elapsed = elapsed
        s.duration = duration
        s.options = playQueue.options
        s.volume = volume
        s.route = snapshot.route
        s.mixer = snapshot.mixer
        // The network's state is the decoded track's: shown while that is the one heard.
        if let stream = snapshot.stream, stream.token == cursor.current, case .url? = s.location {
            let rate = Double(cursor.currentInfo?.sampleRate ?? 0)
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

    /// Tells what changed since the last telling, with the status it made.
    private func notify() {
        outbox.append(.changed(changes, makeStatus()))
        changes = []
    }

    private func emit(_ event: PlayerEvent) {
        outbox.append(event)
    }

    /// While playing, observers also hear about progress once a second.
    private func startTicker() {
        guard ticker == nil, !closed else { return }
        let timer = DispatchSource.makeTimerSource(queue: timerQueue)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [reenter] in
            reenter { machine in
                guard machine.state == .playing else { return }
                machine.notify()
            }
        }
        timer.resume()
        ticker = timer
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
