import Dispatch
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// `jukebox run`: the box. Starts the parts in dependency order (output, engine, player,
/// inputs, library scan, then the state saver once the saved place is taken up) and stops
/// them in reverse on SIGTERM, SIGINT, SIGQUIT, SIGUSR1 or SIGUSR2: the place is saved, the
/// audio stopped, the device closed, the socket removed and the terminal restored. SIGHUP
/// is logged and ignored until live reload exists; SIGPIPE is ignored.
public final class Daemon: @unchecked Sendable {
    private let config: JukeboxConfig
    private let logger: Logger
    private var engine: AudioEngine!
    private var player: Player!
    private var keyboard: KeyboardInput?
    private var inputs: InputLoop?
    private var hotplug: HotplugMonitor?
    private let actionLog: InputActionLog
    private var server: ControlServer?
    private var signalSources: [DispatchSourceSignal] = []
    private let nowPlaying: NowPlayingLog
    private var musicWatch: MusicFolderWatch?
    private var stateSaver: StateSaver?
    /// The saved state, until the first library load has used it.
    private var savedState: SavedState?
    /// Whether a queue has been loaded yet (a saved place is taken up only then).
    private var queueLoaded = false

    /// Exit when the queue ends (for benchmarks and tests), instead of waiting for more.
    private let exitWhenDone: Bool

    public init(config: JukeboxConfig, logger: Logger, exitWhenDone: Bool = false) {
        self.config = config
        self.logger = logger
        self.exitWhenDone = exitWhenDone
        nowPlaying = NowPlayingLog(logger: logger)
        actionLog = InputActionLog(logger: logger)
    }

    /// Runs until a signal or `q`; does not return.
    public func run() -> Never {
        logger.info("jukebox starting", metadata: ["music": "\(config.library.musicDirectory)", "device": "\(config.audio.output.device)"])
        handleSignals()
        let route = chooseRoute()
        let playerBox = PlayerBox()
        let log = logger
        let actions = actionLog
        var engineSettings = AudioEngine.Settings()
        engineSettings.onOutputLost = config.audio.onOutputLost
        // Made first: the audio thread names the control to watch as soon as it opens one.
        let hotplug = HotplugMonitor(logger: logger)
        self.hotplug = hotplug
        engine = AudioEngine(route: route, settings: engineSettings) { event in
            switch event {
            case .damaged(let error): log.notice("\(error)")
            case .decoderNote(let path, let note): log.notice("\(path): \(note)")
            case .outputConfigured(let negotiated): log.notice("output: \(negotiated)")
            case .mixerChanged(let mixer, let note): log.notice("mixer: \(note ?? mixer)")
            case .mixerOpened(let address): hotplug.watchMixer(address)
            case .volumeChangedOutside(let volume): log.info("mixer: set to \(volume) from outside")
            case .outputLost(let error):
                log.warning("output: \(error.isGone ? "lost" : "cannot play"): \(error); paused until a device is back")
            case .outputReturned(let device):
                log.notice("output: \(device) is back")
            case .outputFailed(let error):
                log.error("output: \(error)")
            case .underrun(let total):
                log.warning("output: underrun: the device ran dry and the sound dropped out (\(total) since start)")
            case .commandApplied(let command, let postedAt, let audibleAt):
                log.debug("\(command) took effect on the output \(InputActionLog.milliseconds(audibleAt - postedAt)) ms after it was asked for")
                actions.applied(command, postedAt: postedAt, audibleAt: audibleAt)
            default: break
            }
            playerBox.player?.engineEvent(event)
        }
        var playerSettings = config.playback.player
        playerSettings.rememberFolders = config.library.rememberedFolders
        player = Player(engine: engine, settings: playerSettings)
        savedState = loadState()
        playerBox.player = player
        player.observe { [nowPlaying] in nowPlaying.handle($0) }
        if exitWhenDone {
            player.observe { [weak self] event in
                if case .completed(_, true) = event { DispatchQueue.main.async { self?.shutdown(reason: "the queue ended") } }
            }
        }
        // Before the engine: a second daemon must stop before it touches the audio device.
        startControlServer()
        do {
            try engine.start()
        } catch {
            logger.critical("cannot start the audio threads: \(error)")
            exit(1)
        }

        startInputs()
        startHotplug()
        startKeyboard()
        scanLibrary()
        dispatchMain()
    }

    /// The configured ALSA devices, in order; "null-sink" asks for the silent sink paced in
    /// real time. Only when none is configured beyond "default" and the machine has no sound
    /// card at all (a PC trying the demo) does audio go there by itself, so the rest of the
    /// box still works and shows it. A named device that is absent (a DAC switched off) is
    /// waited for.
    private func chooseRoute() -> OutputRoute {
        let audio = config.audio
        if audio.devices == [NullOutput.deviceName] {
            logger.notice("audio goes to a silent sink paced in real time (device \"\(NullOutput.deviceName)\")")
            return OutputRoute(fixed: NullOutput())
        }
        if audio.devices == ["default"], !ALSAOutput.machineHasSoundCard {
            logger.warning("no sound card: default cannot be opened, so audio goes to a silent sink paced in real time")
            return OutputRoute(fixed: NullOutput())
        }
        let route = OutputRoute.alsa(audio.devices, settings: audio.output)
        if route.firstPresent() == nil {
            logger.warning("waiting for \(audio.devices.joined(separator: " or ")): not present now; playing as soon as it appears")
        }
        return route
    }

    /// Sound cards and input devices coming and going, announced by the kernel, and the
    /// card's volume control changed by someone else.
    private func startHotplug() {
        guard let hotplug else { return }
        let engine = self.engine!
        let inputs = self.inputs
        hotplug.subscribers = [
            { events in if events.contains(where: { $0.subsystem == "sound" }) { engine.devicesChanged() } },
            { events in inputs?.devicesAnnounced(events) },
        ]
        hotplug.onMixerChange = { engine.mixerTouched() }
        hotplug.start()
    }

    /// Scans the library in the background. A `music_dir` that does not exist yet (a USB
    /// stick not mounted) or holds no music is watched, and scanned again once music
    /// arrives; with autoplay it then plays.
    private func scanLibrary() {
        let music = config.library.musicDirectory
        let watch = MusicFolderWatch(path: music)
        musicWatch = watch
        let logger = self.logger
        let exit = exitWhenDone
        DispatchQueue.global(qos: .utility).async { [self] in
            let before = FolderSignature(of: music)
            if before == nil, !exit {
                logger.warning("music_dir \(music) does not exist yet; waiting for it")
            } else if loadLibrary() || exit {
                return
            } else {
                logger.notice("library: waiting for music to arrive in \(music)")
            }
            watch.start(scanned: before) { [self] in
                logger.info("music_dir \(music) changed; scanning it")
                return loadLibrary()
            }
        }
    }

    /// The state saved by the last run, if it left a usable one; what was wrong with the
    /// file otherwise, in one line each.
    private func loadState() -> SavedState? {
        guard let file = stateFile else { return nil }
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

    private var stateFile: StateFile? { config.state.file.isEmpty ? nil : StateFile(path: config.state.file) }

    /// Carries on where the last run left off, once the queue is known: the same track at
    /// the same frame (from the top if the file changed since), playing or not as
    /// `resume` says. Then the state starts being saved.
    private func resumeAndSave(queue: [String], alreadyPlaying: Bool) {
        let player = self.player!
        if let saved = savedState {
            savedState = nil
            var memory = saved.memory
            if let path = memory.path {
                if !queue.contains(path) {
                    logger.notice("state: \(path) is no longer in the queue; starting from the top")
                    memory.path = nil
                } else if let identity = saved.identity, FileIdentity(path: path) != identity {
                    logger.notice("state: \(path) changed since it was saved; playing it from the start")
                    memory.frame = 0
                }
            }
            let play = config.playback.resume.plays(saved: memory.state, autoplay: config.playback.autoplay)
            player.restore(memory, play: play)
        } else if config.playback.autoplay, !alreadyPlaying {
            player.send(.play)
        }
        guard stateSaver == nil, let file = stateFile else { return }
        do {
            try file.makeFolder()
        } catch {
            logger.warning("state: \(error)")
        }
        let saver = StateSaver(file: file, player: player, interval: config.state.interval,
                               source: config.library.playlist.isEmpty ? "library" : config.library.playlist, logger: logger)
        saver.start()
        stateSaver = saver
    }

    /// One scan, and the queue it gives; true when there is something to play.
    private func loadLibrary() -> Bool {
        let library = config.library
        let autoplay = config.playback.autoplay
        let player = self.player!
        let logger = self.logger
        let exit = exitWhenDone
        var started = false
        let resuming = savedState != nil
        let scan = LibraryScanner.scan(musicDirectory: library.musicDirectory, playlistsDirectory: library.playlistsDirectory) { first in
            // Play at once; the full, sorted list follows when the scan ends.
            // (A chosen playlist waits for the scan: its tracks may be anywhere; a saved
            // place waits for it too: its track may be anywhere.)
            guard library.playlist.isEmpty, !resuming else { return }
            player.setTracks(first.map(\.path))
            if autoplay { player.send(.play) }
            started = true
        }
        for problem in scan.skipped { logger.warning("library: \(problem)") }
        var queue = scan.tracks.map(\.path)
        if !library.playlist.isEmpty {
            if let chosen = scan.playlists.first(where: { $0.name == library.playlist }) {
                let playable = Set(queue.map(LibraryScanner.canonical))
                queue = chosen.entries.filter { playable.contains(LibraryScanner.canonical($0)) }
                let missing = chosen.entries.count - queue.count
                logger.info("playlist \(chosen.name): \(queue.count) tracks\(missing > 0 ? ", \(missing) not found or not playable" : "")")
            } else {
                logger.warning("playlist \"\(library.playlist)\" not found; playing the whole library")
            }
        }
        player.setTracks(queue)
        logger.info("library: \(scan.tracks.count) tracks, \(scan.playlists.count) playlists, \(scan.skipped.count) skipped")
        if queue.isEmpty {
            logger.warning("library: no music found in \(library.musicDirectory)")
            if exit { DispatchQueue.main.async { self.shutdown(reason: "nothing to play") } }
        }
        if !queue.isEmpty, !queueLoaded {
            queueLoaded = true
            resumeAndSave(queue: queue, alreadyPlaying: started)
        } else if autoplay, !started, !queue.isEmpty {
            player.send(.play)
        }
        return !queue.isEmpty
    }

    private func startKeyboard() {
        guard config.control.keyboard, KeyboardInput.available else { return }
        let keyboard = KeyboardInput(skipSeconds: config.playback.skipSeconds)
        let player = self.player!
        do {
            try keyboard.start { [weak self] action in
                switch action {
                case .command(let command): player.send(command)
                case .quit: DispatchQueue.main.async { self?.shutdown(reason: "q pressed") }
                case .closed(let error): self?.logger.notice("keys: the terminal \(error.map { "failed: \($0)" } ?? "closed"); keys stop")
                }
            }
        } catch {
            logger.error("keys: cannot start reading the terminal: \(error)")
            return
        }
        self.keyboard = keyboard
        logger.info("keys: space play/pause, n/p next/previous, ←/→ skip, +/- volume, m mode, q quit")
    }

    /// Buttons, encoders, interruption lines and evdev devices, on the input thread.
    private func startInputs() {
        guard !config.input.isEmpty else { return }
        let player = self.player!
        let log = actionLog
        let inputs = InputLoop(config: config.input, logger: logger) { action in
            log.sent(action, at: MonotonicClock.now())
            player.send(action.command)
        }
        inputs.start()
        self.inputs = inputs
    }

    private func startControlServer() {
        let server = ControlServer(player: player, logger: logger, limits: config.control.limits)
        do {
            try server.start(socketPath: config.control.socketPath, tcpPort: config.control.tcpPort)
            self.server = server
        } catch .alreadyServed {
            // Taking the socket over would leave the running box playing but unreachable.
            logger.error("not starting: \(ControlServer.StartError.alreadyServed(path: config.control.socketPath))")
            exit(1)
        } catch {
            logger.error("control socket: \(error); running without it")
        }
    }

    /// Signals that stop the box cleanly, through the same path as `q`.
    private static let stopSignals: [(number: Int32, name: String)] = [
        (SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGQUIT, "SIGQUIT"), (SIGUSR1, "SIGUSR1"), (SIGUSR2, "SIGUSR2"),
    ]

    /// Signals arrive on the main queue, which runs only once start-up is done; their
    /// default action (die, leaving the socket file behind) is turned off from the start.
    /// A client that hangs up mid-reply must never kill the box: SIGPIPE is ignored and
    /// the write reports EPIPE instead.
    private func handleSignals() {
        signal(SIGPIPE, SIG_IGN)
        for (number, name) in Self.stopSignals {
            watch(number) { [weak self] in self?.shutdown(reason: name) }
        }
        let log = logger
        watch(SIGHUP) { log.notice("SIGHUP: live reload is not supported yet; restart to apply config changes") }
    }

    private func watch(_ number: Int32, handler: @escaping @Sendable () -> Void) {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
        source.setEventHandler(handler: handler)
        source.resume()
        signalSources.append(source)
    }

    private func shutdown(reason: String) -> Never {
        logger.info("stopping (\(reason))")
        stateSaver?.stop()
        keyboard?.restore()
        hotplug?.stop()
        inputs?.stop()
        server?.stop()
        // Bounded, then forced: a thread stuck in a kernel call must not keep the box from
        // restarting. _exit skips atexit handlers that could wait on that thread.
        let stuck = engine.shutdown(within: 3)
        if let thread = stuck.first {
            logger.error("forced exit: the \(thread == "jukebox-decode" ? "decode" : "audio") thread did not stop within 3 s")
            _exit(1)
        }
        logger.info("stopped")
        exit(0)
    }
}

private final class PlayerBox: @unchecked Sendable {
    var player: Player?
}
