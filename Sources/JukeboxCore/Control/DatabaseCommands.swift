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
        .init("readcomments", .read, 1...1) { s, request in try s.readComments(request.arguments[0]) },
        .init("update", .change, 0...1) { s, request in try s.update(request, everything: false) },
        .init("rescan", .change, 0...1) { s, request in try s.update(request, everything: true) },
    ]

    /// `readcomments URI`: the song's tags under the file's own names (`ARTIST: Abba`,
    /// an ID3 user text), read from the file on the file thread. Only the library's songs
    /// can be named, as with pictures; a stream's would be read from the network, which
    /// the box does only to play it.
    private func readComments(_ uri: String) throws -> Reply {
        if case .url = TrackLocation(uri) {
            throw MPDProtocol.Ack(code: .noExist, message: "comments are read from the library's files only, not from streams")
        }
        guard let path = library.path(for: uri), catalog.snapshot.positions[path] != nil else {
            throw MPDProtocol.Ack(code: .noExist, message: "No such song")
        }
        return afterReading({ () throws(MPDProtocol.Ack) in
            do {
                return try AudioFile.metadata(path).rawTags
            } catch {
                throw MPDProtocol.Ack(code: .noExist, message: "Failed to load file")
            }
        }, then: { tags in
            .text(tags.map { "\(MPDProtocol.value($0.name)): \(MPDProtocol.value($0.value))\n" }.joined())
        })
    }

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
        let root = uri.isEmpty || uri == "/"
        if name == "listfiles" { return try listFiles(String(prefix.dropLast())) }
        let items = Self.items(under: prefix, known, storedPlaylists: playlists.folder)
        guard !items.isEmpty || root else { throw MPDProtocol.Ack(code: .noExist, message: "No such directory") }
        switch name {
        case "lsinfo":
            // Its folders first, then its songs, then its playlists (at the root, the stored ones too).
            var folders = ""
            var seen = Set<Substring>()
            var songs: [Int] = []
            var inFolder = root && !features.contains(.hidePlaylistsInRoot) ? playlists.list().map(Self.listed).joined() : ""
            for item in items {
                let path = item.path(known)
                let rest = path.dropFirst(prefix.count)
                if let slash = rest.firstIndex(of: "/") {
                    let sub = rest[..<slash]
                    if seen.insert(sub).inserted {
                        folders += "directory: \(MPDProtocol.value(library.uri(prefix + sub)))\n" + Self.modified(known.folderTimes[prefix + sub])
                    }
                } else if case .track(let at) = item {
                    songs.append(at)
                } else {
                    inFolder += playlistLines(path)
                }
            }
            let listed = ReplyStream.items(songs.count) { [unowned self] k, out in
                appendSong(to: &out, path: known.tracks[songs[k]].path, spot: nil, tags: known.tracks[songs[k]].tags)
            }
            return .stream(ReplyStream.text(folders).followed(by: listed).followed(by: .text(inFolder)))
        default:  // listall, listallinfo: the folder itself (as MPD), then everything below, each folder named once before its files
            var named = Set<String>()
            let full = name == "listallinfo"
            func directory(_ path: String) -> String {
                "directory: \(MPDProtocol.value(library.uri(path)))\n" + (full ? Self.modified(known.folderTimes[path]) : "")
            }
            let itself = root ? "" : directory(String(prefix.dropLast()))
            return .stream(ReplyStream.text(itself).followed(by: ReplyStream.items(items.count) { [unowned self] k, out in
                let path = items[k].path(known)
                let rest = path.dropFirst(prefix.count)
                var from = rest.startIndex
                while let slash = rest[from...].firstIndex(of: "/") {
                    let sub = String(path[..<slash])
                    if named.insert(sub).inserted { out.append(contentsOf: directory(sub).utf8) }
                    from = rest.index(after: slash)
                }
                switch items[k] {
                case .track(let at) where full: appendSong(to: &out, path: path, spot: nil, tags: known.tracks[at].tags)
                case .track: out.append(contentsOf: "file: \(MPDProtocol.value(library.uri(path)))\n".utf8)
                case .playlist where full: out.append(contentsOf: playlistLines(path).utf8)
                case .playlist: out.append(contentsOf: "playlist: \(MPDProtocol.value(library.uri(path)))\n".utf8)
                }
            }))
        }
    }

    /// What a listing shows, in MPD's order: positions in the snapshot, not copies (a
    /// library of 100,000 is listed from its snapshot).
    private enum Item {
        case track(Int)
        case playlist(Int)

        func path(_ known: LibraryCatalog.Snapshot) -> String {
            switch self {
            case .track(let at): known.tracks[at].path
            case .playlist(let at): known.playlists[at].path
            }
        }
    }

    /// The tracks and the music's playlist files under `prefix` (not those of the stored
    /// playlists' folder, which `lsinfo` shows at the root by name), each folder's
    /// playlists after its songs and before its subfolders', as MPD walks its database.
    private static func items(under prefix: String, _ known: LibraryCatalog.Snapshot, storedPlaylists: String) -> [Item] {
        let tracks = known.tracks.indices.filter { known.tracks[$0].path.hasPrefix(prefix) }
        // Each playlist goes after every track whose folder sorts at or before its own (the
        // tracks are sorted by folder first, a folder before its subfolders): found by
        // halving, so a library of 100,000 tracks with many playlists lists at once.
        let placed = known.playlists.indices.compactMap { at -> (before: Int, playlist: Int)? in
            let path = known.playlists[at].path
            let folder = AtomicFile.folder(of: path)
            guard path.hasPrefix(prefix), folder != storedPlaylists else { return nil }
            var (low, high) = (0, tracks.count)
            while low < high {
                let middle = (low + high) / 2
                if NaturalOrder.compare(AtomicFile.folder(of: known.tracks[tracks[middle]].path), folder) <= 0 { low = middle + 1 } else { high = middle }
            }
            return (low, at)
        }.sorted { ($0.before, $0.playlist) < ($1.before, $1.playlist) }
        var items: [Item] = []
        items.reserveCapacity(tracks.count + placed.count)
        var next = placed[...]
        for (k, track) in tracks.enumerated() {
            while let first = next.first, first.before == k { items.append(.playlist(first.playlist)); next = next.dropFirst() }
            items.append(.track(track))
        }
        items += next.map { .playlist($0.playlist) }
        return items
    }

    /// A playlist file as MPD lists it: its name in the music and its file's time.
    private func playlistLines(_ path: String) -> String {
        "playlist: \(MPDProtocol.value(library.uri(path)))\n" + Self.modified(FileIdentity(path: path).map { Int($0.modified / 1_000_000_000) })
    }

    /// `listfiles`: what the folder holds on disk, as MPD lists its storage: every file
    /// (covers and text too) with its size and time, and its folders.
    private func listFiles(_ folder: String) throws -> Reply {
        guard let names = try? FolderNames.list(folder, hidden: true) else {
            throw MPDProtocol.Ack(code: .noExist, message: "No such directory")
        }
        var out = ""
        for name in names where !name.contains("\n" as Character) {
            var st = stat()
            guard FilePath.withCString(folder + "/" + name, { stat($0, &st) }) == 0 else { continue }
            let modified = Self.modified(Int(st.st_mtim.tv_sec))
            switch st.st_mode & S_IFMT {
            case S_IFDIR: out += "directory: \(MPDProtocol.value(name))\n" + modified
            case S_IFREG: out += "file: \(MPDProtocol.value(name))\nsize: \(st.st_size)\n" + modified
            default: continue
            }
        }
        return .text(out)
    }

    /// A `Last-Modified` line, when the time is known.
    private static func modified(_ seconds: Int?) -> String {
        seconds.map { "Last-Modified: \(MPDProtocol.timestamp($0))\n" } ?? ""
    }

    /// MPD's `stats`: what the library holds and how long the box has been up and playing.
    func stats(_ known: LibraryCatalog.Snapshot) -> String {
        var artists = Set<String>(), albums = Set<String>()
        var seconds = 0.0
        for track in known.tracks {
            artists.formUnion(track.tags.values(.artist))
            albums.formUnion(track.tags.values(.album))
            seconds += track.tags.seconds
        }
        return "uptime: \(Self.processUptime())\nplaytime: \(Int(player.playTime))\n"
            + "artists: \(artists.count)\nalbums: \(albums.count)\nsongs: \(known.tracks.count)\n"
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
