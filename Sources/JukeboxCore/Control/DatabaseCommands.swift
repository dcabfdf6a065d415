#if canImport(Glibc)
import Glibc
#endif

/// MPD's commands that browse the library (its database): lsinfo, listall, listallinfo,
/// listfiles and stats; and update and rescan, which have it scanned. Folders are those of the music folder that hold tracks; names
/// are relative to it, and one that names nothing in the library is "No such directory".
extension ControlSession {
    static let databaseCommands: [MPDCommand] = [
        .init("lsinfo", .read, 0...1) { s, request in try s.browse(request) },
        .init("listfiles", .read, 0...1) { s, request in try s.browse(request) },
        .init("listall", .read, 0...1) { s, request in try s.browse(request) },
        .init("listallinfo", .read, 0...1) { s, request in try s.browse(request) },
        .init("stats", .read, 0...0) { s, _ in .text(s.stats(s.catalog.snapshot)) },
        .init("update", .change, 0...1) { s, request in try s.update(request, everything: false) },
        .init("rescan", .change, 0...1) { s, request in try s.update(request, everything: true) },
    ]

    /// `update [URI]` and `rescan [URI]` (`everything`: tags read again): the whole library
    /// is checked whatever the folder named: by folder time, that costs little more than
    /// the folder, and a new folder is found anyway.
    private func update(_ request: MPDProtocol.Request, everything: Bool) throws -> Reply {
        if let uri = request.arguments.first, library.path(for: uri) == nil { throw MPDProtocol.Ack(code: .argument, message: "Malformed path") }
        guard let job = catalog.requestUpdate(everything: everything) else {
            throw MPDProtocol.Ack(code: .noExist, message: "No database")
        }
        return "updating_db: \(job)\n"
    }

    /// `lsinfo`, `listfiles`, `listall` or `listallinfo` of the folder (or file) named.
    private func browse(_ request: MPDProtocol.Request) throws -> Reply {
        let (name, args) = (request.name, request.arguments)
        let known = catalog.snapshot
        let uri = args.first ?? ""
        guard let folder = library.path(for: uri) else { throw MPDProtocol.Ack(code: .noExist, message: "No such directory") }
        if let at = known.positions[folder] {
            // A file: MPD answers with the song itself.
            let track = known.tracks[at]
            return .text(name == "listall" || name == "listfiles" ? "file: \(MPDProtocol.value(library.uri(track.path)))\n"
                : song(path: track.path, spot: nil, tags: track.tags))
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        // Positions, not copies of the tracks: a library of 100,000 is listed from its snapshot.
        let inside = known.tracks.indices.filter { known.tracks[$0].path.hasPrefix(prefix) }
        guard !inside.isEmpty || (uri.isEmpty || uri == "/") else { throw MPDProtocol.Ack(code: .noExist, message: "No such directory") }
        switch name {
        case "lsinfo", "listfiles":
            // Its folders first, then its files, then (lsinfo) its playlists.
            var folders = ""
            var seen = Set<Substring>()
            var files: [Int] = []
            for at in inside {
                let path = known.tracks[at].path
                let rest = path.dropFirst(prefix.count)
                if let slash = rest.firstIndex(of: "/") {
                    let sub = rest[..<slash]
                    if seen.insert(sub).inserted {
                        let shown = name == "listfiles" ? String(sub) : library.uri(prefix + sub)
                        folders += "directory: \(MPDProtocol.value(shown))\n"
                    }
                } else {
                    files.append(at)
                }
            }
            let listed = ReplyStream.items(files.count) { [unowned self] k, out in
                let track = known.tracks[files[k]]
                if name == "listfiles" {
                    out.append(contentsOf: "file: \(MPDProtocol.value(String(track.path.dropFirst(prefix.count))))\n".utf8)
                } else {
                    appendSong(to: &out, path: track.path, spot: nil, tags: track.tags)
                }
            }
            let playlists = name == "lsinfo" ? playlistsListed(in: String(prefix.dropLast()), root: uri.isEmpty || uri == "/", known) : ""
            return .stream(ReplyStream.text(folders).followed(by: listed).followed(by: .text(playlists)))
        default:  // listall, listallinfo: the folder itself (as MPD), then everything below, each folder named once before its files
            var named = Set<String>()
            let itself = uri.isEmpty || uri == "/" ? "" : "directory: \(MPDProtocol.value(library.uri(String(prefix.dropLast()))))\n"
            return .stream(ReplyStream.text(itself).followed(by: ReplyStream.items(inside.count) { [unowned self] k, out in
                let track = known.tracks[inside[k]]
                let rest = track.path.dropFirst(prefix.count)
                var from = rest.startIndex
                while let slash = rest[from...].firstIndex(of: "/") {
                    let sub = String(track.path[..<slash])
                    if named.insert(sub).inserted { out.append(contentsOf: "directory: \(MPDProtocol.value(library.uri(sub)))\n".utf8) }
                    from = rest.index(after: slash)
                }
                if name == "listall" {
                    out.append(contentsOf: "file: \(MPDProtocol.value(library.uri(track.path)))\n".utf8)
                } else {
                    appendSong(to: &out, path: track.path, spot: nil, tags: track.tags)
                }
            }))
        }
    }

    /// The playlists `lsinfo` shows in `folder`: at the root the stored ones, by name; in
    /// any folder the playlist files the library found there, by file name (not those of
    /// the playlists folder, already shown at the root).
    private func playlistsListed(in folder: String, root: Bool, _ known: LibraryCatalog.Snapshot) -> String {
        var out = root ? playlists.list().map(Self.listed).joined() : ""
        for playlist in known.playlists {
            let at = AtomicFile.folder(of: playlist.path)
            guard at == folder, at != playlists.folder, let modified = FileIdentity(path: playlist.path)?.modified else { continue }
            out += "playlist: \(MPDProtocol.value(library.uri(playlist.path)))\nLast-Modified: \(MPDProtocol.timestamp(Int(modified / 1_000_000_000)))\n"
        }
        return out
    }

    /// MPD's `stats`: what the library holds and how long the box has been up and playing.
    func stats(_ known: LibraryCatalog.Snapshot) -> String {
        var artists = Set<String>(), albums = Set<String>()
        var seconds = 0.0
        for track in known.tracks {
            if let artist = track.tags.artist { artists.insert(artist) }
            if let album = track.tags.album { albums.insert(album) }
            seconds += track.tags.seconds
        }
        return "artists: \(artists.count)\nalbums: \(albums.count)\nsongs: \(known.tracks.count)\n"
            + "uptime: \(Self.processUptime())\nplaytime: \(Int(player.playTime))\n"
            + "db_playtime: \(Int(seconds.rounded()))\ndb_update: \(known.updated)\n"
    }

    /// Seconds since this process started: the system's uptime less the process's start
    /// time (in clock ticks since boot), both from /proc.
    static func processUptime() -> Int {
        guard let stat = procText("/proc/self/stat"), let uptime = procText("/proc/uptime") else { return 0 }
        // Fields after the command name (which may hold spaces) start at its closing ')'.
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let started = Double(fields[19]),
              let up = uptime.split(separator: " ").first.flatMap({ Double($0) }) else { return 0 }
        return max(0, Int(up - started / Double(sysconf(Int32(_SC_CLK_TCK)))))
    }

    /// A small /proc file's text (their size reads as 0, so they are read to the end).
    private static func procText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &buffer, buffer.count)
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
    }
}
