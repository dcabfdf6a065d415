#if canImport(Glibc)
import Glibc
#endif

/// MPD's stored playlist commands over `StoredPlaylists`: the M3U files of the playlists
/// folder, by name. A playlist inside the music folder is read (listed, loaded) by its
/// file name relative to the music folder, as MPD lists it in `lsinfo`, and is not
/// changed by clients. Only the library's tracks are added or loaded from a playlist:
/// an entry naming another file is passed over.
extension ControlSession {
    static let playlistCommands: [MPDCommand] = [
        .init("listplaylists", .read, 0...0) { s, _ in .text(s.playlists.list().map(ControlSession.listed).joined()) },
        .init("listplaylist", .read, 1...2) { s, request in try s.listPlaylist(request, songs: false) },
        .init("listplaylistinfo", .read, 1...2) { s, request in try s.listPlaylist(request, songs: true) },
        // MPD 0.24: how many songs a playlist names, and their seconds (those of the library).
        .init("playlistlength", .read, 1...1) { s, request in
            let file = try s.storedFile(request.arguments[0])
            let (playlists, known) = (s.playlists, s.catalog.snapshot)
            return s.afterReading({
                try ControlSession.acked { () throws(StoredPlaylists.Failure) in
                    var tracks = try playlists.tracks(of: file())
                    var (songs, seconds) = (0, 0.0)
                    while let path = try tracks.next() {
                        songs += 1
                        seconds += known.tags(of: path)?.seconds ?? 0
                    }
                    return "songs: \(songs)\nplaytime: \(Int(seconds.rounded()))\n"
                }
            }, then: { .text($0) })
        },
        .init("searchplaylist", .read, 2...4) { s, request in try s.searchPlaylist(request.arguments) },
        .init("load", .change, 1...3) { s, request in
            let args = request.arguments
            let file = try s.storedFile(args[0])
            let playlists = s.playlists
            return s.afterReading({ try ControlSession.acked { () throws(StoredPlaylists.Failure) in try playlists.entries(of: file()) } }) { [unowned s] all in
                // A range past the end loads what there is, as MPD's.
                let range = try args.count >= 2 ? ControlSession.parsedRange(args[1]) : (start: 0, end: nil)
                let tracks = all[min(range.start, all.count)..<min(range.end ?? all.count, all.count)]
                let known = s.catalog.snapshot
                let playable = tracks.filter { known.positions[$0] != nil }
                try s.editQueue { draft in
                    try draft.insert(playable, at: args.count == 3 ? try ControlSession.insertion(args[2], in: draft) : nil)
                    draft.loadedPlaylist = args[0]
                }
                return ""
            }
        },
        .init("save", .change, 1...2) { s, request in
            // MPD 0.24's modes too: create (the default), append, replace.
            let (args, playlists, queue) = (request.arguments, s.playlists, s.player.listing.paths)
            switch args.count == 2 ? args[1] : "create" {
            case "create": return s.changePlaylist { try playlists.write(args[0], queue, mustBeNew: true) }
            // Only to a playlist that is there, as MPD 0.24.
            case "replace": return s.changePlaylist { try playlists.edit(args[0]) { $0 = queue } }
            case "append": return s.changePlaylist { try playlists.edit(args[0]) { $0 += queue } }
            default: throw MPDProtocol.Ack(code: .argument, message: "Unrecognized save mode, expected one of 'create', 'append', 'replace'")
            }
        },
        .init("rm", .change, 1...1) { s, request in
            let (args, playlists) = (request.arguments, s.playlists)
            return s.changePlaylist { try playlists.remove(args[0]) }
        },
        .init("rename", .change, 2...2) { s, request in
            let (args, playlists) = (request.arguments, s.playlists)
            return s.changePlaylist { try playlists.rename(args[0], to: args[1]) }
        },
        .init("playlistclear", .change, 1...1) { s, request in
            let (args, playlists) = (request.arguments, s.playlists)
            return s.changePlaylist { try playlists.edit(args[0]) { $0.removeAll() } }
        },
        .init("playlistadd", .change, 2...3) { s, request in
            let (args, playlists) = (request.arguments, s.playlists)
            // A URL is kept as it is, as `add` queues it.
            let found = try s.tracks(named: args[1])
            guard !found.isEmpty else { throw MPDProtocol.Ack(code: .noExist, message: "No such directory") }
            let position = try args.count == 3 ? ControlSession.unsigned(args[2], atMost: .max) : nil
            return s.changePlaylist {
                try playlists.edit(args[0], creating: true) { tracks throws(StoredPlaylists.Failure) in
                    let at = position ?? tracks.count
                    guard at <= tracks.count else { throw .badInsertion }
                    tracks.insert(contentsOf: found, at: at)
                }
            }
        },
        .init("playlistdelete", .change, 2...2) { s, request in
            let (args, playlists) = (request.arguments, s.playlists)
            let range = try ControlSession.parsedRange(args[1])
            return s.changePlaylist {
                try playlists.edit(args[0]) { tracks throws(StoredPlaylists.Failure) in
                    // As MPD: a start past the end is refused, an end past it is the end.
                    guard range.start <= tracks.count else { throw .badPosition }
                    tracks.removeSubrange(range.start..<min(range.end ?? tracks.count, tracks.count))
                }
            }
        },
        // `playlistmove NAME FROM|START:END TO`: a range too since MPD 0.24. A move of
        // nothing, or to where it is, is taken without looking, as MPD takes it.
        .init("playlistmove", .change, 3...3) { s, request in
            let (args, playlists) = (request.arguments, s.playlists)
            let from = try ControlSession.parsedRange(args[1])
            guard let end = from.end else { throw MPDProtocol.Ack(code: .argument, message: "Open-ended range not supported") }
            let to = try ControlSession.integer(args[2], request.name)
            guard to >= 0 else { throw MPDProtocol.Ack(code: .argument, message: "Integer expected: \(args[2].prefix(64))") }
            guard end > from.start, from.start != to else { return "" }
            return s.changePlaylist {
                try playlists.edit(args[0]) { tracks throws(StoredPlaylists.Failure) in
                    guard end <= tracks.count, to <= tracks.count - (end - from.start) else { throw .badRange }
                    let moving = Array(tracks[from.start..<end])
                    tracks.removeSubrange(from.start..<end)
                    tracks.insert(contentsOf: moving, at: to)
                }
            }
        },
    ]

    /// `listplaylist` (files) and `listplaylistinfo` (`songs`), of a range of it too (MPD
    /// 0.24: a range past the end lists what there is). Found on the file thread: a
    /// playlist of 89,000 lines must not hold up the others. Listed as the client reads:
    /// never whole in memory.
    private func listPlaylist(_ request: MPDProtocol.Request, songs: Bool) throws -> Reply {
        let args = request.arguments
        let file = try storedFile(args[0])
        let range = try args.count == 2 ? Self.parsedRange(args[1]) : (start: 0, end: nil)
        let playlists = self.playlists
        return afterReading({ try Self.acked { () throws(StoredPlaylists.Failure) in try file() } }, then: { [unowned self] path in
            var tracks = try Self.acked { () throws(StoredPlaylists.Failure) in try playlists.tracks(of: path) }
            let known = catalog.snapshot
            var (skip, left) = (range.start, range.end.map { $0 - range.start } ?? .max)
            return .stream(ReplyStream.items(until: { [unowned self] out in
                // The file's end, or a line too long to be a path, ends the listing there.
                guard left > 0, let path = try? tracks.next() else { return false }
                guard skip == 0 else {
                    skip -= 1
                    return true
                }
                left -= 1
                if songs {
                    appendSong(to: &out, path: path, spot: nil, tags: known.tags(of: path))
                } else {
                    out.append(contentsOf: "file: \(MPDProtocol.value(library.uri(path)))\n".utf8)
                }
                return true
            }))
        })
    }

    /// `searchplaylist NAME FILTER [window START:END]` (MPD 0.24): the playlist's songs that
    /// match, case folded as `search` folds it, each with its place in the playlist. As
    /// MPD reads it, a window follows a filter of one word only.
    private func searchPlaylist(_ args: [String]) throws -> Reply {
        let file = try storedFile(args[0])
        var rest = args.dropFirst()
        var window = 0..<Int.max
        if rest.count == 3, rest[rest.startIndex + 1] == "window", let last = rest.last {
            window = try Self.range(last, within: .max)
            rest = rest.dropLast(2)
        }
        let (filter, used) = try Self.filter(rest, foldCase: true)
        guard used == rest.count else { throw MPDProtocol.Ack(code: .argument, message: "Unknown argument: \(rest[rest.startIndex + used].prefix(32))") }
        let test = filter.test(foldCase: true)
        let playlists = self.playlists
        return afterReading({ try Self.acked { () throws(StoredPlaylists.Failure) in try file() } }, then: { [unowned self] path in
            var tracks = try Self.acked { () throws(StoredPlaylists.Failure) in try playlists.tracks(of: path) }
            let known = catalog.snapshot
            var (position, skip, left) = (-1, window.lowerBound, window.count)
            return .stream(ReplyStream.items(until: { [unowned self] out in
                guard left > 0, let path = try? tracks.next() else { return false }
                position += 1
                let tags = known.tags(of: path)
                guard test(tags ?? SongTags(), { library.uri(path) }, 0) else { return true }
                guard skip == 0 else {
                    skip -= 1
                    return true
                }
                left -= 1
                appendSong(to: &out, path: path, spot: nil, tags: tags)
                // A file the library does not hold is named alone, as MPD names it.
                if tags != nil { out.append(contentsOf: "Pos: \(position)\n".utf8) }
                return true
            }))
        })
    }

    /// Makes `change` to a playlist file on the file thread, as listing reads it, then
    /// tells every idle client.
    func changePlaylist(_ change: @escaping @Sendable () throws -> Void) -> Reply {
        afterReading({
            do {
                try change()
            } catch let failure as StoredPlaylists.Failure {
                throw Self.ack(failure)
            }
        }, then: { [unowned self] in
            announce([.storedPlaylist])
            return ""
        })
    }

    /// How to find a stored playlist's file by name, or a playlist of the library by its
    /// file name relative to the music folder (`Abba/best.m3u`, as `lsinfo` lists it):
    /// the name is checked here, the folder looked in by the caller's thread.
    private func storedFile(_ name: String) throws -> @Sendable () throws(StoredPlaylists.Failure) -> String {
        // No name names no playlist, as MPD reads it.
        guard !name.isEmpty else { throw Self.ack(.notFound) }
        if name.contains("/" as Character) {
            guard let found = catalog.snapshot.playlists.first(where: { library.uri($0.path) == name }) else { throw Self.ack(.notFound) }
            let path = found.path
            return { path }
        }
        let playlists = self.playlists
        return { () throws(StoredPlaylists.Failure) in try playlists.file(name) }
    }

    /// `body`'s result, its failure made the client's ACK.
    private static func acked<T>(_ body: () throws(StoredPlaylists.Failure) -> T) throws(MPDProtocol.Ack) -> T {
        do {
            return try body()
        } catch {
            throw ack(error)
        }
    }

    static func listed(_ playlist: StoredPlaylists.Listed) -> String {
        "playlist: \(MPDProtocol.value(playlist.name))\nLast-Modified: \(MPDProtocol.timestamp(playlist.modified))\n"
    }

    static func ack(_ failure: StoredPlaylists.Failure) -> MPDProtocol.Ack {
        let code: MPDProtocol.AckCode = switch failure {
        case .badName, .badPosition, .badInsertion, .badRange: .argument
        case .notFound, .noFolder: .noExist
        case .exists, .renameTargetExists: .exist
        case .cannot, .unreadable: .system
        }
        return MPDProtocol.Ack(code: code, message: failure.description)
    }
}
