import Dispatch

/// The player's state machine: it routes each command and each engine event to the
/// queue as it plays (`PlayingQueue`) and to the engine's side (`PlayerControl`), and
/// makes the status and the memory from them. `Player` holds it behind its lock, the
/// only way to it: each method runs with the lock held, and what runs later (its timers)
/// comes back through `reenter`.
final class PlayerMachine {
    typealias Settings = Player.Settings

    private var settings: Settings
    private let outbox = PlayerOutbox()
    private let control: PlayerControl
    private let playing: PlayingQueue

    init(engine: PlaybackEngine, settings: Settings, timerQueue: DispatchQueue,
         reenter: @escaping @Sendable (@escaping (PlayerMachine) -> Void) -> Void) {
        self.settings = settings
        let timers = PlayerTimers(queue: timerQueue, reenter: reenter)
        let queue = QueueEntries(order: PlayQueue(count: 0, mode: settings.mode, historyLimit: settings.historyLimit, generator: SystemRandom()))
        control = PlayerControl(engine: engine, outbox: outbox, timers: timers,
                                volume: max(settings.minimumVolume, min(settings.maximumVolume, settings.startVolume)),
                                replayGain: settings.replayGain, shuffling: queue.order.options.random, speed: settings.speed)
        playing = PlayingQueue(queue: queue, places: FolderPlaces(folders: settings.rememberFolders), control: control, outbox: outbox)
    }

    /// Quiet hours' and the card's ceilings under the config's.
    private var caps = VolumeCaps()
    private var volumeLimits: ClosedRange<Int> { caps.limits(minimum: settings.minimumVolume, maximum: settings.maximumVolume) }

    // MARK: What the player asks of it (see `Player` for each)

    func setTracks(_ paths: [String], provisional: Bool) {
        playing.offerLibrary(paths, provisional: provisional)
        notify()
    }

    func updateSettings(_ new: Settings) {
        if new.rememberFolders != settings.rememberFolders { playing.setFolders(new.rememberFolders) }
        // The configured mode applies when it is changed, not over options set since.
        let modeChanged = new.mode != settings.mode
        // So does the ReplayGain mode; the admin's levels apply at once.
        var replayGain = new.replayGain
        if new.replayGain.mode == settings.replayGain.mode { replayGain.mode = control.replayGain.mode }
        settings = new
        control.replayGain = replayGain
        control.setVolume(control.volume, within: volumeLimits)
        playing.defaultSpeedChanged(to: new.speed)
        playing.reorder { modeChanged && $0.setMode(new.mode) }
        notify()
    }

    func close() { control.timers.close() }

    var saving: (memory: PlaybackMemory, clientQueue: ClientQueue?) {
        (makeMemory(), playing.queue.clientQueue)
    }

    func restoreClientQueue(_ paths: [String], priorities: [Int]) {
        playing.replaceAll(paths)
        guard priorities.contains(where: { $0 != 0 }) else { return }
        playing.edit { draft in
            for (position, priority) in priorities.prefix(paths.count).enumerated() where priority != 0 {
                try? draft.setPriority(priority, position..<position + 1)
            }
        }
    }

    func restore(_ memory: PlaybackMemory, play: Bool) {
        control.setVolume(memory.volume, within: volumeLimits)
        settings.mode = memory.mode
        playing.restore(memory)
        if let path = memory.path, let position = playing.select(path) {
            if play || memory.state != .stopped {
                playing.start(position: position, fromFrame: memory.frame, paused: !play, exactly: true)
            }
        } else if play {
            handle(PlayerCommand.play)
        }
        notify()
    }

    func restoreQueueMemory(_ memory: PlaybackMemory) {
        playing.restoreOrder(memory)
        notify()
    }

    var playedSeconds: Double { control.playedSeconds }

    var library: [String] { playing.queue.library }

    func editQueue<T, Failure: Error>(_ edit: (inout QueueDraft) throws(Failure) -> T) throws(Failure) -> T {
        try playing.edit(edit)
    }

    var listing: QueueListing { playing.queue.listing }

    /// What happened since the last call, in order, for the player to tell its observers
    /// once its lock is released.
    func takeEvents() -> [PlayerOutbox.Item] { outbox.take() }

    // MARK: Commands

    func handle(_ command: PlayerCommand) {
        let state = control.state
        switch command {
        case .play:
            startAfresh()
            switch state {
            case .paused: control.resume()
            case .playing, .loading: break
            case .stopped, .error:
                // A button on a queue a client emptied plays the library again.
                let queue = playing.queue
                if queue.isEmpty, queue.edited, !queue.library.isEmpty { playing.returnToLibrary() }
                playing.start(position: playing.move { $0.current ?? $0.next() } ?? 0)
            }
        case .playPosition(let position):
            guard playing.move({ $0.jump(to: position) }) != nil else { return }
            startAfresh()
            playing.start(position: position)
        case .playFrom(let position, let frame):
            guard playing.move({ $0.jump(to: position) }) != nil else { return }
            startAfresh()
            playing.start(position: position, fromFrame: max(0, frame), paused: state == .paused, exactly: true)
        case .pause:
            control.listenerPaused()  // paused on purpose: stay paused when it returns
            if control.isPlaying { control.pause() }
        case .toggle:
            handle(control.isPlaying ? .pause : .play)
        case .stop:
            control.listenerPaused()
            playing.stop()
        case .next:
            playing.next()  // and observers hear of it below, as of any command
        case .previous:
            if playing.elapsed > settings.previousRestartSeconds {
                playing.seek(to: 0)
            } else if let position = playing.move({ $0.previous() }) {
                playing.start(position: position, paused: state == .paused, backwards: true)
            }
        case .seek(let seconds):
            playing.seek(to: seconds)
        case .skip(let delta):
            let target = playing.elapsed + delta
            let duration = playing.cursor.duration
            if target >= duration, duration > 0 { handle(.next) } else { playing.seek(to: max(0, target)) }
        case .seekFraction(let fraction):
            playing.seek(to: max(0, min(1, fraction)) * playing.cursor.duration)
        case .setVolume(let volume):
            control.setVolume(volume, within: volumeLimits)
        case .volumeStep(let steps):
            control.setVolume(control.volume + steps * settings.volumeStep, within: volumeLimits)
        case .setSpeed(let speed):
            control.setSpeed(speed)
        case .speedStep(let steps):
            control.setSpeed(PlaybackSpeed.stepped(control.speed, by: steps))
        case .setMode(let mode):
            settings.mode = mode
            playing.reorder { $0.setMode(mode) }
        case .setOption(let change):
            playing.reorder { order in
                var options = order.options
                options.set(change)
                return order.setOptions(options)
            }
        case .cycleMode:
            handle(.setMode(playing.queue.order.mode.cycled))
        case .setReplayGainMode(let mode):
            control.replayGain.mode = mode
        case .fastForward(.begin): startScanning(+settings.scanStepSeconds)
        case .rewind(.begin): startScanning(-settings.scanStepSeconds)
        case .fastForward(.end), .rewind(.end): control.timers.stopScanning()
        case .interruptionBegan:
            control.interruptionBegan()
        case .clearError:
            control.lastError = nil
            if state == .error { control.state = .stopped }
        case .interruptionEnded:
            control.interruptionEnded(resuming: settings.resumeAfterInterruption)
        case .capVolume(let source, let cap):
            caps.set(source, to: cap)
            control.setVolume(control.volume, within: volumeLimits)
        }
        notify()
    }

    /// An explicit play starts with a clean slate, as MPD's does: the last error is
    /// cleared, and the entries that failed before it no longer count towards stopping.
    private func startAfresh() {
        control.lastError = nil
        playing.startAfresh()
    }

    private func startScanning(_ step: Double) {
        let timers = control.timers
        timers.stopScanning()
        guard control.state == .playing || control.state == .paused, !timers.closed else { return }
        handle(.skip(seconds: step))
        timers.startScanning(every: settings.scanIntervalMilliseconds) { $0.handle(.skip(seconds: step)) }
    }

    // MARK: Engine events

    func handle(_ event: EngineEvent) {
        switch event {
        case .trackOpened(let token, let info, let metadata): playing.opened(token, info: info, metadata: metadata)
        case .streamNews(let token, let news): playing.heardNews(news, of: token)
        case .decoderAdvanced(let token): playing.decoderAdvanced(token)
        case .trackStarted(let token): playing.started(token)
        case .finished: playing.finished()
        case .trackFailed(let token, let error): playing.failed(token, error: error)
        case .outputFailed(let error): control.outputFailed(error)
        case .routeChanged: outbox.changed(.output)
        case .outputLost(let error): control.outputLost(error)
        case .outputReturned: control.outputReturned(resuming: settings.resumeOnReconnect)
        case .outputChanged: control.outputChanged()
        case .volumeChangedOutside(let outside): control.volumeMovedOutside(to: outside, within: volumeLimits)
        case .damaged, .decoderNote, .outputConfigured, .mixerChanged, .underrun, .commandApplied:
            break
        }
        // An event only for the log (a note, an underrun) tells no one.
        if !outbox.changes.isEmpty { notify() }
    }

    // MARK: Status

    func makeMemory() -> PlaybackMemory { playing.memory(state: control.state, volume: control.volume) }

    func makeStatus(_ snapshot: EngineSnapshot? = nil) -> PlayerStatus {
        PlayerStatus(state: control.state, volume: control.volume, replayGainMode: control.replayGain.mode, speed: control.speed, queue: playing.queue, cursor: playing.cursor,
                     heardFrame: playing.heardFrame, engine: snapshot ?? control.snapshot,
                     lastError: control.lastError, lostOutput: control.lostOutput)
    }

    /// Tells what changed since the last telling (`Player` adds the status).
    private func notify() { outbox.postChanges() }

    /// The ticker's second (see `PlayingQueue.timePassed`).
    func tick() { playing.timePassed() }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
