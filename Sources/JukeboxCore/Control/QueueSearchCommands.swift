/// MPD's searches of the queue: `playlistfind` (exact) and `playlistsearch` (case folded),
/// with MPD 0.24's `sort` and `window` and its `(prio >= N)` filter.
extension ControlSession {
    static let queueSearchCommands: [MPDCommand] = [
        .init("playlistfind", .read, 1...) { s, request in try s.findInQueue(request.arguments, foldCase: false) },
        .init("playlistsearch", .read, 1...) { s, request in try s.findInQueue(request.arguments, foldCase: true) },
    ]

    /// What the queue's matches are sorted by: a tag, the file's time or the priority.
    private enum QueueSort {
        case tag(MPDTag), modified, priority

        /// MPD's names, in any case.
        init(named name: String) throws {
            switch name.lowercased() {
            case "last-modified": self = .modified
            case "prio": self = .priority
            default:
                guard let tag = MPDTag(named: name) else { throw MPDProtocol.Ack(code: .argument, message: "Unknown sort tag") }
                self = .tag(tag)
            }
        }
    }

    /// `playlistfind FILTER [sort TYPE] [window START:END]` (`foldCase`: `playlistsearch`).
    /// As MPD reads them, `window` comes last and `sort` before it. Unsorted, the window
    /// counts the matches but may start no further than the queue's end; sorted, no
    /// further than the matches' end.
    private func findInQueue(_ args: [String], foldCase fold: Bool) throws -> Reply {
        var rest = args[...]
        func option(_ name: String) -> String? {
            guard rest.count >= 2, rest[rest.endIndex - 2] == name, let value = rest.last else { return nil }
            rest = rest.dropLast(2)
            return value
        }
        let window = try option("window").map { try Self.range($0, within: .max) }
        let sortText = option("sort")
        let descending = sortText?.hasPrefix("-") == true
        let sort = try sortText.map { try QueueSort(named: descending ? String($0.dropFirst()) : $0) }
        let (filter, used) = try Self.filter(rest, foldCase: fold)
        guard used == rest.count else { throw MPDProtocol.Ack(code: .argument, message: "Unknown argument: \(rest[rest.startIndex + used].prefix(32))") }
        let known = catalog.snapshot
        let status = player.status
        let listing = player.listing
        let test = filter.test(foldCase: fold)
        func tags(_ at: Int) -> SongTags { self.tags(of: listing.paths[at], position: at, status: status, catalog: known) ?? SongTags() }
        var found = listing.paths.indices.filter { at in test(tags(at), { self.library.uri(listing.paths[at]) }, listing.spot(at).priority) }
        if let sort {
            let keyed = found.map { at -> (position: Int, key: SortKey) in
                switch sort {
                case .tag(let tag): (at, .text(tag.firstMatchedValue(in: tags(at)) ?? ""))
                case .modified: (at, .number(tags(at).modified ?? 0))
                case .priority: (at, .number(listing.spot(at).priority))
                }
            }
            // Stable, as MPD's: equal keys keep the queue's order.
            found = keyed.enumerated().sorted { a, b in
                let (x, y) = descending ? (b.element.key, a.element.key) : (a.element.key, b.element.key)
                return x.less(than: y) || (!y.less(than: x) && a.offset < b.offset)
            }.map(\.element.position)
        }
        if let window {
            guard window.lowerBound <= (sort == nil ? listing.paths.count : found.count) else {
                throw MPDProtocol.Ack(code: .argument, message: "Bad song index")
            }
            found = Array(found[min(window.lowerBound, found.count)..<min(window.upperBound, found.count)])
        }
        return .stream(songs(found, of: listing, status: status))
    }

    private enum SortKey {
        case text(String), number(Int)

        func less(than other: SortKey) -> Bool {
            switch (self, other) {
            case (.text(let a), .text(let b)): NaturalOrder.less(a, b)
            case (.number(let a), .number(let b)): a < b
            default: false
            }
        }
    }
}
