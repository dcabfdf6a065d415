/// MPD's commands that search the library: find and search (with `sort` and `window`),
/// findadd and searchadd, count and list (with `group`), over the catalog's tags
/// (`QueueSearchCommands` searches the queue).
extension ControlSession {
    static let searchCommands: [MPDCommand] = [
        .init("find", .read, 1...) { s, request in try s.find(request, foldCase: false) },
        .init("search", .read, 1...) { s, request in try s.find(request, foldCase: true) },
        .init("findadd", .change, 1...) { s, request in try s.find(request, foldCase: false) },
        .init("searchadd", .change, 1...) { s, request in try s.find(request, foldCase: true) },
        // `searchaddpl NAME FILTER...`: what `searchadd` would queue, into a stored playlist
        // (made when something is found, as MPD makes it).
        .init("searchaddpl", .change, 2...) { s, request in
            try s.find(.init(name: request.name, arguments: Array(request.arguments.dropFirst())), foldCase: true,
                       playlist: request.arguments[0])
        },
        .init("count", .read, 1...) { s, request in try s.countSongs(request.arguments, foldCase: false) },
        // MPD 0.24: `count` as `search` matches, case folded.
        .init("searchcount", .read, 1...) { s, request in try s.countSongs(request.arguments, foldCase: true) },
        .init("list", .read, 1...) { s, request in try s.listValues(request.arguments) },
    ]

    /// `find` and `search` (`foldCase`), with `sort` and `window`; `findadd` and
    /// `searchadd`, with `position`, queue what they find, and `searchaddpl` puts it in
    /// the stored `playlist`.
    private func find(_ request: MPDProtocol.Request, foldCase fold: Bool, playlist: String? = nil) throws -> Reply {
        let (name, args) = (request.name, request.arguments)
        let adds = playlist != nil || name.hasSuffix("add")
        let known = catalog.snapshot
        let (filter, used) = try Self.filter(args[...], foldCase: fold)
        var options = args.dropFirst(used)
        var window: Range<Int>?
        var order: SongOrder?
        var descending = false
        var position: String?
        while let word = options.first {
            guard options.count >= 2 else { throw MPDProtocol.Ack(code: .argument, message: "Missing argument for \(word.prefix(32))") }
            let value = options[options.startIndex + 1]
            switch word.lowercased() {
            case "window": window = try Self.range(value, within: .max)
            case "sort":
                descending = value.hasPrefix("-")
                guard let chosen = SongOrder(named: descending ? String(value.dropFirst()) : value) else {
                    throw MPDProtocol.Ack(code: .argument, message: "Unknown sort tag: \(value.prefix(64))")
                }
                order = chosen
            case "position" where adds: position = value
            default: throw MPDProtocol.Ack(code: .argument, message: "Unknown argument: \(word.prefix(32))")
            }
            options = options.dropFirst(2)
        }
        let test = filter.test(foldCase: fold)
        // Positions in the snapshot, not copies of the tracks: 100,000 may match.
        let tracks = known.tracks
        var found = tracks.indices.filter { at in test(tracks[at].tags, { library.uri(tracks[at].path) }, 0) }
        switch order {
        case .tag(let sortTag)?:
            found.sort {
                let (a, b) = (sortTag.firstMatchedValue(in: tracks[$0].tags) ?? "", sortTag.firstMatchedValue(in: tracks[$1].tags) ?? "")
                return descending ? NaturalOrder.less(b, a) : NaturalOrder.less(a, b)
            }
        case .time(let time)?:
            func seconds(_ at: Int) -> Int { (time == .modified ? tracks[at].tags.modified : tracks[at].tags.added) ?? .min }
            found.sort { descending ? seconds($0) > seconds($1) : seconds($0) < seconds($1) }
        case nil:
            break
        }
        if let window { found = Array(found[min(window.lowerBound, found.count)..<min(window.upperBound, found.count)]) }
        if let playlist {
            let (paths, playlists) = (found.map { tracks[$0].path }, playlists)
            guard !paths.isEmpty else { return "" }
            let at = try position.map { try Self.integer($0, name) }
            return changePlaylist {
                try playlists.edit(playlist, creating: true) { entries throws(StoredPlaylists.Failure) in
                    let at = at ?? entries.count
                    guard at >= 0, at <= entries.count else { throw .badPosition }
                    entries.insert(contentsOf: paths, at: at)
                }
            }
        }
        if adds {
            let paths = found.map { tracks[$0].path }
            try editQueue { draft in
                try draft.insert(paths, at: try position.map { try Self.insertion($0, in: draft) })
            }
            return ""
        }
        // Sorted, MPD lists the songs without their Format (its sorted copies lose it).
        let withFormat = order == nil
        return .stream(ReplyStream.items(found.count) { [unowned self] k, out in
            var tags = tracks[found[k]].tags
            if !withFormat { tags.format = nil }
            appendSong(to: &out, path: tracks[found[k]].path, spot: nil, tags: tags)
        })
    }

    /// `count [FILTER] [group TAG]`: songs and seconds, in all or by the group's values;
    /// `searchcount` (`foldCase`) as `search` matches.
    private func countSongs(_ args: [String], foldCase fold: Bool) throws -> Reply {
        let known = catalog.snapshot
        // As MPD reads it: `group TAG` is the last two words, the filter all before them.
        var rest = args[...]
        var groups: [MPDTag] = []
        if rest.count >= 2, rest[rest.endIndex - 2] == "group", let name = rest.last {
            guard let tag = MPDTag(named: name) else { throw MPDProtocol.Ack(code: .argument, message: "Unknown tag type: \(name.prefix(64))") }
            groups = [tag]
            rest = rest.dropLast(2)
        }
        var filter: SongFilter?
        if let first = rest.first {
            guard first.hasPrefix("(") || rest.count % 2 == 0 else {
                throw MPDProtocol.Ack(code: .argument, message: "Incorrect number of filter arguments")
            }
            let (parsed, used) = try Self.filter(rest, foldCase: fold)
            guard used == rest.count else { throw MPDProtocol.Ack(code: .argument, message: "Unknown filter type") }
            filter = parsed
        }
        let test = filter?.test(foldCase: fold)
        let found = test.map { test in known.tracks.filter { track in test(track.tags, { library.uri(track.path) }, 0) } } ?? known.tracks
        func totals(_ tracks: some Sequence<LibraryTrack>) -> String {
            var songs = 0, seconds = 0.0
            for track in tracks { songs += 1; seconds += track.tags.seconds }
            return "songs: \(songs)\nplaytime: \(Int(seconds.rounded()))\n"
        }
        guard let group = groups.first else { return .text(totals(found)) }
        // A song with two artists counts under each.
        var byValue: [String: [LibraryTrack]] = [:]
        for track in found {
            if !group.forEachMatchedValue(in: track.tags, { byValue[$0, default: []].append(track) }) { byValue["", default: []].append(track) }
        }
        // By bytes, as MPD's map of values orders them.
        return .text(byValue.keys.sorted(by: <).map { value in
            "\(group.rawValue): \(MPDProtocol.value(value))\n" + totals(byValue[value]!)
        }.joined())
    }

    /// `list TAG [FILTER] [group TAG]...`: the values of the tag, or files.
    private func listValues(_ args: [String]) throws -> Reply {
        let known = catalog.snapshot
        let first = args[0]
        let wanted: MPDTag?
        if first.lowercased() == "file" { wanted = nil } else {
            guard let tag = MPDTag(named: first) else {
                throw MPDProtocol.Ack(code: .argument, message: "Unknown tag type: \(first.prefix(64))")
            }
            wanted = tag
        }
        var rest = args.dropFirst()
        var filter: SongFilter?
        if rest.count == 1, wanted == .album, let artist = rest.first, !artist.hasPrefix("(") {
            // The old form `list album ARTIST`.
            filter = .compare(.tag(.artist), .equal, artist)
            rest = rest.dropFirst()
        } else if let next = rest.first, next.lowercased() != "group" {
            let (parsed, used) = try Self.filter(rest, foldCase: false)
            filter = parsed
            rest = rest.dropFirst(used)
        }
        let groups = try Self.groups(rest)
        let test = filter?.test(foldCase: false)
        let found = test.map { test in known.tracks.filter { track in test(track.tags, { library.uri(track.path) }, 0) } } ?? known.tracks
        guard let wanted else { return .text(found.map { "file: \(MPDProtocol.value(library.uri($0.path)))\n" }.joined()) }
        // Each distinct combination of the group values and the value, sorted, each
        // group line written when it changes (as MPD does). A song without the tag gives
        // the empty value, so tag browsers can reach untagged songs. Without groups, the
        // values alone: no array for each of 10,000 tracks.
        // A song with two artists gives both.
        func values(_ tag: MPDTag, _ tags: SongTags) -> [String] {
            let found = tag.matchedValues(in: tags)
            return found.isEmpty ? [""] : found
        }
        var rows = Set<[String]>()
        if groups.isEmpty {
            var all = Set<String>()
            // An album's songs mostly share the value: one equal to the last is not
            // hashed again (hashing was half the time of `list artist`).
            // (A closure, not a local function: one passed as a value boxes what it
            // changes, and each change was then checked at run time.)
            var last: String?
            for track in found {
                let tagged = wanted.forEachMatchedValue(in: track.tags) { value in
                    guard value != last else { return }
                    all.insert(value)
                    last = value
                }
                if !tagged, last != "" {
                    all.insert("")
                    last = ""
                }
            }
            rows = Set(all.map { [$0] })
        } else {
            for track in found {
                var combinations: [[String]] = [[]]
                for tag in groups + [wanted] {
                    let each = values(tag, track.tags)
                    combinations = combinations.flatMap { row in each.map { row + [$0] } }
                }
                rows.formUnion(combinations)
            }
        }
        let sorted = rows.sorted { a, b in
            for (x, y) in zip(a, b) where x != y { return x < y }  // by bytes, as MPD's set of values
            return false
        }
        var out = ""
        var previous: [String] = []
        for row in sorted {
            for (level, group) in groups.enumerated() where previous.count <= level || previous[..<(level + 1)] != row[..<(level + 1)] {
                out += "\(group.rawValue): \(MPDProtocol.value(row[level]))\n"
            }
            out += "\(wanted.rawValue): \(MPDProtocol.value(row[row.count - 1]))\n"
            previous = row
        }
        return .text(out)
    }

    static func filter(_ args: ArraySlice<String>, foldCase: Bool) throws -> (SongFilter, used: Int) {
        do {
            return try SongFilter.parse(args, oldStyleContains: foldCase)
        } catch {
            throw MPDProtocol.Ack(code: .argument, message: error.message)
        }
    }

    /// `group TAG` pairs.
    private static func groups(_ args: ArraySlice<String>) throws -> [MPDTag] {
        var tags: [MPDTag] = []
        var rest = args
        while let word = rest.first {
            guard word.lowercased() == "group", rest.count >= 2 else {
                throw MPDProtocol.Ack(code: .argument, message: "Unknown argument: \(word.prefix(32))")
            }
            let name = rest[rest.startIndex + 1]
            guard let tag = MPDTag(named: name) else { throw MPDProtocol.Ack(code: .argument, message: "Unknown tag type: \(name.prefix(64))") }
            tags.append(tag)
            rest = rest.dropFirst(2)
        }
        return tags
    }
}

/// What `find` and `search` sort by: a tag, or (as MPD 0.24) `Last-Modified` or `Added`.
enum SongOrder {
    case tag(MPDTag)
    case time(SongFilter.Time)

    init?(named name: String) {
        switch name.lowercased() {
        case "last-modified": self = .time(.modified)
        case "added": self = .time(.added)
        default:
            guard let tag = MPDTag(named: name) else { return nil }
            self = .tag(tag)
        }
    }
}
