import Dispatch
import Logging

/// Cards on the readers: turns each reader's sightings into placements (`CardPresence`),
/// decides what they ask (`CardRules`), and carries that out on the player. It owns the
/// cards file and watches it: a saved edit applies at once, a broken one is reported with
/// its line and the last good version stays.
///
/// Everything runs on a queue of its own: a reader's thread (or the socket) only hands a
/// report over, and the player is sent commands, so neither the input thread nor the
/// audio thread ever waits on the disk or on this.
public final class CardService: Service, @unchecked Sendable {
    public let name = "cards"
    public let policy = FailurePolicy.optional

    /// What the service needs from the rest of the box.
    public struct Hooks: Sendable {
        /// A card's button action that asks the box (the key lock, the sleep timer).
        public var box: @Sendable (BoxAction, InputAction) -> Void = { _, _ in }
        public var sleep: @Sendable (SleepRequest) -> Void = { _ in }
        public var shutdown: @Sendable () -> Void = {}
        /// A line for the screen (nil clears it).
        public var notice: @Sendable (String?) -> Void = { _ in }
        /// What became of each card put on the box (for a jingle).
        public var outcome: @Sendable (CardOutcome) -> Void = { _ in }
        public init() {}
    }

    private let player: Player
    private let catalog: LibraryCatalog
    private let actions: InputActionLog?
    private let logger: Logger
    private let config: @Sendable () -> JukeboxConfig
    /// Set before `start`.
    public var hooks = Hooks()
    private let queue = DispatchQueue(label: "jukebox.cards")
    /// What the state saver reads on its own queue: the places, and the playing card's tracks.
    private let shared: ConditionLocked<Shared>
    private struct Shared {
        var places: CardPlaces
        var playing: (card: CardID, tracks: Set<String>)?
    }

    // Confined to `queue`.
    private var settings: JukeboxConfig.Cards
    private var cards = CardsFile()
    private var presences: [String: CardPresence] = [:]
    private var presenceReaders: Set<String> = []
    private var rules: CardRules
    /// The queue's tracks version when a card's music went in (another: something else took over).
    private var startedVersion: Int?
    /// The unknown card last put on a reader, which `link` links.
    private var unknown: CardID?
    private var watcher: ConfigWatcher?
    private var deadlineGeneration = 0

    public init(player: Player, catalog: LibraryCatalog, actions: InputActionLog?, logger: Logger, config: @escaping @Sendable () -> JukeboxConfig) {
        self.player = player
        self.catalog = catalog
        self.actions = actions
        self.logger = logger
        self.config = config
        let cards = config().cards
        settings = cards
        rules = CardRules(mode: cards.mode, again: cards.again)
        shared = ConditionLocked(Shared(places: CardPlaces()))
    }

    /// The places the state file kept, before `start`.
    public func restorePlaces(_ saved: [CardPlaces.Place]) {
        shared.withLock { $0.places = CardPlaces(saved) }
    }

    // MARK: Service

    public func start(died: @escaping @Sendable (any Error) -> Void) throws {
        queue.sync {
            settings = config().cards
            loadCards(because: nil)
            startWatcher()
        }
    }

    public func stop() {
        queue.sync {
            watcher?.stop()
            watcher = nil
            savePlace()
        }
    }

    // MARK: From the rest of the box

    /// A reader's sighting; from any thread, returns at once.
    public func report(_ report: ReaderReport) {
        queue.async { [self] in handle(report) }
    }

    /// The config was edited: the rules, the grace period, the file.
    public func configChanged() {
        queue.async { [self] in
            let old = settings
            settings = config().cards
            rules.mode = settings.mode
            rules.again = settings.again
            // A card lying on a reader stays placed: nothing restarts for an edit.
            let grace = CardPresence.nanoseconds(settings.removalGraceMilliseconds)
            for reader in presences.keys { presences[reader]?.grace = grace }
            if old.file != settings.file {
                watcher?.stop()
                watcher = nil
                loadCards(because: nil)
                startWatcher()
            }
        }
    }

    /// Links the unknown card last put on a reader to what is playing (a button's
    /// `link-card`), rewriting the cards file.
    public func linkUnknown(by action: InputAction?) {
        queue.async { [self] in linkUnknownCard() }
    }

    /// The places for the state file, with the playing card's place taken from `memory`.
    public func places(for memory: PlaybackMemory) -> [CardPlaces.Place] {
        shared.withLock { shared in
            guard let playing = shared.playing, let path = memory.path, playing.tracks.contains(path) else { return shared.places.saved() }
            return shared.places.saved(with: .init(card: playing.card.text, path: path, frame: memory.frame, speed: nil))
        }
    }

    /// What the page lists: the cards in force, where each was left, the unknown card
    /// last put on a reader, and the file they are kept in ("" for none).
    public struct Overview: Sendable {
        public var file: CardsFile
        public var places: [CardID: CardPlaces.Place]
        public var lastUnknown: CardID?
        public var path: String
    }

    public func overview() -> Overview {
        queue.sync {
            let file = cards
            let places = shared.withLock { shared in
                Dictionary(uniqueKeysWithValues: file.entries.compactMap { entry in shared.places[entry.id].map { (entry.id, $0) } })
            }
            return Overview(file: file, places: places, lastUnknown: unknown, path: cardsPath)
        }
    }

    /// The cards file was edited for `card` (linked or forgotten from the page): it is
    /// read again now, not when the watch notices, and the card is no longer unknown.
    public func edited(_ card: CardID) {
        queue.sync {
            if unknown == card { unknown = nil }
            loadCards(because: "edited from the page")
        }
    }

    /// For tests: waits until what was handed over is done.
    public func settle() { queue.sync {} }

    /// The cards file as now in force.
    public var file: CardsFile { queue.sync { cards } }

    // MARK: Reports

    private func handle(_ report: ReaderReport) {
        var presence = presences[report.reader] ?? CardPresence(graceMilliseconds: settings.removalGraceMilliseconds)
        if case .read = report.sighting {} else { presenceReaders.insert(report.reader) }
        let events = presence.report(report.sighting, at: report.at)
        presences[report.reader] = presence
        for event in events { handle(event, from: report.reader, at: report.at) }
        armDeadline()
    }

    private func handle(_ event: CardPresence.Event, from reader: String, at edge: UInt64) {
        let card: CardID
        switch event {
        case .placed(let c), .lifted(let c), .returned(let c), .gone(let c): card = c
        }
        let entry = cards[card]
        let kind: CardRules.Kind
        switch entry?.does {
        case .play: kind = .music
        case .act: kind = .action
        case nil: kind = .unknown
        }
        if kind == .music, let startedVersion, player.status.tracksVersion != startedVersion {
            rules.queueTakenOver()
            self.startedVersion = nil
        }
        guard let decision = rules.decide(event, kind: kind, presence: presenceReaders.contains(reader)) else { return }
        let title = entry?.title ?? card.text
        switch decision {
        case .start(let card):
            if case .play(let music) = entry?.does { start(card, title, music, at: edge, fromPlace: music.resume) }
        case .restart(let card):
            if case .play(let music) = entry?.does { start(card, title, music, at: edge, fromPlace: false) }
        case .resume(let card):
            if startedVersion == nil, case .play(let music) = entry?.does {
                start(card, title, music, at: edge, fromPlace: music.resume)
            } else {
                send(.play, for: title, .cardPlaced, at: edge)
                hooks.outcome(.accepted(card))
            }
        case .pause:
            send(.pause, for: title, .cardLifted, at: edge)
            savePlace()
        case .toggle(let card):
            send(.toggle, for: title, .cardPlaced, at: edge)
            hooks.outcome(.accepted(card))
        case .act(let card):
            if case .act(let action) = entry?.does { act(card, title, action, at: edge) }
        case .unknown(let card):
            unknown = card
            logger.notice("cards: card \(card) is not in \(cardsPath); hold the link-card button to link it to what is playing")
            hooks.notice("card \(card): hold ▶ to link this card to what is playing")
            hooks.outcome(.unknown(card))
        case .forgetUnknown(let card):
            if unknown == card {
                unknown = nil
                hooks.notice(nil)
            }
        }
    }

    /// Books a wake-up for the soonest grace period to end.
    private func armDeadline() {
        guard let soonest = presences.values.compactMap(\.deadline).min() else { return }
        deadlineGeneration += 1
        let generation = deadlineGeneration
        let now = MonotonicClock.now()
        let delay = soonest > now ? Double(soonest - now) / 1e9 : 0
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            guard generation == deadlineGeneration else { return }
            let now = MonotonicClock.now()
            for reader in presences.keys.sorted() {
                guard var presence = presences[reader] else { continue }
                let events = presence.advance(to: now)
                presences[reader] = presence
                for event in events { handle(event, from: reader, at: now) }
            }
            armDeadline()
        }
    }

    // MARK: Carrying out

    /// Puts the card's music in the queue and plays it, from its own place with `fromPlace`.
    private func start(_ card: CardID, _ title: String, _ music: CardMusic, at edge: UInt64, fromPlace: Bool) {
        let tracks: [String]
        switch resolve(music.target) {
        case .success(let found): tracks = found
        case .failure(let reason):
            refuse(card, "card \(title): \(reason); the music playing keeps playing")
            rules.queueTakenOver()
            return
        }
        savePlace()
        let place = fromPlace ? shared.withLock { $0.places[card] } : nil
        let from = place.flatMap { place in tracks.firstIndex(of: place.path).map { (position: $0, frame: place.frame) } }
        do {
            try player.editQueue { draft in
                draft.removeAll()
                _ = try draft.insert(tracks)
            }
        } catch {
            refuse(card, "card \(title): the queue cannot take its \(tracks.count) tracks (\(error))")
            return
        }
        startedVersion = player.status.tracksVersion
        shared.withLock { $0.playing = (card, Set(tracks)) }
        if let shuffle = music.shuffle { player.send(.setOption(.random(shuffle))) }
        if let again = music.repeat { player.send(.setOption(.repeat(again))) }
        player.send(.capVolume(.card, music.maxVolume))
        let command: PlayerCommand = from.map { .playFrom(position: $0.position, frame: $0.frame) } ?? .playPosition(0)
        send(command, for: title, .cardPlaced, at: edge)
        // A paused box stays paused on playFrom.
        if from != nil { player.send(.play) }
        if let speed = music.speed ?? place?.speed { player.send(.setSpeed(speed)) }
        logger.info("cards: \(title) plays \(music.target) (\(tracks.count) tracks\(from.map { ", from track \($0.position + 1) at frame \($0.frame)" } ?? ""))")
        hooks.notice(nil)
        hooks.outcome(.accepted(card))
    }

    private func act(_ card: CardID, _ title: String, _ action: CardAction, at edge: UInt64) {
        switch action {
        case .button(_, .player(let command)):
            send(command, for: title, .cardPlaced, at: edge)
        case .button(_, .box(let request)):
            hooks.box(request, InputAction(source: "card \(title)", gesture: .cardPlaced, command: .box(request), edgeAt: edge))
        case .volume(let level):
            send(.setVolume(level), for: title, .cardPlaced, at: edge)
        case .sleep(let request):
            logger.info("cards: \(title) asks for the sleep timer: \(request)")
            hooks.sleep(request)
        case .shutdown:
            guard settings.allowShutdown else {
                refuse(card, "card \(title): shutdown is off; set [cards] allow_shutdown = true to let a card switch the box off")
                return
            }
            logger.notice("cards: \(title) switches the box off")
            hooks.shutdown()
        }
        hooks.outcome(.accepted(card))
    }

    /// Sends `command`, logged as the card's action so its effect is logged when heard.
    private func send(_ command: PlayerCommand, for title: String, _ gesture: InputGesture, at edge: UInt64) {
        actions?.sent(InputAction(source: "card \(title)", gesture: gesture, command: .player(command), edgeAt: edge), at: MonotonicClock.now())
        player.send(command)
    }

    private func refuse(_ card: CardID, _ reason: String) {
        logger.warning("cards: \(reason)")
        hooks.notice(reason)
        hooks.outcome(.refused(card, reason))
    }

    /// Keeps the playing card's place as it is now.
    private func savePlace() {
        guard let playing = shared.current.playing else { return }
        let memory = player.memory
        let speed = player.status.speed
        guard let path = memory.path, playing.tracks.contains(path) else { return }
        shared.withLock { $0.places.set(.init(card: playing.card.text, path: path, frame: memory.frame, speed: speed)) }
    }

    private enum Resolved { case success([String]), failure(String) }

    /// The tracks a target names, as the MPD commands `add` and `load` find them.
    private func resolve(_ target: CardMusic.Target) -> Resolved {
        let config = config()
        switch target {
        case .url(let url):
            return .success([url])
        case .library(let path):
            let library = catalog.snapshot.tracks.map(\.path)
            guard !library.isEmpty else { return .failure("the library is not loaded yet") }
            let tracks = LibraryPaths(musicDirectory: config.library.musicDirectory).tracks(named: path, in: library)
            guard !tracks.isEmpty else { return .failure("\(path) is not in the music folder \(config.library.musicDirectory) (moved or deleted?)") }
            return .success(tracks)
        case .playlist(let name):
            let playlists = StoredPlaylists(folder: config.library.playlistsDirectory, musicDirectory: config.library.musicDirectory)
            do {
                let known = catalog.snapshot.positions
                let tracks = try playlists.read(name).filter { if case .url = TrackLocation($0) { return true }; return known[$0] != nil }
                guard !tracks.isEmpty else { return .failure("playlist \(name) has no track the library knows") }
                return .success(tracks)
            } catch {
                return .failure("playlist \(name): \(error)")
            }
        }
    }

    // MARK: The cards file

    /// Empty: no cards (a config without a file, or `file = "none"`).
    private var cardsPath: String { settings.file == "none" ? "" : settings.file }

    private func startWatcher() {
        guard !cardsPath.isEmpty else { return }
        let watcher = ConfigWatcher(path: cardsPath) { [weak self] in
            guard let self else { return }
            queue.async { self.loadCards(because: "saved") }
        }
        do {
            try watcher.start { [logger] error in logger.warning("cards: watching the cards file stopped: \(error)") }
            self.watcher = watcher
        } catch {
            logger.warning("cards: cannot watch \(cardsPath) (\(error)); edits apply at the next start")
        }
    }

    /// Reads the cards file; a broken one is reported and the last good one kept.
    private func loadCards(because trigger: String?) {
        guard !cardsPath.isEmpty else {
            cards = CardsFile()
            return
        }
        let started = MonotonicClock.now()
        do {
            cards = try CardsFile.load(path: cardsPath, skipSeconds: config().playback.skipSeconds)
            let ms = (MonotonicClock.now() - started) / 1_000_000
            logger.info("cards: \(cardsPath)\(trigger.map { " \($0)" } ?? ""): \(cards.entries.count) cards (read in \(ms) ms)")
            hooks.notice(nil)
        } catch {
            logger.error("cards: \(error); keeping the \(cards.entries.count) cards read before")
            hooks.notice("\(error)")
        }
    }

    private func linkUnknownCard() {
        guard let card = unknown else {
            logger.notice("cards: link-card, but no unknown card was put on a reader")
            return
        }
        let config = config()
        let status = player.status
        guard let path = status.path else {
            refuse(card, "card \(card): nothing is playing to link it to")
            return
        }
        let entry: CardEntry
        switch CardLink.entry(card, playing: path, playlist: status.loadedPlaylist, title: status.metadata?.title,
                              musicDirectory: config.library.musicDirectory, rememberedFolders: config.library.rememberedFolders) {
        case .success(let linked): entry = linked
        case .failure(let refusal):
            refuse(card, "card \(card): \(refusal.reason)")
            return
        }
        let file = cardsPath
        guard !file.isEmpty else {
            refuse(card, "card \(card): there is no cards file to link it in ([cards] file = \"none\")")
            return
        }
        do {
            try CardsFileEdit.edit(path: file) { text throws(CardsFileEdit.Failure) in try CardsFileEdit.link(entry, in: text, path: file) }
        } catch {
            refuse(card, "card \(card): cannot link it: \(error)")
            return
        }
        unknown = nil
        logger.notice("cards: card \(card) linked: \(entry)")
        loadCards(because: "linked")
        hooks.notice("card \(card) now plays \(entry.title)")
        hooks.outcome(.accepted(card))
        // What plays now is that card's.
        rules.adopt(card)
        startedVersion = status.tracksVersion
        let tracks = Set(player.listing.paths)
        shared.withLock { $0.playing = (card, tracks) }
    }
}
