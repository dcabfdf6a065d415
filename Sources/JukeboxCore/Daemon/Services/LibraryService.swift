import Dispatch
import Logging

/// Scans the library in the background and gives the player its queue. A `music_dir`
/// that does not exist yet (a USB stick not mounted) or holds no music is watched, and
/// scanned again once music arrives. Each start scans afresh (a live reload that changes
/// the folder or the playlist restarts it); a scan still running from an earlier start is
/// left to finish and its result dropped.
final class LibraryService: Service, @unchecked Sendable {
    struct Settings: Equatable, Sendable {
        var library: JukeboxConfig.Library
        var autoplay: Bool
    }

    /// What a load found, for the daemon to act on.
    enum Loaded: Sendable {
        /// The queue (never empty), and whether it is already playing: the first tracks
        /// found play before the scan ends, unless `holdFirstPlay` said to wait.
        case queue([String], alreadyPlaying: Bool)
        case nothingToPlay
    }

    let name = "library"
    let policy = FailurePolicy.optional
    private let player: Player
    private let logger: Logger
    /// Waits for the whole scan before playing (a saved place may be anywhere in it).
    private let holdFirstPlay: @Sendable () -> Bool
    /// Told after each scan (set before `start`).
    var onLoaded: @Sendable (Loaded) -> Void = { _ in }
    /// False ends the watch even when nothing was found (for `exitWhenDone`).
    private let waitForMusic: Bool
    private let current: ConditionLocked<Current>
    private struct Current {
        var settings: Settings
        var run = 0
        var running = false
        var watch: MusicFolderWatch?
    }

    init(settings: Settings, player: Player, logger: Logger, waitForMusic: Bool, holdFirstPlay: @escaping @Sendable () -> Bool) {
        self.player = player
        self.logger = logger
        self.waitForMusic = waitForMusic
        self.holdFirstPlay = holdFirstPlay
        current = ConditionLocked(Current(settings: settings))
    }

    /// The settings the next start uses (a live reload restarts it through the group).
    var settings: Settings {
        get { current.current.settings }
        set { current.withLock { $0.settings = newValue } }
    }

    func start(died: @escaping @Sendable (any Error) -> Void) {
        let (run, settings) = current.withLock { access in
            access.run += 1
            access.running = true
            return (access.run, access.settings)
        }
        let music = settings.library.musicDirectory
        DispatchQueue.global(qos: .utility).async { [self] in
            let before = FolderSignature(of: music)
            if before == nil, waitForMusic {
                logger.warning("music_dir \(music) does not exist yet; waiting for it")
            } else if load(settings, run: run) || !waitForMusic {
                return
            } else {
                logger.notice("library: waiting for music to arrive in \(music)")
            }
            let watch = MusicFolderWatch(path: music)
            let stillWanted = current.withLock { access in
                guard access.running, access.run == run else { return false }
                access.watch = watch
                return true
            }
            guard stillWanted else { return }
            watch.start(scanned: before) { [self] in
                logger.info("music_dir \(music) changed; scanning it")
                return load(settings, run: run)
            }
        }
    }

    func stop() {
        let watch = current.withLock { access -> MusicFolderWatch? in
            access.running = false
            defer { access.watch = nil }
            return access.watch
        }
        watch?.stop()
    }

    private func isCurrent(_ run: Int) -> Bool {
        current.withLock { $0.running && $0.run == run }
    }

    /// One scan, and the queue it gives; true when there is something to play.
    private func load(_ settings: Settings, run: Int) -> Bool {
        let library = settings.library
        let hold = holdFirstPlay() || !library.playlist.isEmpty
        var started = false
        let scan = LibraryScanner.scan(musicDirectory: library.musicDirectory, playlistsDirectory: library.playlistsDirectory) { [self] first in
            // Play at once; the full, sorted list follows when the scan ends. (A chosen
            // playlist waits for the scan: its tracks may be anywhere; so does a saved place,
            // and a rescan after a reload, which must not touch what is playing.)
            guard !hold, run == 1, isCurrent(run) else { return }
            player.setTracks(first.map(\.path))
            if settings.autoplay { player.send(.play) }
            started = true
        }
        guard isCurrent(run) else { return true }
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
            onLoaded(.nothingToPlay)
            return false
        }
        onLoaded(.queue(queue, alreadyPlaying: started))
        return true
    }
}
