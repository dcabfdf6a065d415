import CJukeboxShim
import Dispatch
import Logging

/// Gives the player its queue: at once from the library index when there is one, then
/// from a scan in the background that reads only what changed since (and saves the index
/// when anything did). A `music_dir` that does not exist yet (a USB stick not mounted) or
/// holds no music is watched, and scanned again once music arrives. Each start scans
/// afresh (a live reload that changes the folder or the playlist restarts it); a scan
/// still running from an earlier start is left to finish and its result dropped.
final class LibraryService: Service, @unchecked Sendable {
    struct Settings: Equatable, Sendable {
        var library: JukeboxConfig.Library
        var autoplay: Bool
        /// Where the library index is kept; nil keeps none.
        var index: String?
    }

    /// What a load found, for the daemon to act on.
    enum Loaded: Sendable {
        /// The queue (never empty), and whether it is already playing: the first tracks
        /// found play before the scan ends, unless `holdFirstPlay` said to wait.
        case queue([String], alreadyPlaying: Bool)
        case nothingToPlay
        /// `music_dir` is not there (yet): watched until it is.
        case waitingForMusic
    }

    let name = "library"
    let policy = FailurePolicy.optional
    private let player: Player
    /// Where clients browse the library: every scan is published there.
    private let catalog: LibraryCatalog
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

    init(settings: Settings, player: Player, catalog: LibraryCatalog, logger: Logger, waitForMusic: Bool,
         holdFirstPlay: @escaping @Sendable () -> Bool) {
        self.catalog = catalog
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
        // A queue of its own for each start: the global pool's few threads may all be busy
        // (in a test process they run the tests), and a scan from an earlier start may still
        // be running. The first load, the watch's scans and clients' updates all run on it,
        // one at a time.
        let scans = DispatchQueue(label: "jukebox.library.\(run)", qos: .utility)
        scans.async { [self] in
            let waiting = firstLoad(settings, run: run)
            // A scan of thousands of tracks frees megabytes at once, on a thread whose
            // malloc arena would keep them: give them back (4 MB for 10,000 tracks).
            malloc_trim(0)
            guard case .some(let before) = waiting else { return }
            let watch = MusicFolderWatch(path: music)
            let stillWanted = current.withLock { access in
                guard access.running, access.run == run else { return false }
                access.watch = watch
                return true
            }
            guard stillWanted else { return }
            watch.start(scanned: before) { [self] in
                scans.sync {
                    logger.info("music_dir \(music) changed; scanning it")
                    return scan(settings, run: run, previous: indexed(settings))
                }
            }
        }
        catalog.carryOutUpdates { [weak self] in
            guard let self else { return }
            scans.async { self.carryOutUpdates(settings, run: run) }
        }
    }

    /// Clients' update jobs (MPD's `update` and `rescan`), one after another: the whole
    /// library each time, by folder time, or every file read again for `rescan`.
    private func carryOutUpdates(_ settings: Settings, run: Int) {
        while isCurrent(run), let job = catalog.takeJob() {
            let clock = MonotonicClock.now()
            _ = scan(settings, run: run, previous: job.everything ? nil : indexed(settings))
            logger.info("library: update \(job.id)\(job.everything ? " (every file)" : "") done in \(InputActionLog.milliseconds(MonotonicClock.now() - clock)) ms")
            catalog.jobEnded(job)
            malloc_trim(0)
        }
    }

    func stop() {
        catalog.carryOutUpdates(nil)
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

    /// The first queue: from the index and a scan. Returns nil when done, or what the
    /// music folder looked like before, for a watch to wait for music from.
    private func firstLoad(_ settings: Settings, run: Int) -> FolderSignature?? {
        let music = settings.library.musicDirectory
        let exists = FileIdentity(folder: music) != nil
        let index = exists ? indexed(settings) : nil
        // Taken before the scan so music copied meanwhile is noticed; it lists every
        // file, so not when the index promises music.
        let before = exists && (index?.scan.tracks.isEmpty ?? true) ? FolderSignature(of: music) : nil
        if !exists, waitForMusic {
            logger.warning("music_dir \(music) does not exist yet; waiting for it")
            onLoaded(.waitingForMusic)
            return .some(nil)
        }
        if scan(settings, run: run, previous: index) || !waitForMusic { return nil }
        logger.notice("library: waiting for music to arrive in \(music)")
        return .some(before ?? FolderSignature(of: music))
    }

    /// The queue from the index (`previous`, what the last scan left), then from a scan;
    /// true when there is something to play.
    private func scan(_ settings: Settings, run: Int, previous: LibraryIndex?) -> Bool {
        let library = settings.library
        // A chosen playlist, a saved place, and a rescan after a reload wait for the whole
        // list before playing: the playlist's tracks or the place may be anywhere in it,
        // and a rescan must not touch what is playing.
        let playEarly = run == 1 && !holdFirstPlay() && library.playlist.isEmpty
        var started = false
        if let previous, !previous.scan.tracks.isEmpty {
            logger.info("library: \(previous.scan.tracks.count) tracks from the index; checking for changes in the background")
            started = deliver(previous.scan, settings, run: run, play: playEarly)
        }
        let clock = MonotonicClock.now()
        let (index, reuse) = LibraryScanner.update(previous, musicDirectory: library.musicDirectory, playlistsDirectory: library.playlistsDirectory) { [self] first in
            // Without an index, play what the first folders hold; the sorted list follows.
            guard previous == nil, playEarly, isCurrent(run) else { return }
            player.setTracks(first.map(\.path))
            if settings.autoplay { player.send(.play) }
            started = true
        }
        guard isCurrent(run) else { return true }
        let took = InputActionLog.milliseconds(MonotonicClock.now() - clock)
        logger.info("library: scanned in \(took) ms: \(reuse.foldersKept) folders unchanged, \(reuse.foldersListed) listed")
        let playable = previous.map { $0.scan == index.scan && !index.scan.tracks.isEmpty } ?? false
            || deliver(index.scan, settings, run: run, play: false, alreadyPlaying: started)
        // After the queue, so after the state saver's first write: the place, a small
        // file, is saved before this large one, which a nearly full disk may refuse.
        if let path = settings.index, index != previous {
            do { try index.save(path) } catch { logger.warning("library index: \(error); the next start scans everything") }
        }
        return playable
    }

    /// The index the last scan left, when it describes these folders.
    private func indexed(_ settings: Settings) -> LibraryIndex? {
        guard let path = settings.index else { return nil }
        do {
            guard let index = try LibraryIndex.load(path) else { return nil }
            return index.matches(musicDirectory: settings.library.musicDirectory, playlistsDirectory: settings.library.playlistsDirectory) ? index : nil
        } catch {
            logger.warning("library index: \(error); scanning everything")
            return nil
        }
    }

    /// Gives the player the queue `scan` makes; true when there is something to play.
    /// `play` starts it (autoplay allowing); `alreadyPlaying` says an earlier step did.
    private func deliver(_ scan: LibraryScan, _ settings: Settings, run: Int, play: Bool, alreadyPlaying: Bool = false) -> Bool {
        let library = settings.library
        catalog.publish(scan)
        for problem in scan.skipped { logger.warning("library: \(problem)") }
        var queue = scan.tracks.map(\.path)
        if case .url(let station) = TrackLocation(library.playlist) {
            // A station (or a station's playlist) to boot into.
            queue = [station]
            logger.info("playlist: \(station)")
        } else if !library.playlist.isEmpty {
            if let chosen = scan.playlists.first(where: { $0.name == library.playlist }) {
                do {
                    let stored = StoredPlaylists(folder: library.playlistsDirectory, musicDirectory: library.musicDirectory)
                    let entries = try M3UPlaylist.read(chosen.path, relativeTo: stored.folders(for: chosen.path)).entries
                    let playable = Set(queue.map(LibraryScanner.canonical))
                    // Its URLs play as they are; its files only if the library has them.
                    queue = entries.compactMap { entry in
                        switch entry {
                        case .url(let url): url
                        case .file(let path): playable.contains(LibraryScanner.canonical(path)) ? path : nil
                        }
                    }
                    let missing = entries.count - queue.count
                    logger.info("playlist \(chosen.name): \(queue.count) tracks\(missing > 0 ? ", \(missing) not found or not playable" : "")")
                } catch {
                    logger.warning("playlist \"\(library.playlist)\": \(error); playing the whole library")
                }
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
        let starting = play && settings.autoplay
        if starting { player.send(.play) }
        onLoaded(.queue(queue, alreadyPlaying: alreadyPlaying || starting))
        return true
    }
}
