import Dispatch
import Logging

/// Logs what a listener would notice: each track as it starts, each lyric line as it is
/// reached, tracks skipped and errors. Lyrics are looked up on a queue of its own, not in
/// the player's observer (which the player's other observers wait for), since that means
/// reading files.
final class NowPlayingLog: @unchecked Sendable {
    private let logger: Logger
    private let lookup = DispatchQueue(label: "jukebox.lyrics", qos: .utility)
    private let lock = ConditionLock()
    /// The track last announced: a change of the current entry's place, or its tags, is
    /// not a new track.
    private var lastPath: String?
    /// A change of state not logged yet: one of a track cued paused waits until it is open,
    /// so the time is its own.
    private var stateUntold = false
    private var lyrics: (path: String, lyrics: Lyrics)?
    private var lastLine: Int?
    /// The track last said to be buffering, and when: a trickling link toggles it with
    /// every piece, and the log says it once a minute at most.
    private var buffering: (path: String, why: String, at: UInt64)?

    /// How long one track's lyrics may take before the lookup gives up.
    private let lyricsBudgetMs: Int

    init(logger: Logger, lyricsBudgetMs: Int = LyricsDeadline.daemonBudgetMs) {
        self.logger = logger
        self.lyricsBudgetMs = lyricsBudgetMs
    }

    func handle(_ event: PlayerEvent) {
        switch event {
        case .trackSkipped(let path, let reason):
            logger.warning("skipping \(path): \(reason)")
        case .completed(_, let queueEnded):
            if queueEnded { logger.info("end of the queue") }
        case .changed(let changes, let status):
            statusChanged(changes, status)
        }
    }

    /// What the player says changed, with its status; the lyrics and buffering lines
    /// follow the time, which moves without a change.
    private func statusChanged(_ changes: PlayerChanges, _ s: PlayerStatus) {
        lock.withLock {
            if changes.contains(.state) { stateUntold = true }
            if stateUntold, s.path == nil || s.info != nil {
                stateUntold = false
                if s.state == .paused || s.state == .stopped { logger.info("\(s.state.rawValue) at \(PlayerStatus.clock(s.elapsed))") }
            }
            if changes.contains(.error), let error = s.lastError, s.state == .error {
                logger.error("\(error)")
            }
            if s.buffering, let path = s.path {
                // Before the first sound it is the pre-buffer that waits: the link may have
                // stalled rather than be slow, so that line does not claim a rate.
                let why = s.elapsed > 0 ? "the network brings the track slower than it plays"
                                        : "its first seconds are slow to arrive"
                if buffering.map({ $0.path != path || $0.why != why || MonotonicClock.now() - $0.at > 60_000_000_000 }) ?? true {
                    buffering = (path, why, MonotonicClock.now())
                    logger.warning("\(path): buffering: \(why)")
                }
            }
            if !changes.isDisjoint(with: [.track, .tags]), let path = s.path, path != lastPath, s.metadata != nil {
                lastPath = path
                lastLine = nil
                let format = s.info.map { " (\($0.sampleRate) Hz, \($0.channels) ch, \($0.sampleFormat.bitsPerSample)-bit)" } ?? ""
                let title = s.metadata?.title ?? String(path.split(separator: "/").last ?? "")
                let artist = s.metadata?.artist.map { " — \($0)" } ?? ""
                logger.info("playing \((s.queuePosition ?? 0) + 1)/\(s.queueLength): \(title)\(artist)\(format)", metadata: ["file": "\(path)"])
                let metadata = s.metadata ?? TrackMetadata()
                lookup.async { [weak self] in
                    // A track already left behind needs no lyrics: skipping it keeps one
                    // slow lookup from delaying those of the tracks queued after it.
                    guard let self, self.lock.withLock({ self.lastPath == path }) else { return }
                    var problems: [String] = []
                    let found = LyricsLocator.lyrics(forAudioAt: path, metadata: metadata, problems: &problems,
                                                     deadline: LyricsDeadline(budgetMs: self.lyricsBudgetMs))
                    for problem in problems { self.logger.warning("lyrics: \(problem)") }
                    self.lock.withLock { self.lyrics = found.map { (path, $0) } }
                }
            }
            guard let (path, lyrics) = lyrics, path == s.path, s.state == .playing,
                  let index = lyrics.currentLineIndex(atMs: Int(s.elapsed * 1000)), index != lastLine else { return }
            lastLine = index
            let text = lyrics.lines[index].text
            if !text.isEmpty { logger.info("♪ \(text)") }
        }
    }
}
