/// The queue as it plays, as MPD's playlist is: which entry is heard and which ones the
/// decoder has gone on to (the gapless cursor), what is named to follow, and the places
/// folders keep. It starts tracks and names what follows through `control`, and steps on
/// when a track ends, fails to open or leaves the list. Each change is put in the outbox
/// where it is made.
final class PlayingQueue {
    private(set) var queue: QueueEntries
    private(set) var cursor = GaplessCursor()
    private(set) var places: FolderPlaces
    /// A seek asked for before the current track opened: its token and where to.
    private var seekWhenOpened: (token: Int, seconds: Double)?
    private let control: PlayerControl
    private let outbox: PlayerOutbox

    init(queue: QueueEntries, places: FolderPlaces, control: PlayerControl, outbox: PlayerOutbox) {
        self.queue = queue
        self.places = places
        self.control = control
        self.outbox = outbox
    }

    var currentPath: String? { cursor.currentPosition.flatMap { queue.tracks[safe: $0] } }

    /// The frame of the current track being heard now (where it was cued, until the
    /// engine has it).
    var heardFrame: Int64 {
        let snapshot = control.snapshot
        guard let token = cursor.current else { return 0 }
        return snapshot.token == token ? snapshot.frame : cursor.cuedFrame
    }

    var elapsed: Double { cursor.seconds(at: heardFrame) }

    // MARK: The list

    /// The library's tracks, as the scan found them (see `Player.setTracks`).
    func offerLibrary(_ paths: [String], provisional: Bool) {
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
    }

    /// Changes the play order (`PlayQueue`'s rules); what follows is named again.
    func reorder(_ change: (inout PlayQueue<SystemRandom>) -> Bool) {
        if change(&queue.order) {
            outbox.changed(.options)
            control.shuffling = queue.order.options.random
        }
        scheduleNext()
    }

    /// Moves the current entry by `change`, returning where to.
    func move(_ change: (inout PlayQueue<SystemRandom>) -> Int?) -> Int? { change(&queue.order) }

    func setFolders(_ folders: [String]) {
        let saved = places.saved
        places = FolderPlaces(folders: folders)
        places.restore(saved)
    }

    func restore(_ memory: PlaybackMemory) {
        if queue.order.setOptions(memory.options ?? PlayOptions(mode: memory.mode)) {
            outbox.changed(.options)
            control.shuffling = queue.order.options.random
        }
        places.restore(memory.places)
        if memory.queueFingerprint == queue.fingerprint {
            queue.order.restore(memory.queue)
            outbox.changed(.track)
        }
    }

    /// The history and shuffle order saved with this same list, around the entry playing.
    func restoreOrder(_ memory: PlaybackMemory) {
        guard memory.queueFingerprint == queue.fingerprint else { return }
        let playing = queue.order.current
        queue.order.restore(memory.queue)
        if let playing, queue.order.current != playing { queue.order.retarget(to: playing) }
        if queue.order.current != playing { outbox.changed(.track) }
        scheduleNext()
    }

    /// Where a saved track is in the list now (the current entry first), made current.
    func select(_ path: String) -> Int? {
        let position = queue.order.current.flatMap { queue.tracks[safe: $0] == path ? $0 : nil } ?? queue.tracks.firstIndex(of: path)
        if let position, queue.order.current != position { queue.order.retarget(to: position) }
        return position
    }

    func replaceAll(_ paths: [String]) { queueChanged(queue.replaceAll(paths, edited: true)) }

    func edit<T, Failure: Error>(_ edit: (inout QueueDraft) throws(Failure) -> T) throws(Failure) -> T {
        var draft = queue.draft(current: queue.order.current)
        let result = try edit(&draft)
        if let moved = queue.apply(draft) { queueChanged(moved) }
        return result
    }

    /// The client's queue was emptied and a button asks to play: the library's tracks.
    func returnToLibrary() {
        queueChanged(queue.replaceAll(queue.library, edited: false))
    }

    func memory(state: PlayerState, volume: Int) -> PlaybackMemory {
        let path = currentPath
        let frame = heardFrame
        if let path { places.left(path, at: frame, speed: control.speed) }
        let resting: PlayerState = switch state {
        case .playing, .loading: .playing
        case .paused: .paused
        case .stopped, .error: .stopped
        }
        return PlaybackMemory(state: resting, path: path, frame: frame, volume: volume, mode: queue.order.mode,
                              options: queue.order.options, queue: queue.order.memory, queueFingerprint: queue.fingerprint,
                              places: places.saved)
    }

    // MARK: Playing

    /// An explicit play starts with a clean slate, as MPD's does: the entries that failed
    /// before it no longer count towards stopping.
    func startAfresh() { cursor.failuresInARow = 0 }

    /// Starts the track at `position`. Coming into a folder that keeps its place, from
    /// outside it, starts where that folder was left instead, unless `exactly`. The track
    /// left is remembered where it was left, unless it `ended` by itself. `backwards`: a
    /// step back ("previous"), which a track that fails to open continues.
    func start(position: Int, fromFrame frame: Int64 = 0, paused: Bool = false, exactly: Bool = false, ended: Bool = false,
               backwards: Bool = false) {
        cursor.endedBeforeList = false
        cursor.movingBack = backwards
        guard position >= 0, position < queue.tracks.count else { return stopAtEnd() }
        var position = position, frame = frame
        let leaving = currentPath
        if let leaving, !ended { places.left(leaving, at: heardFrame, speed: control.speed) }
        if !exactly, frame == 0, let place = places.place(enteringAt: queue.tracks[position], from: leaving),
           let remembered = queue.tracks.firstIndex(of: place.path) {
            if remembered != position { queue.order.retarget(to: remembered) }
            position = remembered
            frame = place.frame
        }
        followFolderSpeed(into: queue.tracks[position], from: leaving)
        clearPriority(at: position)
        let token = cursor.start(at: position, frame: frame)
        outbox.changed(.track)
        // What follows goes with the start, in one step: told after it, it could come when
        // a short track (or any, on a busy CPU) was already decoded to its end, with a gap.
        var following: TrackRef?
        if case .track(let next) = nextToName() { following = next }
        cursor.engineHolds(next: following != nil)
        control.play(TrackRef(token: token, path: queue.tracks[position]), from: frame, paused: paused, next: following)
    }

    /// An entry's priority goes back to 0 when it starts playing, as MPD's does: it asked
    /// for the entry to come soon, and it has come. Only the number changes (a new
    /// version for `plchanges`), so nothing that plays is started again.
    private func clearPriority(at position: Int) {
        guard queue.priority(at: position) != 0 else { return }
        var draft = queue.draft(current: queue.order.current)
        try? draft.setPriority(0, position..<position + 1)
        guard let moved = queue.apply(draft) else { return }
        queue.remapOrder(moved)
        outbox.changed(.playlist)
    }

    /// A book plays at the speed it was listened at, and music outside the books at the
    /// configured speed: moving into or out of a folder that keeps its place sets it.
    private func followFolderSpeed(into path: String, from leaving: String?) {
        if let speed = places.speed(enteringAt: path, from: leaving, otherwise: control.defaultSpeed) { control.setSpeed(speed) }
    }

    /// `[playback] speed` was changed: it applies now unless a book is playing at its own.
    func defaultSpeedChanged(to speed: Double) {
        let old = control.defaultSpeed
        control.defaultSpeed = PlaybackSpeed.clamped(speed)
        guard control.defaultSpeed != old, currentPath.flatMap(places.folder(of:)) == nil else { return }
        control.setSpeed(control.defaultSpeed)
    }

    /// The listener stops: the track is left where it is heard.
    func stop() {
        cursor.endedBeforeList = false
        if let path = currentPath { places.left(path, at: heardFrame, speed: control.speed) }
        stopAtEnd()
    }

    func stopAtEnd() {
        control.stopEngine()
        stopTrack()
        control.state = .stopped
    }

    /// No track plays any more.
    private func stopTrack() {
        if cursor.current != nil { outbox.changed(.track) }
        cursor.stop()
    }

    /// "next": the entry after the current one, or the queue's end.
    func next() {
        let left = cursor.current != nil ? queue.order.current : nil
        if let position = queue.order.next() {
            start(position: position, paused: control.state == .paused)
        } else {
            stopAtEnd()
        }
        if let left { consume(left) }
    }

    /// A second of the track went by: while playing, observers hear about the progress
    /// (a status with no change). What changes with time alone is said here.
    func timePassed() {
        if control.state == .playing { outbox.postChanges() }
    }

    func seek(to seconds: Double) {
        guard let info = cursor.currentInfo else {
            // Not open yet (a seek right after play): it applies once the track opens, as
            // MPD's waits for its decoder.
            seekWhenOpened = cursor.current.map { (token: $0, seconds: seconds) }
            return
        }
        // A live stream (no length) has nowhere to seek to.
        guard info.totalFrames > 0 else { return }
        control.seek(toFrame: info.frame(atSeconds: min(seconds, info.durationSeconds)))
    }

    /// Names the track after the last one the engine has, so it can open it early and
    /// continue without a gap.
    func scheduleNext() {
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
    /// the one already named. Into a folder that keeps its place there is no gapless
    /// start at its top: the track's end starts the remembered place instead.
    private func nextToName() -> NextName {
        guard let position = queue.following(ahead: cursor.ahead, playing: cursor.current != nil),
              places.place(enteringAt: queue.tracks[position], from: currentPath) == nil else {
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
        control.setNext(track)
    }

    // MARK: What the engine reports

    func opened(_ token: Int, info: StreamInfo, metadata: TrackMetadata) {
        cursor.opened(token, info: info, metadata: metadata)
        if token == cursor.current { outbox.changed(.tags) }
        cursor.failuresInARow = 0
        if let pending = seekWhenOpened, pending.token == token {
            seekWhenOpened = nil
            if token == cursor.current { seek(to: pending.seconds) }
        }
    }

    func heardNews(_ news: StreamNews, of token: Int) {
        guard let before = cursor.metadata(of: token), let metadata = before.applying(news), metadata != before else { return }
        cursor.setMetadata(metadata, of: token)
        // The playing entry's tags changed: `plchanges` lists it again.
        if token == cursor.current {
            queue.tagsChanged(at: cursor.currentPosition)
            outbox.changed([.tags, .playlist])
        }
    }

    func decoderAdvanced(_ token: Int) {
        if cursor.decoderAdvanced(token) { scheduleNext() }
    }

    /// The listener hears `token` now: a start, or a gapless change to a track the decoder
    /// went on to, where each track before it completed by itself.
    func started(_ token: Int) {
        guard token != cursor.current || control.state == .loading else { return }
        let before = currentPath
        if token != cursor.current, let reached = cursor.heard(token) {
            outbox.changed(.track)
            let heardPath = queue.tracks[safe: reached[reached.count - 1].position]
            let finished = queue.advance(through: reached)
            for entry in finished {
                places.finished(entry.path, nextPath: heardPath)
                outbox.post(.completed(position: entry.position, queueEnded: false))
            }
            if let position = queue.order.current { clearPriority(at: position) }
            scheduleNext()
            for entry in finished { if let position = queue.ids.firstIndex(of: entry.id) { consume(position) } }
        }
        if control.state == .loading { control.state = .playing }
        // A gapless change into or out of a book.
        if let path = currentPath, let before, path != before { followFolderSpeed(into: path, from: before) }
        cursor.forgetOld()
    }

    /// The engine played everything it had to its end.
    func finished() {
        if queue.provisional { cursor.endedBeforeList = true } else { trackEnded() }
    }

    /// The current track played to its end: the next one per the mode, or the queue's end.
    private func trackEnded() {
        let finished = queue.order.current ?? 0
        if let path = queue.tracks[safe: finished] {
            places.finished(path, nextPath: queue.order.peekAfterNaturalEnd().flatMap { queue.tracks[safe: $0] })
        }
        if let position = queue.advanceAfterEnd(passing: cursor.ahead) {
            outbox.post(.completed(position: finished, queueEnded: false))
            start(position: position, ended: true)
        } else {
            outbox.post(.completed(position: finished, queueEnded: true))
            stopTrack()
            control.state = .stopped
        }
        consume(finished)
    }

    func failed(_ token: Int, error: MediaError) {
        guard let position = cursor.positions[token] else { return }
        control.lastError = "\(error)"
        outbox.post(.trackSkipped(path: queue.tracks[safe: position] ?? "?", reason: "\(error)"))
        if cursor.passedOver(token, at: position) {
            // Passed over: the decoder goes on to the entry after it, without a gap (it
            // waits a moment for that to be named), and the queue steps over it when the
            // change is heard.
            if cursor.ahead.count(where: \.passedOver) < queue.tracks.count { scheduleNext() } else { tellEngineNext(nil) }
        } else if token == cursor.current {
            cursor.failuresInARow += 1
            let (target, backwards) = queue.wayPastFailure(movingBack: cursor.movingBack)
            guard cursor.failuresInARow < queue.tracks.count, let target else {
                control.state = .error
                stopTrack()
                return
            }
            start(position: target, paused: control.state == .paused, backwards: backwards)
        }
    }

    // MARK: Edits

    /// A new list is in place: `moved[old]` is each old entry's new position (nil: gone).
    /// Tokens, the track decoded next and the queue's history follow their entries.
    private func queueChanged(_ moved: [Int?]) {
        let oldCurrent = queue.order.current
        let wasPlaying = control.isPlaying
        // Failures in a row count against the list they happened in.
        cursor.failuresInARow = 0
        outbox.changed(.playlist)
        queue.remapOrder(moved)
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
        } else if let oldCurrent, cursor.current != nil || control.state == .stopped {
            // The current entry went: the one now in its place takes over.
            if let replacement = queue.replacement(forRemoved: oldCurrent, moved: moved) {
                if queue.order.current != replacement { outbox.changed(.track) }
                queue.order.retarget(to: replacement)
                if wasPlaying { start(position: replacement) } else { stopAtEnd() }
            } else {
                stopAtEnd()
            }
        }
        outbox.postChanges()
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

    /// With consume on, the entry that finished leaves the queue; a one-shot consume then is off.
    private func consume(_ position: Int) {
        guard queue.order.options.consume != .off, let moved = queue.consume(position) else { return }
        queueChanged(moved)
        guard queue.order.options.consume == .oneshot else { return }
        var options = queue.order.options
        options.consume = .off
        if queue.order.setOptions(options) { outbox.changed(.options) }
    }
}
