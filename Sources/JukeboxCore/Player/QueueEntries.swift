/// The queue as clients see it: each track with the id it keeps while the list changes
/// around it (MPD's `songid`), the version every change moves on, and the version at
/// which each entry last got its id or place (MPD's `plchanges`); and `order`, which
/// entry is current and which comes next. It only keeps the list; what a change means
/// for the music is the player's.
struct QueueEntries {
    /// The current entry, the play options and the history (it follows the entries
    /// through edits: the player remaps it with each change of the list).
    var order: PlayQueue<SystemRandom>
    private(set) var tracks: [String] = []
    private(set) var ids: [Int] = []
    /// Each entry's priority (MPD's `prio`); empty while every one is 0, as it is unless
    /// a client sets one.
    private(set) var priorities: [Int] = []
    private(set) var lastId = 0
    /// The stored playlist a client loaded last, until the queue is cleared or replaced.
    private(set) var loadedPlaylist: String?
    private(set) var version = 1
    /// The version at which the list of tracks last changed: a new title of the playing
    /// stream moves `version` too (clients list it), but is nothing to save.
    private(set) var tracksVersion = 1
    /// Moves on each time the playing track's tags change while it plays (a station's
    /// name, a new title): idle clients hear `player` and `playlist`, as MPD's do.
    private(set) var tagChanges = 0
    private(set) var entryVersions: [Int] = []
    /// The library's tracks as last given, and whether the list is still that one: once a
    /// client edits the queue it is the client's, and a rescan no longer replaces it.
    private(set) var library: [String] = []
    private(set) var edited = false
    /// Names the track list, so a saved queue order is used only for the same tracks.
    private(set) var fingerprint = QueueFingerprint(paths: [])
    /// The list holds only a track started ahead of the real list (a resume before the
    /// library is loaded): what follows it is not known yet, so nothing is opened ahead.
    private(set) var provisional = false

    init(order: PlayQueue<SystemRandom>) { self.order = order }

    var count: Int { tracks.count }
    var isEmpty: Bool { tracks.isEmpty }

    var listing: QueueListing {
        QueueListing(version: version, tracksVersion: tracksVersion, ids: ids, paths: tracks, changedAt: entryVersions, priorities: priorities)
    }

    func priority(at position: Int) -> Int { priorities.isEmpty || position >= priorities.count ? 0 : priorities[position] }

    /// The queue to save: a client's, not the library's (that is read again at start).
    var clientQueue: ClientQueue? { edited && !tracks.isEmpty ? ClientQueue(version: tracksVersion, tracks: tracks, priorities: priorities) : nil }

    /// The library's tracks as given now; the queue follows them unless a client made it.
    /// Returns whether the list changed (nil: the client's queue stays).
    mutating func offerLibrary(_ paths: [String], provisional: Bool) -> Bool? {
        if !provisional { library = paths }
        guard !edited else { return nil }
        let changed = paths != tracks
        if changed {
            let kept = idsKept(for: paths)
            version += 1
            tracksVersion = version
            entryVersions = kept.indices.map { i in
                i < ids.count && ids[i] == kept[i] ? entryVersions[i] : version
            }
            ids = kept
            priorities = []
        }
        tracks = paths
        fingerprint = QueueFingerprint(paths: paths)
        self.provisional = provisional
        return changed
    }

    /// A copy for a client's command to change.
    func draft(current: Int?) -> QueueDraft {
        QueueDraft(entries: ids.indices.map { QueueEntry(id: ids[$0], path: tracks[$0], priority: priority(at: $0)) }, current: current, lastId: lastId,
                   loadedPlaylist: loadedPlaylist)
    }

    /// Takes a client's changed copy: where each old entry went (nil: removed), or nil
    /// when the copy changed nothing.
    mutating func apply(_ draft: QueueDraft) -> [Int?]? {
        lastId = draft.lastId
        loadedPlaylist = draft.loadedPlaylist
        let newIds = draft.entries.map(\.id)
        let paths = draft.entries.map(\.path)
        let newPriorities = draft.entries.contains { $0.priority != 0 } ? draft.entries.map(\.priority) : []
        guard newIds != ids || paths != tracks || newPriorities != priorities else { return nil }
        edited = true
        var placed: [Int: Int] = [:]
        for (at, id) in newIds.enumerated() { placed[id] = at }
        return replace(ids: newIds, paths: paths, priorities: newPriorities, moved: ids.map { placed[$0] })
    }

    /// A list of new entries in place of all the old ones: a client's saved queue
    /// (`edited`), or the library's tracks again. Returns where the old entries went.
    mutating func replaceAll(_ paths: [String], edited: Bool) -> [Int?] {
        self.edited = edited
        loadedPlaylist = nil
        let fresh = Array(lastId + 1 ..< lastId + 1 + paths.count)
        lastId += paths.count
        return replace(ids: fresh, paths: paths, priorities: [], moved: ids.map { _ in nil })
    }

    /// With consume on, the entry at `position` leaves the queue. Returns where the old
    /// entries went.
    mutating func consume(_ position: Int) -> [Int?]? {
        guard position < ids.count else { return nil }
        var moved: [Int?] = Array(0..<ids.count)
        moved[position] = nil
        for at in (position + 1)..<max(position + 1, ids.count) { moved[at] = at - 1 }
        var newIds = ids, newPaths = tracks, newPriorities = priorities
        newIds.remove(at: position)
        newPaths.remove(at: position)
        if position < newPriorities.count { newPriorities.remove(at: position) }
        edited = true
        return replace(ids: newIds, paths: newPaths, priorities: newPriorities.contains { $0 != 0 } ? newPriorities : [], moved: moved)
    }

    /// The playing entry's tags changed: its version moves with the queue's, so that
    /// `plchanges` lists it again and idle clients hear `playlist` and `player`.
    mutating func tagsChanged(at position: Int?) {
        tagChanges += 1
        version += 1
        if let position, position < entryVersions.count { entryVersions[position] = version }
    }

    /// The play order follows a changed list (`moved[old]`: each old entry's new place),
    /// with the entries' priorities.
    mutating func remapOrder(_ moved: [Int?]) {
        order.remap(count: count, moved: moved, priorities: priorities)
    }

    /// Puts a new list in place; `moved[old]` is each old entry's new position. An entry
    /// keeps its version only where it stayed put with the same priority.
    private mutating func replace(ids newIds: [Int], paths: [String], priorities newPriorities: [Int], moved: [Int?]) -> [Int?] {
        version += 1
        if newIds != ids || paths != tracks { tracksVersion = version }
        var oldPlace: [Int: Int] = [:]
        for (at, id) in ids.enumerated() { oldPlace[id] = at }
        let oldPriorities = priorities
        func oldPriority(_ at: Int) -> Int { at < oldPriorities.count ? oldPriorities[at] : 0 }
        entryVersions = newIds.indices.map { at in
            let priority = at < newPriorities.count ? newPriorities[at] : 0
            if let old = oldPlace[newIds[at]], old == at, moved[old] == at, oldPriority(old) == priority { return entryVersions[old] }
            return version
        }
        ids = newIds
        priorities = newPriorities
        tracks = paths
        fingerprint = QueueFingerprint(paths: paths)
        return moved
    }

    /// Ids for a new track list: an entry whose file was already queued keeps that
    /// entry's id (the first unclaimed one, for a file queued twice); others get new ones.
    private mutating func idsKept(for paths: [String]) -> [Int] {
        var old: [String: [Int]] = [:]
        for (path, id) in zip(tracks, ids) { old[path, default: []].append(id) }
        return paths.map { path in
            if var known = old[path], !known.isEmpty {
                let id = known.removeFirst()
                old[path] = known
                return id
            }
            lastId += 1
            return lastId
        }
    }
}
