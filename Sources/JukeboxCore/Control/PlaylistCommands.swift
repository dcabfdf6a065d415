#if canImport(Glibc)
import Glibc
#endif

/// MPD's stored playlist commands over `StoredPlaylists`: the M3U files of the playlists
/// folder, by name. A playlist inside the music folder is read (listed, loaded) by its
/// file name relative to the music folder, as MPD lists it in `lsinfo`, and is not
/// changed by clients. Only the library's tracks are added or loaded from a playlist:
/// an entry naming another file is passed over.
extension ControlSession {
    static let playlistCommands = ["listplaylist", "listplaylistinfo", "listplaylists", "load", "playlistadd", "playlistclear",
                                   "playlistdelete", "playlistmove", "rename", "rm", "save"]

    /// The reply to a stored playlist command; nil when `name` is not one.
    func playlistCommand(_ name: String, _ args: [String]) throws -> Reply? {
        guard Self.playlistCommands.contains(name) else { return nil }
        func arguments(_ range: ClosedRange<Int>) throws {
            guard range.contains(args.count) else {
                throw MPDProtocol.Ack(code: .argument, message: "wrong number of arguments for \"\(name)\"")
            }
        }
        // A change to a playlist file, made off the control thread.
        let change: @Sendable () throws -> Void
        let playlists = self.playlists
        do {
            switch name {
            case "listplaylists":
                try arguments(0...0)
                return .text(playlists.list().map(Self.listed).joined())
            case "listplaylist", "listplaylistinfo":
                // Found (and, for a range, counted) on the file thread: a playlist of 89,000
                // lines must not hold up the others. Listed as the client reads: never whole
                // in memory.
                try arguments(1...2)
                let file = try storedFile(args[0])
                let ranged = args.count == 2
                return afterReading({
                    try Self.acked { () throws(StoredPlaylists.Failure) in
                        let path = try file()
                        return StoredPlaylistFile(path: path, count: ranged ? try StoredPlaylists.count(of: path) : nil)
                    }
                }, then: { [unowned self] found in
                    let range = try found.count.map { try Self.range(args[1], within: $0) } ?? 0..<Int.max
                    var tracks = try Self.acked { () throws(StoredPlaylists.Failure) in try StoredPlaylists.tracks(of: found.path) }
                    let known = catalog.snapshot
                    var (skip, left) = (range.lowerBound, range.count)
                    return .stream(ReplyStream.items(until: { [unowned self] out in
                        // The file's end, a file cut short since it was counted, or a line too
                        // long to be a path ends the listing there.
                        guard left > 0, let path = try? tracks.next() else { return false }
                        guard skip == 0 else {
                            skip -= 1
                            return true
                        }
                        left -= 1
                        if name == "listplaylist" {
                            out.append(contentsOf: "file: \(MPDProtocol.value(library.uri(path)))\n".utf8)
                        } else {
                            appendSong(to: &out, path: path, spot: nil, tags: known.tags(of: path))
                        }
                        return true
                    }))
                })
            case "load":
                try arguments(1...3)
                let file = try storedFile(args[0])
                return afterReading({ try Self.acked { () throws(StoredPlaylists.Failure) in try StoredPlaylists.entries(of: file()) } }) { [unowned self] all in
                    let tracks = args.count >= 2 ? all[try Self.range(args[1], within: all.count)] : all[...]
                    let known = catalog.snapshot
                    let playable = tracks.filter { known.positions[$0] != nil }
                    try editQueue { draft in
                        try draft.insert(playable, at: args.count == 3 ? try Self.insertion(args[2], in: draft) : nil)
                    }
                    return ""
                }
            case "save":
                // MPD 0.24's modes too: create (the default), append, replace.
                try arguments(1...2)
                let queue = player.listing.paths
                switch args.count == 2 ? args[1] : "create" {
                case "create": change = { try playlists.write(args[0], queue, mustBeNew: true) }
                case "replace": change = { try playlists.write(args[0], queue) }
                case "append": change = { try playlists.edit(args[0], creating: true) { $0 += queue } }
                default: throw MPDProtocol.Ack(code: .argument, message: "Unrecognized save mode: \(args[1].prefix(64))")
                }
            case "rm":
                try arguments(1...1)
                change = { try playlists.remove(args[0]) }
            case "rename":
                try arguments(2...2)
                change = { try playlists.rename(args[0], to: args[1]) }
            case "playlistclear":
                try arguments(1...1)
                change = { try playlists.edit(args[0], creating: true) { $0.removeAll() } }
            case "playlistadd":
                try arguments(2...3)
                // A URL is kept as it is, as `add` queues it.
                let found = try tracks(named: args[1])
                guard !found.isEmpty else { throw MPDProtocol.Ack(code: .noExist, message: "No such directory") }
                let position = try args.count == 3 ? Self.integer(args[2], name) : nil
                change = {
                    try playlists.edit(args[0], creating: true) { tracks throws(StoredPlaylists.Failure) in
                        let at = position ?? tracks.count
                        guard at >= 0, at <= tracks.count else { throw .badPosition }
                        tracks.insert(contentsOf: found, at: at)
                    }
                }
            case "playlistdelete":
                try arguments(2...2)
                let spec = args[1]
                change = {
                    try playlists.edit(args[0]) { tracks throws(StoredPlaylists.Failure) in
                        guard let range = try? Self.range(spec, within: tracks.count), !range.isEmpty else { throw .badPosition }
                        tracks.removeSubrange(range)
                    }
                }
            case "playlistmove":
                try arguments(3...3)
                let (spec, to) = (args[1], try Self.integer(args[2], name))
                change = {
                    try playlists.edit(args[0]) { tracks throws(StoredPlaylists.Failure) in
                        guard let range = try? Self.range(spec, within: tracks.count), !range.isEmpty,
                              to >= 0, to + range.count <= tracks.count else { throw .badPosition }
                        let moving = Array(tracks[range])
                        tracks.removeSubrange(range)
                        tracks.insert(contentsOf: moving, at: to)
                    }
                }
            default:
                return nil
            }
        } catch let failure as StoredPlaylists.Failure {
            throw Self.ack(failure)
        }
        // The file is read and written on the file thread, as listing reads it.
        return afterReading({
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
        if name.contains("/" as Character) {
            guard let found = catalog.snapshot.playlists.first(where: { library.uri($0.path) == name }) else { throw StoredPlaylists.Failure.notFound }
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
        case .badName, .badPosition: .argument
        case .notFound, .noFolder: .noExist
        case .exists: .exist
        case .cannot, .unreadable: .system
        }
        return MPDProtocol.Ack(code: code, message: failure.description)
    }
}

/// A stored playlist's file and, when asked, how many tracks it names.
struct StoredPlaylistFile: Sendable {
    let path: String
    let count: Int?
}
