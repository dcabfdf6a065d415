/// One queue entry: a file, the id it keeps while the queue changes around it, and its
/// priority (MPD's `prio`: in random play, higher ones are played first).
public struct QueueEntry: Sendable, Equatable {
    public var id: Int
    public var path: String
    public var priority = 0

    public init(id: Int, path: String, priority: Int = 0) {
        self.id = id
        self.path = path
        self.priority = priority
    }
}

/// A copy of the queue that a client's command changes (`Player.editQueue`): add, delete,
/// move, swap, shuffle, clear. The player then applies the result as one change, keeping
/// what plays and what was played. Positions outside the queue are refused with
/// `QueueDraft.Refusal`, and nothing changes.
public struct QueueDraft {
    public private(set) var entries: [QueueEntry]
    /// Where the current entry is (playing or not).
    public let current: Int?
    private(set) var lastId: Int
    /// The stored playlist loaded last (MPD 0.24's `lastloadedplaylist`), until the queue
    /// is cleared.
    public var loadedPlaylist: String?

    init(entries: [QueueEntry], current: Int?, lastId: Int, loadedPlaylist: String? = nil) {
        self.entries = entries
        self.current = current
        self.lastId = lastId
        self.loadedPlaylist = loadedPlaylist
    }

    public enum Refusal: Error, Equatable {
        case badPosition
        case noSuchId
        case tooLong(limit: Int)
    }

    /// The longest queue (MPD's default max_playlist_length is 16,384).
    public static let maximumLength = 16_384

    public var count: Int { entries.count }

    public func position(ofId id: Int) throws(Refusal) -> Int {
        guard let at = entries.firstIndex(where: { $0.id == id }) else { throw .noSuchId }
        return at
    }

    /// Adds `paths` at `position` (the end when nil); returns their new ids.
    @discardableResult
    public mutating func insert(_ paths: [String], at position: Int? = nil) throws(Refusal) -> [Int] {
        let at = position ?? entries.count
        guard at >= 0, at <= entries.count else { throw .badPosition }
        guard entries.count + paths.count <= Self.maximumLength else { throw .tooLong(limit: Self.maximumLength) }
        let added = paths.map { path -> QueueEntry in
            lastId += 1
            return QueueEntry(id: lastId, path: path)
        }
        entries.insert(contentsOf: added, at: at)
        return added.map(\.id)
    }

    public mutating func remove(_ range: Range<Int>) throws(Refusal) {
        guard range.lowerBound >= 0, range.upperBound <= entries.count, !range.isEmpty else { throw .badPosition }
        entries.removeSubrange(range)
    }

    public mutating func removeAll() {
        entries.removeAll()
        loadedPlaylist = nil
    }

    /// Moves the entries in `range` so that the first of them ends up at `position`
    /// (counted in the queue without them, as MPD does).
    public mutating func move(_ range: Range<Int>, to position: Int) throws(Refusal) {
        guard range.lowerBound >= 0, range.upperBound <= entries.count, !range.isEmpty else { throw .badPosition }
        guard position >= 0, position + range.count <= entries.count else { throw .badPosition }
        let moving = Array(entries[range])
        entries.removeSubrange(range)
        entries.insert(contentsOf: moving, at: position)
    }

    public mutating func swap(_ a: Int, _ b: Int) throws(Refusal) {
        guard entries.indices.contains(a), entries.indices.contains(b) else { throw .badPosition }
        entries.swapAt(a, b)
    }

    /// MPD's highest priority.
    public static let maximumPriority = 255

    /// Gives the entries in `range` the priority `value` (0 to `maximumPriority`).
    public mutating func setPriority(_ value: Int, _ range: Range<Int>) throws(Refusal) {
        guard range.lowerBound >= 0, range.upperBound <= entries.count else { throw .badPosition }
        for at in range { entries[at].priority = min(max(value, 0), Self.maximumPriority) }
    }

    /// Shuffles the entries in `range`; the current entry, when inside it, goes first.
    public mutating func shuffle(_ range: Range<Int>, using generator: inout some RandomNumberGenerator) throws(Refusal) {
        guard range.lowerBound >= 0, range.upperBound <= entries.count else { throw .badPosition }
        var part = Array(entries[range])
        part.shuffle(using: &generator)
        if let current, range.contains(current), let at = part.firstIndex(of: entries[current]) { part.swapAt(0, at) }
        entries.replaceSubrange(range, with: part)
    }
}
