import Dispatch
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// `jukebox run`: the box. Its long-lived parts are services in one group, started in
/// the order `startOrder` lists (the state saver joins once the saved place is taken up)
/// and stopped in reverse when a stop is asked for: SIGTERM, SIGINT, SIGQUIT, SIGUSR1 or
/// SIGUSR2, `q` on the terminal, or the queue ending with `exitWhenDone`. Saving the config file, or SIGHUP, applies the edit
/// live (see `reload`). At the stop the place is saved, the audio stopped, the device
/// closed, the socket removed and the terminal restored, and `run` returns.
public final class Daemon: @unchecked Sendable {
    /// Why the box stopped.
    public enum StopReason: Sendable, Equatable, CustomStringConvertible {
        case signal(String)
        case quitKey
        case queueEnded
        case nothingToPlay
        case asked

        public var description: String {
            switch self {
            case .signal(let name): name
            case .quitKey: "q pressed"
            case .queueEnded: "the queue ended"
            case .nothingToPlay: "nothing to play"
            case .asked: "asked to stop"
            }
        }
    }

    /// How `run` ended.
    public enum Outcome: Sendable {
        case stopped(StopReason)
        /// A required part could not start or died.
        case failed(ServiceGroup.Failure)
        /// An engine thread was stuck in a kernel call; the caller exits without it.
        case stuck(thread: String)
    }

    /// Where the config is read again on a live reload; nil: no reload (a test's config).
    private let source: ConfigSource?
    private let logger: Logger
    private let exitWhenDone: Bool
    private let engine: AudioEngine
    /// Opens URL tracks through the download cache, which `[network]` sets.
    private let network = NetworkPlayback()
    /// Which configured devices clients have switched off (MPD's outputs).
    private let outputs: OutputSwitches
    private let player: Player
    private let hotplug: HotplugMonitor
    private let actionLog: InputActionLog
    private let nowPlaying: NowPlayingLog
    private let services: ServiceGroup
    private let engineService: EngineService
    private let control: ControlService
    private let inputs: InputService
    /// Where a button's request of the box goes (`boxRequested`), set once all parts exist.
    private typealias BoxRequestHandler = @Sendable (BoxAction, InputAction) -> Void
    private let boxRequests: ConditionLocked<BoxRequestHandler?>
    private let library: LibraryService
    private let resume: ResumeService
    private let screen: ScreenService
    /// What the screen and the page say beside the music (a config error, a busy port).
    private let notices: BoxNotices
    /// The page on the phone, and what it follows.
    private let web: WebService
    /// The box announced on the network (`_mpd._tcp`, `_http._tcp`) through avahi-daemon.
    private let zeroconf: ZeroconfService
    private let pageFeed: PageFeed
    /// The sounds a card's outcome plays over the music.
    private let jingles: JinglePlayer
    private let cards: CardService
    /// The sleep timer, quiet hours and the key lock (`[sleep]`, `[quiet_hours]`, `[key_lock]`).
    private let sleepTimer: SleepTimerService
    private let quietHours: QuietHoursService
    /// Whether the buttons and knobs are locked, and whether cards still play meanwhile
    /// (`keyLock.allowsCards`), from any thread.
    public let keyLock: KeyLockGate
    /// The last card a reader reported while the lock kept cards out.
    private let lockedOutCard = ConditionLocked<CardID?>(nil)
    private let startup: StartupReport
    /// What `run` waits on: the first stop asked for; and the config in force.
    private let shared: ConditionLocked<Shared>
    private struct Shared {
        /// The config in force: the last good one read.
        var config: JukeboxConfig
        var stop: Outcome?
    }
    private var config: JukeboxConfig { shared.current.config }
    /// Reloads one at a time, off the threads that ask for them.
    private let reloads = DispatchQueue(label: "jukebox.reload")
    private var signalSources: [DispatchSourceSignal] = []
    private let signalQueue = DispatchQueue(label: "jukebox.signals")

    /// Wires the parts; nothing runs until `run`. With a `source`, saving the config file
    /// (or SIGHUP) applies the edit live. `exitWhenDone` stops the box when the queue has
    /// played out (for benchmarks and tests) instead of waiting for more. `startedAt`
    /// (`MonotonicClock`) is when the process started, for the start-up timeline.
    public init(config: JukeboxConfig, source: ConfigSource? = nil, logger: Logger, exitWhenDone: Bool = false,
                startedAt: UInt64 = MonotonicClock.now()) {
        self.source = source
        self.logger = logger
        startup = StartupReport(startedAt: startedAt, logger: logger)
        self.exitWhenDone = exitWhenDone
        nowPlaying = NowPlayingLog(logger: logger)
        actionLog = InputActionLog(logger: logger)
        // Made before the engine: the audio thread names the control to watch as soon as
        // it opens one.
        hotplug = HotplugMonitor(logger: logger)
        var engineSettings = AudioEngine.Settings()
        engineSettings.onOutputLost = config.audio.onOutputLost
        engineSettings.prebufferSeconds = config.network.prebufferSeconds
        engine = AudioEngine(route: Self.chooseRoute(config.audio, logger: logger), settings: engineSettings, network: network,
                             mixerWatcher: hotplug)
        outputs = OutputSwitches(devices: config.audio.devices)
        player = Player(engine: engine, settings: ConfigChange.playerSettings(config))
        let shared = ConditionLocked(Shared(config: config))
        self.shared = shared
        services = ServiceGroup(logger: logger) { failure in Self.ask(shared, .failed(failure)) }
        engineService = EngineService(engine: engine)
        let catalog = LibraryCatalog()
        control = ControlService(player: player, catalog: catalog, outputs: outputs, settings: config.control,
                                 scope: ControlService.scope(config), logger: logger)
        zeroconf = ZeroconfService(name: config.zeroconf.name,
                                   announcements: ZeroconfService.announcements(config, webPort: WebService.announcedPort(config.web)),
                                   logger: logger)
        let player = self.player
        let actions = actionLog
        let boxRequests = ConditionLocked<BoxRequestHandler?>(nil)
        self.boxRequests = boxRequests
        let keyLock = KeyLockGate(cardsWhileLocked: config.timers.cardsWhileLocked)
        self.keyLock = keyLock
        inputs = InputService(config: config.input, logger: logger) { [logger] action in
            // Locked, only the lock's own gesture (and a hold's end) gets through.
            if case .dropped(let tell) = keyLock.route(action.command, at: action.edgeAt) {
                if tell { logger.info("input: the keys are locked; \(action.source) ignored (the key-lock gesture unlocks them)") }
                return
            }
            actions.sent(action, at: MonotonicClock.now())
            switch action.command {
            case .player(let command):
                // Applied on the input thread: a knob's detent goes from here to the audio
                // thread and nowhere else. Behind a library's list being set, it is queued
                // instead, so the input thread never waits for that.
                player.performUnlessBusy(command)
            case .box(let request):
                boxRequests.current?(request, action)
            }
        }
        let resume = ResumeService(player: player, services: services, logger: logger) { shared.current.config }
        self.resume = resume
        library = LibraryService(
            settings: .init(library: config.library, autoplay: config.playback.autoplay, index: config.state.libraryIndex), player: player,
            catalog: catalog, logger: logger, waitForMusic: !exitWhenDone,
            holdFirstPlay: { resume.holdsFirstPlay })
        screen = ScreenService(settings: config.display, logger: logger)
        jingles = JinglePlayer(logger: logger) { [engine] in engine.playJingle($0) }
        cards = CardService(player: player, catalog: catalog, actions: actionLog, logger: logger) { shared.current.config }
        let places = PageAPI.Places(library: LibraryPaths(musicDirectory: config.library.musicDirectory), uploads: Self.uploadFolder(config))
        // What a crash or a power cut left in the upload folder.
        places.uploads?.sweepLeftovers()
        pageFeed = PageFeed(library: places.library, volumeRange: Self.volumeRange(config))
        notices = BoxNotices(screen: screen, feed: pageFeed)
        resume.cardPlaces = { [cards] in cards.places(for: $0) }
        control.onNotice = { [notices] in notices.set(.control, $0) }
        control.onCard = { [cards] sighting in cards.report(ReaderReport(reader: "socket", sighting: sighting, at: MonotonicClock.now())) }
        sleepTimer = SleepTimerService(player: player, engine: engine, settings: config.timers.sleep, logger: logger)
        sleepTimer.onDeadline = { [screen, pageFeed] in
            screen.sleepUntil($0)
            pageFeed.sleepUntil($0)
        }
        control.sleepTimer = sleepTimer
        let pageCommands = PageCommands(player: player, scope: ControlService.scope(config), catalog: catalog, outputs: outputs,
                                        sleepTimer: sleepTimer) { [screen, pageFeed, logger] locked in
            guard keyLock.set(locked: locked) else { return }
            logger.notice("web: keys \(locked ? "locked" : "unlocked") from the page")
            screen.keysLocked(locked)
            pageFeed.keysLocked(locked)
        }
        web = WebService(settings: config.web, access: WebAccess(web: config.web, control: config.control),
                         parts: .init(feed: pageFeed, commands: pageCommands, cards: cards, catalog: catalog,
                                      configSource: source, name: "Jukebox"),
                         places: places, logger: logger)
        quietHours = QuietHoursService(player: player, hours: config.timers.quietHours, logger: logger)
        wire()
    }

    /// Connects the parts' events to each other, now that all exist.
    private func wire() {
        let events = EngineEventLog(logger: logger, actions: actionLog)
        let startup = self.startup
        // Weak: the player holds its engine.
        engine.listen { [weak player] event in
            events.handle(event)
            startup.engineEvent(event)
            player?.engineEvent(event)
        }
        player.observe { [nowPlaying] in nowPlaying.handle($0) }
        player.observe { [screen] in screen.playerEvent($0) }
        player.observe { [pageFeed] in pageFeed.playerEvent($0) }
        if exitWhenDone {
            player.observe { [weak self] event in
                if case .completed(_, true) = event { self?.requestStop(.queueEnded) }
            }
        }
        let engine = self.engine
        let inputs = self.inputs
        hotplug.subscribers = [
            { events in if events.contains(where: { $0.subsystem == "sound" }) { engine.devicesChanged() } },
            { events in inputs.devicesAnnounced(events) },
        ]
        inputs.onReport = { [weak self] in self?.cardReported($0) }
        outputs.whenChanged { [weak self] _ in self?.reroute() }
        library.onLoaded = { [weak self] in self?.libraryLoaded($0) }
        boxRequests.withLock { $0.wholeValue = { [weak self] request, action in self?.boxRequested(request, by: action) } }
        var hooks = CardService.Hooks()
        hooks.box = { [boxRequests] request, action in boxRequests.current?(request, action) }
        hooks.sleep = { [weak self] in self?.sleepRequested($0) }
        hooks.shutdown = { [weak self] in self?.powerOff() }
        hooks.notice = { [notices] in notices.set(.cards, $0) }
        hooks.outcome = { [jingles, player, pageFeed] outcome in
            if case .unknown(let card) = outcome { pageFeed.unknownCard(card.text) }
            let jingle: Jingle = switch outcome {
            case .accepted: .accepted
            case .refused: .refused
            case .unknown: .unknown
            }
            jingles.play(jingle, musicVolume: player.status.volume)
        }
        cards.hooks = hooks
    }

    /// Runs the box until a stop is asked for, then stops every part and returns.
    /// `handlingSignals` routes SIGTERM and friends to a clean stop (the command does;
    /// a test running a daemon in-process leaves the process's signals alone).
    public func run(handlingSignals: Bool = true) -> Outcome {
        logger.info("jukebox starting", metadata: ["music": "\(config.library.musicDirectory)", "device": "\(config.audio.output.device)"])
        if handlingSignals { handleSignals() }
        if let failure = start() {
            logger.critical("not starting: \(failure)")
            requestStop(.failed(failure))
        }
        let outcome = shared.withLock { access -> Outcome in
            while true {
                if let stop = access.stop { return stop }
                access.wait(nanoseconds: 1_000_000_000)
            }
        }
        if case .stopped(let reason) = outcome { logger.info("stopping (\(reason))") }
        Systemd.stopping()
        services.stop()
        for source in signalSources { source.cancel() }
        signalSources.removeAll()
        if let thread = engineService.stuckThreads.first {
            logger.error("forced exit: the \(thread == "jukebox-decode" ? "decode" : "audio") thread did not stop within 3 s")
            return .stuck(thread: thread)
        }
        logger.info("stopped")
        return outcome
    }

    /// Asks `run` to stop the box and return; from any thread, any number of times.
    public func requestStop(_ reason: StopReason = .asked) { requestStop(.stopped(reason)) }

    private func requestStop(_ outcome: Outcome) { Self.ask(shared, outcome) }

    private static func ask(_ shared: ConditionLocked<Shared>, _ outcome: Outcome) {
        shared.withLock { access in
            if access.stop == nil { access.stop = outcome }
            access.broadcast()
        }
    }

    // MARK: Start

    /// What is read and set up before any part starts, then the parts in `startOrder`;
    /// the first required one that cannot start stops the start.
    private func start() -> ServiceGroup.Failure? {
        // Before anything writes: what cut writes left goes, and the saved place is read
        // (the library holds its first play for it).
        resume.load()
        cards.restorePlaces(resume.savedCardPlaces)
        configureNetwork(config.network)
        jingles.configure(config.jingles)
        do {
            for service in startOrder() { try services.add(service) }
            return nil
        } catch {
            return error
        }
    }

    /// The box's parts in the order they start; they stop in reverse. The state saver
    /// is not listed: `resume` adds it once the saved place is taken up (at its own start
    /// for a client's queue, else when the library's first queue comes).
    private func startOrder() -> [any Service] {
        var order: [any Service] = [
            // First, so it stops last, after everything that sends the player commands.
            PlayerService(player: player),
            // Before the engine: a second daemon must stop before it touches the audio device.
            control,
            engineService,
            // Once the engine runs: a client's queue, or the saved track, plays at once,
            // without waiting for the library.
            resume,
            // After the saved place: a box started in quiet hours starts quiet.
            quietHours,
            sleepTimer,
        ]
        // Only under systemd's `WatchdogSec=`. It asks the player and the engine for
        // signs of life, so it comes after both.
        if let interval = Systemd.watchdogInterval {
            order.append(WatchdogService(interval: interval, player: player, engine: engine, logger: logger))
        }
        // The library before the inputs: its start only hands the queue's loading to a
        // thread of its own, which then overlaps with setting up the lines and devices
        // below, and the first sound comes that much sooner.
        order.append(library)
        // Before the inputs, whose readers report to it; it stops after them.
        order.append(cards)
        order.append(inputs)
        // It tells the engine and the inputs of devices that come and go: after both.
        order.append(hotplug)
        // Only with `[control] keyboard`: keys on the terminal, beside the board's inputs.
        if config.control.keyboard {
            order.append(KeyboardService(skipSeconds: config.playback.skipSeconds, logger: logger) { [weak self] action in
                self?.keyPressed(action)
            })
        }
        // After every part the music needs: the first sound does not wait for fonts and
        // the display.
        order.append(screen)
        // The page, once what it shows and drives is up; then the box is announced.
        order.append(web)
        order.append(zeroconf)
        // Last, and only with a config file to watch.
        if let source {
            order.append(ConfigWatcher(path: source.path) { [weak self] in self?.reload(because: "saved") })
        }
        return order
    }

    /// The download cache for URL tracks: a folder that cannot be written is said once and
    /// URLs still play, downloaded to a temporary file instead.
    private func configureNetwork(_ network: JukeboxConfig.Network) {
        if let problem = self.network.configure(network.cache, limits: network.limits) {
            logger.warning("network: \(problem); URL tracks play without being kept")
        }
    }

    /// What the library scan found, for the screen and the start-up report; the first
    /// full queue takes up the saved place (see `ResumeService`).
    private func libraryLoaded(_ loaded: LibraryService.Loaded) {
        switch loaded {
        case .nothingToPlay:
            notices.set(.library, "no music found in \(config.library.musicDirectory)")
            startup.ready("no music found in \(config.library.musicDirectory); waiting for some")
            if exitWhenDone { requestStop(.nothingToPlay) }
        case .waitingForMusic:
            notices.set(.library, "waiting for \(config.library.musicDirectory)")
            startup.ready("waiting for \(config.library.musicDirectory) to appear")
        case .queue(let queue, let alreadyPlaying):
            notices.set(.library, nil)
            startup.ready("\(queue.count) tracks queued")
            resume.libraryQueue(queue, alreadyPlaying: alreadyPlaying)
        }
    }

    /// A button asked the box itself for something: the key lock, the sleep timer,
    /// linking a card.
    private func boxRequested(_ request: BoxAction, by action: InputAction) {
        switch request {
        case .keyLock:
            // The gate has already turned (it routes every input).
            let locked = keyLock.isLocked
            logger.notice("input: keys \(locked ? "locked" : "unlocked") (\(action.source))")
            screen.keysLocked(locked)
            pageFeed.keysLocked(locked)
        case .sleepTimer:
            sleepTimer.step(from: action.source)
        case .linkCard:
            logger.info("input: \(action.source) asked for \(request.rawValue)")
            cards.linkUnknown(by: action)
        }
    }

    /// The sleep timer, as a card, a button, the socket or the screen asks.
    func sleepRequested(_ request: SleepRequest) {
        sleepTimer.request(request, from: "a card")
    }

    /// A card reader's sighting (readers are inputs: `[[input.reader]]`), or the socket's
    /// virtual card.
    func cardReported(_ report: ReaderReport) {
        logger.debug("card: \(report.reader): \(report.sighting)")
        // The key lock holds the readers too unless `[key_lock] cards` lets them through;
        // the socket is the admin's, not a child's, and is never locked.
        if report.reader != "socket", !keyLock.allowsCards {
            // Said once per card: a presence reader reports the card lying there every poll.
            let card: CardID? = switch report.sighting {
            case .read(let id), .present(let id): id
            case .absent: nil
            }
            let new = lockedOutCard.withLock { last in
                defer { last.wholeValue = card }
                return card != nil && card != last.wholeValue
            }
            if new { logger.notice("cards: \(report.reader): card \(card!) ignored: the keys are locked and [key_lock] cards = false") }
            return
        }
        cards.report(report)
    }

    /// A card asked to switch the box off (`[cards] allow_shutdown`): systemd powers the
    /// machine off, which stops this box cleanly first (SIGTERM).
    private func powerOff() {
        SystemPower.powerOff(logger: logger)
    }

    private func keyPressed(_ action: KeyboardInput.Action) {
        switch action {
        case .command(let command): player.send(command)
        case .card(let id): cardReported(ReaderReport(reader: "keyboard", sighting: .read(id), at: MonotonicClock.now()))
        case .quit: requestStop(.quitKey)
        case .closed(let error): logger.notice("keys: the terminal \(error.map { "failed: \($0)" } ?? "closed"); keys stop")
        }
    }

    // MARK: Live reload

    /// Reads the config again and applies what changed. A broken edit is logged with its
    /// line and changes nothing: the last good config stays in force.
    private func reload(because trigger: String) {
        guard let source else { return }
        reloads.async { [self] in
            Systemd.reloading()
            defer { Systemd.reloaded() }
            let new: JukeboxConfig
            do {
                new = try source.load()
            } catch {
                logger.error("config: \(error); keeping the running config")
                notices.set(.config, "\(error)")
                return
            }
            notices.set(.config, nil)
            let old = config
            let change = ConfigChange(from: old, to: new)
            guard !change.isEmpty else {
                logger.info("config: \(source.path) \(trigger), nothing changed")
                return
            }
            shared.withLock { $0.config = new }
            apply(change, from: old, to: new)
            logger.notice("config: \(source.path) \(trigger): applied \(change.listed)\(change.parts.contains(.startOnly) ? " (start-only settings take effect at the next start)" : "")")
        }
    }

    /// Each changed part is applied on its own; playback stops only for a new device, and
    /// then carries on from the same sample.
    private func apply(_ change: ConfigChange, from old: JukeboxConfig, to new: JukeboxConfig) {
        if change.parts.contains(.player) {
            var settings = ConfigChange.playerSettings(new)
            // A mode chosen with a button stays unless the edit changed the mode itself.
            if old.playback.player.mode == new.playback.player.mode { settings.mode = player.status.mode }
            player.updateSettings(settings)
        }
        if change.parts.contains(.audio) {
            outputs.configure(new.audio.devices)
            reroute()
        }
        if change.parts.contains(.inputs) {
            services.restart(inputs) { inputs.config = new.input }
        }
        if change.parts.contains(.control) || ControlService.scope(old) != ControlService.scope(new) {
            services.restart(control) {
                control.control = new.control
                control.scope = ControlService.scope(new)
            }
        }
        if change.parts.contains(.web) {
            services.restart(web) { web.update(new.web, access: WebAccess(web: new.web, control: new.control)) }
        } else if old.control.password != new.control.password {
            web.update(new.web, access: WebAccess(web: new.web, control: new.control))
        }
        if !change.parts.isDisjoint(with: [.library, .web, .player]) {
            var places = web.places
            places.library = LibraryPaths(musicDirectory: new.library.musicDirectory)
            // Not swept here: a part file in it may be an upload that began under the old
            // rules. The next start sweeps it.
            if Self.uploadSettings(old) != Self.uploadSettings(new) { places.uploads = Self.uploadFolder(new) }
            web.follow(places, scope: ControlService.scope(new), volumeRange: Self.volumeRange(new))
        }
        if change.parts.contains(.zeroconf) {
            services.restart(zeroconf) {
                zeroconf.update(name: new.zeroconf.name,
                                announcements: ZeroconfService.announcements(new, webPort: WebService.announcedPort(new.web)))
            }
        }
        if change.parts.contains(.library) {
            services.restart(library) { library.settings = .init(library: new.library, autoplay: new.playback.autoplay, index: new.state.libraryIndex) }
        }
        if change.parts.contains(.display) {
            services.restart(screen) { screen.settings = new.display }
        }
        if change.parts.contains(.network) { configureNetwork(new.network) }
        if change.parts.contains(.jingles) { jingles.configure(new.jingles) }
        if change.parts.contains(.state) { resume.stateSettingsChanged(new) }
        if change.parts.contains(.cards) { cards.configChanged() }
        if change.parts.contains(.timers) {
            sleepTimer.updateSettings(new.timers.sleep)
            quietHours.update(new.timers.quietHours)
            keyLock.setCardsWhileLocked(new.timers.cardsWhileLocked)
        }
    }

    // MARK: Parts chosen from the config

    /// Where the page's uploads go, and their limits.
    private static func uploadFolder(_ config: JukeboxConfig) -> UploadFolder {
        let settings = uploadSettings(config)
        return UploadFolder(musicDirectory: settings.musicDirectory, folder: settings.folder, limits: settings.limits)
    }

    private static func uploadSettings(_ config: JukeboxConfig) -> (musicDirectory: String, folder: String, limits: UploadLimits) {
        (config.library.musicDirectory, config.web.uploadFolder,
         UploadLimits(maxBytes: config.web.maxUploadBytes, maxAtOnce: config.web.uploadsAtOnce, reserveBytes: config.web.keepFreeBytes))
    }

    private static func volumeRange(_ config: JukeboxConfig) -> ClosedRange<Int> {
        config.playback.player.minimumVolume...config.playback.player.maximumVolume
    }

    /// The route over the configured devices that clients left switched on; the music
    /// carries on from the same sample where the device changes.
    private func reroute() {
        var audio = config.audio
        audio.devices = outputs.enabled
        engine.reroute(Self.chooseRoute(audio, logger: logger), onOutputLost: audio.onOutputLost)
    }

    /// The configured ALSA devices, in order; "null-sink" asks for the silent sink paced in
    /// real time. Only when none is configured beyond "default" and the machine has no sound
    /// card at all (a PC trying the demo) does audio go there by itself, so the rest of the
    /// box still works and shows it. A named device that is absent (a DAC switched off) is
    /// waited for.
    private static func chooseRoute(_ audio: JukeboxConfig.Audio, logger: Logger) -> OutputRoute {
        if audio.devices.isEmpty {
            logger.notice("every output is switched off (disableoutput); the music goes on silently until one is switched on")
            return OutputRoute(fixed: NullOutput())
        }
        if audio.devices == [NullOutput.deviceName] {
            logger.notice("audio goes to a silent sink paced in real time (device \"\(NullOutput.deviceName)\")")
            return OutputRoute(fixed: NullOutput())
        }
        if audio.devices == ["default"], !ALSAOutput.machineHasSoundCard {
            logger.warning("no sound card: default cannot be opened, so audio goes to a silent sink paced in real time")
            return OutputRoute(fixed: NullOutput())
        }
        let route = OutputRoute.devices(audio.devices, settings: audio.output, snapcast: audio.snapcast)
        // snapserver comes back to its pipe within 100 ms of the box holding it: a look
        // now would say it is absent when it is about to be there.
        if !audio.devices.contains(where: SnapcastTarget.names), route.firstPresent() == nil {
            logger.warning("waiting for \(audio.devices.joined(separator: " or ")): not present now; playing as soon as it appears")
        }
        return route
    }

    // MARK: Signals

    /// Signals that stop the box cleanly, through the same path as `q`.
    private static let stopSignals: [(number: Int32, name: String)] = [
        (SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGQUIT, "SIGQUIT"), (SIGUSR1, "SIGUSR1"), (SIGUSR2, "SIGUSR2"),
    ]

    /// The signals `run` handles, held back in every thread from the first thing
    /// `jukebox run` does (before any thread starts, so all inherit it): one that comes
    /// while the box starts waits, pending, for `run` to take it, instead of killing the
    /// box by its default action.
    public static func holdSignals() {
        var held = sigset_t()
        sigemptyset(&held)
        for number in stopSignals.map(\.number) + [SIGHUP] { sigaddset(&held, number) }
        pthread_sigmask(SIG_BLOCK, &held, nil)
    }

    /// Their default action (die, leaving the socket file behind) is turned off from the
    /// start. A client that hangs up mid-reply must never kill the box: SIGPIPE is ignored
    /// and the write reports EPIPE instead.
    private func handleSignals() {
        signal(SIGPIPE, SIG_IGN)
        for (number, name) in Self.stopSignals {
            watch(number) { [weak self] in self?.requestStop(.signal(name)) }
        }
        watch(SIGHUP) { [weak self] in self?.reload(because: "reloaded (SIGHUP)") }
    }

    private func watch(_ number: Int32, handler: @escaping @Sendable () -> Void) {
        // Held (`holdSignals`), it reaches the source pending or not; ignoring it would
        // drop one that came during the start. Not held (a daemon run in a test), any
        // thread could take it by its default action, so it is ignored.
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &mask)
        if sigismember(&mask, number) != 1 { signal(number, SIG_IGN) }
        let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
        source.setEventHandler(handler: handler)
        source.resume()
        signalSources.append(source)
    }
}
