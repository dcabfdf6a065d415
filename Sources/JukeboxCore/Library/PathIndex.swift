/// Finds a track by its path in a list of tracks, for a library of 100,000 of them: open
/// addressing over 4-byte positions, two to four slots a track (about 1 MB), where a
/// dictionary from path to position would keep a copy of each path's reference and a
/// hash in some 60 bytes a track. The list itself holds the paths.
struct PathIndex: Sendable {
    /// Position + 1 in the list; 0 for an empty slot.
    private var slots: [Int32]

    init(_ tracks: [LibraryTrack]) {
        var capacity = 16
        while capacity < tracks.count * 2 { capacity <<= 1 }
        slots = Array(repeating: 0, count: capacity)
        for (at, track) in tracks.enumerated() {
            var slot = Self.start(track.path, capacity)
            while slots[slot] != 0 {
                // A path twice in the list (never in a scan): the first stands.
                if tracks[Int(slots[slot]) - 1].path == track.path { break }
                slot = (slot + 1) & (capacity - 1)
            }
            if slots[slot] == 0 { slots[slot] = Int32(at + 1) }
        }
    }

    /// Where `path` is in `tracks`, the list this index was made from.
    func position(of path: String, in tracks: [LibraryTrack]) -> Int? {
        var slot = Self.start(path, slots.count)
        while slots[slot] != 0 {
            let at = Int(slots[slot]) - 1
            if at < tracks.count, tracks[at].path == path { return at }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Bytes kept beyond its own size.
    var heapBytes: Int { slots.capacity * MemoryLayout<Int32>.stride }

    /// Bytes a string keeps on the heap: none up to 15 UTF-8 bytes (kept in the value),
    /// else a header of 32 and the bytes with their terminator, as malloc rounds them.
    static func stringBytes(_ text: String) -> Int {
        let count = text.utf8.count
        return count <= 15 ? 0 : (32 + count + 1 + 15) & ~15
    }

    private static func start(_ path: String, _ capacity: Int) -> Int {
        path.hashValue & (capacity - 1)
    }
}
