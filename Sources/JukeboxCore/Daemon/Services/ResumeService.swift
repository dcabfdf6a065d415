import Logging

/// Carries on where the last run left off, and keeps the place saved from then on.
/// `load` reads the state file before any part starts; `start` (once the engine runs)
/// brings back a client's queue, or plays the saved track, at once; `libraryQueue` takes
/// up the place in the library's first queue otherwise. `ResumePlan` makes each choice.
///
/// Once the place is taken up, the state saver joins the group: it starts after the
/// others and so stops first, writing the place before anything else stops. A saver
/// started while the music already plays books its periodic writes itself.
final class ResumeService: Service, @unchecked Sendable {
    let name = "resume"
    let policy = FailurePolicy.optional
    private let player: Player
    /// Where the state saver runs. Weak: the group holds this service.
    private weak var services: ServiceGroup?
    /// The config in force (a live reload may have changed it since the start).
    private let config: @Sendable () -> JukeboxConfig
    private let logger: Logger
    private let current = ConditionLocked(Current())
    /// The cards' places for each save (set before the saver starts).
    var cardPlaces: @Sendable (PlaybackMemory) -> [CardPlaces.Place] = { _ in [] }
    private struct Current {
        var plan = ResumePlan(saved: nil)
        var saver: StateSaver?
    }

    init(player: Player, services: ServiceGroup, logger: Logger, config: @escaping @Sendable () -> JukeboxConfig) {
        self.player = player
        self.services = services
        self.logger = logger
        self.config = config
    }

    /// Before any part starts: removes what cut writes left, and reads the saved state.
    func load() {
        removeLeftovers()
        let saved = loadState()
        current.withLock { $0.plan = ResumePlan(saved: saved) }
    }

    /// The cards' places the last run saved.
    var savedCardPlaces: [CardPlaces.Place] { current.current.plan.saved?.cards ?? [] }

    /// Whether the library holds its first play for the saved place.
    var holdsFirstPlay: Bool { current.current.plan.holdsFirstPlay }

    /// The ways that do not wait for the library.
    func start(died: @escaping @Sendable (any Error) -> Void) {
        guard let saved = current.current.plan.saved else { return }
        let settings = ResumePlan.Settings(config())
        switch ResumePlan.start(saved, settings, identity: FileIdentity.init(track:)) {
        case .nothingSaved, .afterLibrary:
            break
        case .clientQueue:
            bringBackClientQueue(saved, settings)
        case .atOnce(let path):
            // After a restart that was playing, the saved track plays straight away: on a
            // slow board with a large library, loading the library is most of the wait.
            current.withLock { $0.plan.didStartEarly() }
            player.setTracks([path], provisional: true)
            player.restore(saved.memory, play: true)
        }
    }

    /// The saver stops on its own, as a member of the group.
    func stop() {}

    /// The library delivered a queue: the first one takes up the saved place (unless a
    /// client's queue came back), and the saver starts.
    func libraryQueue(_ queue: [String], alreadyPlaying: Bool) {
        guard let waiting = current.withLock({ $0.wholeValue.plan.libraryQueue() }) else { return }
        let settings = ResumePlan.Settings(config())
        switch ResumePlan.afterLibrary(waiting, queue: queue, alreadyPlaying: alreadyPlaying, settings, identity: FileIdentity.init(track:)) {
        case .nothing:
            break
        case .play:
            player.send(.play)
        case .restore(let restoring):
            restore(restoring)
        case .restoreQueueMemory(let memory):
            player.restoreQueueMemory(memory)
        case .earlyTrackNotInQueue(let path):
            logger.notice("state: \(path ?? "the saved track") is no longer in the queue; it plays to its end, then the queue from the top")
        }
        startSaver()
    }

    /// A live reload changed `[state]`: the saver, if one runs, is made anew with `new`,
    /// or stops for good when there is no state file any more.
    func stateSettingsChanged(_ new: JukeboxConfig) {
        guard let running = current.current.saver else { return }
        if let saver = makeSaver(new) {
            current.withLock { $0.saver = saver }
            services?.replace(running, with: saver)
        } else {
            logger.notice("state: no state file any more; the place is no longer saved")
            current.withLock { $0.saver = nil }
            services?.remove(running)
        }
    }

    // MARK: The ways back

    /// A queue a client made comes back as it was, with the place in it, at once: it does
    /// not wait for the library. Tracks deleted since are left out. The library's list
    /// then waits until the client's queue is emptied (see `Player.setTracks`).
    private func bringBackClientQueue(_ saved: SavedState, _ settings: ResumePlan.Settings) {
        guard let stateFile = stateFile(config()) else { return }
        let file = QueueFile(beside: stateFile)
        let tracks: [TrackLocation]
        let priorities: [Int]
        do {
            guard let loaded = try file.load(musicDirectory: settings.musicDirectory) else {
                logger.warning("state: \(file.path) is missing; the queue is the library's again")
                return
            }
            for dropped in loaded.dropped { logger.warning("state: \(dropped)") }
            if loaded.droppedCount > loaded.dropped.count {
                logger.warning("state: \(file.path): \(loaded.droppedCount) entries left out in all")
            }
            tracks = loaded.tracks
            priorities = loaded.priorities
        } catch {
            logger.warning("state: \(error); the queue is the library's again")
            return
        }
        let kept = tracks.indices.filter { ResumePlan.isPresent(tracks[$0], identity: FileIdentity.init(track:)) }
        let present = kept.map { tracks[$0].entry }
        logger.info("state: a client's queue of \(present.count) tracks from \(file.path)\(present.count < tracks.count ? " (\(tracks.count - present.count) gone since)" : "")")
        guard !present.isEmpty else { return }
        current.withLock { $0.plan.didBringBackClientQueue() }
        player.restoreClientQueue(present, priorities: priorities.isEmpty ? [] : kept.map { priorities[$0] })
        restore(ResumePlan.restoring(saved, in: present, settings, identity: FileIdentity.init(track:)))
        startSaver()
    }

    private func restore(_ restoring: ResumePlan.Restoring) {
        switch restoring.moved {
        case .notInQueue(let path): logger.notice("state: \(path) is no longer in the queue; starting from the top")
        case .changed(let path): logger.notice("state: \(path) changed since it was saved; playing it from the start")
        case nil: break
        }
        player.restore(restoring.memory, play: restoring.play)
    }

    // MARK: The state file

    /// From now on the place is saved; the saver joins the group, so it stops first.
    private func startSaver() {
        guard let saver = makeSaver(config()) else { return }
        current.withLock { $0.saver = saver }
        do {
            try services?.add(saver)
        } catch {
            logger.error("state: \(error)")
        }
    }

    private func makeSaver(_ config: JukeboxConfig) -> StateSaver? {
        guard let file = stateFile(config) else { return nil }
        do {
            try file.makeFolder()
        } catch {
            logger.warning("state: \(error)")
        }
        return StateSaver(file: file, player: player, interval: config.state.interval,
                          source: QueueSource(configured: config.library.playlist), logger: logger, cardPlaces: cardPlaces)
    }

    private func stateFile(_ config: JukeboxConfig) -> StateFile? {
        config.state.file.isEmpty ? nil : StateFile(path: config.state.file)
    }

    /// The state saved by the last run, if it left a usable one; what was wrong with the
    /// file otherwise, in one line each.
    private func loadState() -> SavedState? {
        guard let file = stateFile(config()) else { return nil }
        let loaded = file.load()
        for problem in loaded.problems {
            logger.warning("state: \(problem); \(loaded.state != nil ? "using the previous copy" : "starting afresh")")
        }
        if let state = loaded.state {
            let place = state.memory.path.map { "\($0) at \(state.memory.frame) frames, \(state.memory.state.rawValue)" } ?? "no track"
            logger.info("state: \(loaded.fromPrevious ? file.previousPath : file.path): \(place)")
        }
        return loaded.state
    }

    /// Before anything writes: the temporary files of writes a full disk, a kill or a power
    /// cut stopped halfway, in the state folder and the playlists folder (the download
    /// cache tidies its own when it is set up).
    private func removeLeftovers() {
        let config = config()
        var folders: [(folder: String, formerly: (String) -> Bool)] = []
        if let stateFile = stateFile(config) {
            let state = AtomicFile.name(of: stateFile.path)
            let ours = [state, AtomicFile.name(of: QueueFile(beside: stateFile).path), "library.index"]
            folders.append((StateFile.folder(of: stateFile.path), { ours.contains($0) }))
        }
        if !config.library.playlistsDirectory.isEmpty {
            folders.append((config.library.playlistsDirectory, { StoredPlaylists.isPlaylistFile($0) }))
        }
        for (folder, formerly) in folders {
            for name in AtomicFile.removeLeftovers(in: folder, formerly: formerly) {
                logger.notice("removed \(folder)/\(name), left by a write that was cut short")
            }
        }
    }
}
