/// How a box coming back takes up the place the last run saved, apart from files and
/// threads so it is tested with made-up states: a file's identity is asked of `identity`,
/// which the box answers from the disk. One of three ways, chosen at start:
/// - a queue a client made comes back at once, from the queue file beside the state;
/// - else the saved track plays at once, before the library is loaded, when nothing can
///   have changed under it;
/// - else the place waits for the library's first full queue.
///
/// The value also follows how far that has gone, for the service that carries it out.
struct ResumePlan: Sendable, Equatable {
    /// What the rules take from the config.
    struct Settings: Sendable, Equatable {
        /// `[playback] resume`.
        var policy: ResumePolicy
        var autoplay: Bool
        /// `[library] playlist`: empty plays the whole library.
        var playlist: String
        var musicDirectory: String

        init(policy: ResumePolicy, autoplay: Bool, playlist: String, musicDirectory: String) {
            self.policy = policy
            self.autoplay = autoplay
            self.playlist = playlist
            self.musicDirectory = musicDirectory
        }

        init(_ config: JukeboxConfig) {
            self.init(policy: config.playback.resume, autoplay: config.playback.autoplay, playlist: config.library.playlist,
                      musicDirectory: config.library.musicDirectory)
        }
    }

    /// The way taken at start, before the library is loaded.
    enum Start: Equatable {
        /// Nothing saved: the library's queue plays as autoplay says.
        case nothingSaved
        /// The queue was a client's: it is read back from the queue file at once.
        case clientQueue
        /// The saved track (this path) plays now, a queue of one until the library's comes.
        case atOnce(String)
        /// The place waits for the library's queue.
        case afterLibrary
    }

    /// What the saved place becomes in the queue it comes back to.
    struct Restoring: Equatable {
        var memory: PlaybackMemory
        var play: Bool
        /// Why the place was moved, for the log.
        var moved: Moved?
    }

    enum Moved: Equatable {
        /// The track is not in the queue: the queue starts from the top.
        case notInQueue(String)
        /// The file is not the one saved (size or time): the track starts from its start.
        case changed(String)
    }

    /// What waits for the library's first queue.
    enum Waiting: Equatable {
        case nothingSaved
        /// The saved track is playing already (`Start.atOnce`).
        case startedEarly(SavedState)
        case place(SavedState)
    }

    /// What the player is told once the library's first queue is there.
    enum AfterLibrary: Equatable {
        /// Nothing saved, and autoplay off or the queue playing already.
        case nothing
        /// Nothing saved: autoplay starts the queue.
        case play
        case restore(Restoring)
        /// After an early start: the history and shuffle order come back with the list
        /// they were saved with, and the track plays on.
        case restoreQueueMemory(PlaybackMemory)
        /// After an early start whose track is not in the queue: it plays to its end,
        /// then the queue from the top.
        case earlyTrackNotInQueue(String?)
    }

    // MARK: Rules

    /// The way to take at start. An early start only when nothing can have changed under
    /// the saved track: the whole library is the queue (not a playlist), the track is in
    /// `music_dir`, the file is the one saved, the queue was not a client's, and the box
    /// is to play at all.
    static func start(_ saved: SavedState?, _ settings: Settings, identity: (String) -> FileIdentity?) -> Start {
        guard let saved else { return .nothingSaved }
        if saved.clientQueue == true { return .clientQueue }
        let music = settings.musicDirectory.hasSuffix("/") ? settings.musicDirectory : settings.musicDirectory + "/"
        guard let path = saved.memory.path, settings.playlist.isEmpty, saved.source == .library, path.hasPrefix(music),
              settings.policy.plays(saved: saved.memory.state, autoplay: settings.autoplay),
              let savedIdentity = saved.identity, identity(path) == savedIdentity
        else { return .afterLibrary }
        return .atOnce(path)
    }

    /// The saved place in `queue`: the same track at the same frame (from the top if the
    /// track is gone, from its start if the file changed since), playing or not as
    /// `[playback] resume` says.
    static func restoring(_ saved: SavedState, in queue: [String], _ settings: Settings,
                          identity: (String) -> FileIdentity?) -> Restoring {
        var memory = saved.memory
        var moved: Moved?
        if let path = memory.path {
            if !queue.contains(path) {
                moved = .notInQueue(path)
                memory.path = nil
            } else if let savedIdentity = saved.identity, identity(path) != savedIdentity {
                moved = .changed(path)
                memory.frame = 0
            }
        }
        return Restoring(memory: memory, play: settings.policy.plays(saved: memory.state, autoplay: settings.autoplay), moved: moved)
    }

    /// What the player is told when the library's first queue comes.
    static func afterLibrary(_ waiting: Waiting, queue: [String], alreadyPlaying: Bool, _ settings: Settings,
                             identity: (String) -> FileIdentity?) -> AfterLibrary {
        switch waiting {
        case .nothingSaved:
            return settings.autoplay && !alreadyPlaying ? .play : .nothing
        case .startedEarly(let saved):
            guard let path = saved.memory.path, queue.contains(path) else { return .earlyTrackNotInQueue(saved.memory.path) }
            return .restoreQueueMemory(saved.memory)
        case .place(let saved):
            return .restore(restoring(saved, in: queue, settings, identity: identity))
        }
    }

    /// Whether a track of a client's saved queue is still there: a URL, or a file that exists.
    static func isPresent(_ track: TrackLocation, identity: (String) -> FileIdentity?) -> Bool {
        switch track {
        case .url: true
        case .file(let path): identity(path) != nil
        }
    }

    // MARK: Progress

    /// What the last run saved, until the library's first queue has used it.
    private(set) var saved: SavedState?
    private var queueLoaded = false
    private var startedEarly = false
    private var clientQueueBack = false

    init(saved: SavedState?) { self.saved = saved }

    /// The library waits for its whole scan before playing: the place may be anywhere in it.
    var holdsFirstPlay: Bool { saved != nil }

    /// The saved track plays already (`Start.atOnce` was carried out).
    mutating func didStartEarly() { startedEarly = true }

    /// The client's queue is back: the library's queue takes nothing up.
    mutating func didBringBackClientQueue() { clientQueueBack = true }

    /// The library delivered a queue: what waits for it, only for the first one, and
    /// nothing when a client's queue came back at start.
    mutating func libraryQueue() -> Waiting? {
        defer {
            queueLoaded = true
            saved = nil
        }
        guard !queueLoaded, !clientQueueBack else { return nil }
        guard let saved else { return .nothingSaved }
        return startedEarly ? .startedEarly(saved) : .place(saved)
    }
}
