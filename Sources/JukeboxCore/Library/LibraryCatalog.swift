#if canImport(Glibc)
import Glibc
#endif

/// The library as clients browse it (MPD's database): the last scan's tracks with their
/// tags, and its playlists. The library service publishes each scan; control sessions
/// read the latest one, from any thread.
public final class LibraryCatalog: Sendable {
    /// One scan's worth, looked up by path.
    public struct Snapshot: Sendable {
        public var tracks: [LibraryTrack] = []
        public var playlists: [M3UPlaylist] = []
        /// Where each track is in `tracks`.
        public var positions: [String: Int] = [:]
        /// When it was published (seconds since 1970; 0: never), MPD's `db_update`.
        public var updated: Int = 0

        public func tags(of path: String) -> SongTags? { positions[path].map { tracks[$0].tags } }
    }

    private let shared = ConditionLocked(Snapshot())

    public init() {}

    public var snapshot: Snapshot { shared.current }

    public func publish(_ scan: LibraryScan) {
        var next = Snapshot(tracks: scan.tracks, playlists: scan.playlists)
        next.positions.reserveCapacity(scan.tracks.count)
        for (at, track) in scan.tracks.enumerated() { next.positions[track.path] = at }
        next.updated = time(nil)
        shared.withLock { $0.wholeValue = next }
    }
}
