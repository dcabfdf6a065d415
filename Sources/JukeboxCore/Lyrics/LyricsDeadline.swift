/// A time box for lyrics work. Lyrics are looked up on one serial queue in the daemon, so
/// a hostile file must give up rather than hold back the lyrics of every later track.
public struct LyricsDeadline: Sendable {
    /// Generous for any real lyrics file (a 4 MiB file parses in well under a second).
    public static let daemonBudgetMs = 2_000

    let startNs: UInt64
    let endNs: UInt64

    public init(budgetMs: Int, now: UInt64 = MonotonicClock.now()) {
        startNs = now
        endNs = now &+ UInt64(max(0, budgetMs)) * 1_000_000
    }

    /// Throws once the time is up; called by the parser every so many bytes.
    public func check() throws(LyricsGaveUp) {
        let now = MonotonicClock.now()
        if now >= endNs { throw LyricsGaveUp(elapsedMs: Int((now - startNs) / 1_000_000)) }
    }
}

/// The lyrics work ran past its deadline and was abandoned.
public struct LyricsGaveUp: Error, Equatable {
    public let elapsedMs: Int
    public var reason: String { "gave up after \(elapsedMs) ms" }
}
