/// MPD 0.24's sticker commands: `sticker get|set|inc|dec|delete|list|find` on songs,
/// stored playlists and tag values (`sticker set Artist ABBA rating 5`), `find`'s integer
/// and text operators, `sort` and `window`, and `stickernames`, `stickernamestypes`,
/// `stickertypes`. Each object must exist, as in MPD: a song in the library, a stored
/// playlist, a tag value some song has. Each call to the database runs on the server's
/// file thread; the reply waits for it, the other clients do not. A change tells idle
/// clients (`sticker`). Without a sticker database (no state file) these are answered as
/// MPD answers them without a `sticker_file`: not listed, and refused.
extension ControlSession {
    static let stickerCommands: [MPDCommand] = [
        // MPD's "admin" permission, as its table has it: a client without the password may not.
        .init("sticker", .change, 3..., needsStickers: true) { s, request in try s.sticker(request.arguments) },
        .init("stickernames", .change, 0...0, needsStickers: true) { s, _ in
            let store = try s.stickerDatabase()
            return s.stickerJob({ try store.names() }) { names in .text(names.map { "name: \(MPDProtocol.value($0))\n" }.joined()) }
        },
        .init("stickernamestypes", .change, 0...1, needsStickers: true) { s, request in try s.stickerNamesAndTypes(request.arguments) },
        .init("stickertypes", .change, 0...0, needsStickers: true) { s, _ in
            _ = try s.stickerDatabase()
            // The tag types only as this client lists tags (`tagtypes`), as in MPD.
            let tags = StickerDomain.allowedTags.filter(s.listedTags.contains)
            return .text((["playlist", "song"] + tags.map(\.rawValue)).map { "stickertype: \($0)\n" }.joined())
        },
    ]

    private static let badRequest = MPDProtocol.Ack(code: .argument, message: "bad request")

    private func stickerDatabase() throws -> StickerDatabase {
        guard let stickers else { throw MPDProtocol.Ack(code: .unknown, message: "sticker database is disabled") }
        return stickers
    }

    /// `sticker SUBCOMMAND TYPE URI [ARGS...]`, checked in MPD's order: the database, the
    /// type, the subcommand with its argument count, an empty name, then the object.
    private func sticker(_ args: [String]) throws -> Reply {
        let store = try stickerDatabase()
        guard let domain = StickerDomain(args[1]) else {
            throw MPDProtocol.Ack(code: .argument, message: "unknown sticker domain \(Self.quoted(args[1]))")
        }
        let (type, uri) = (domain.type, args[2])
        let playlists = playlists
        /// The object checked where MPD checks it; a stored playlist on the file thread.
        func checked<T: Sendable>(_ work: @escaping @Sendable () throws -> T) throws -> @Sendable () throws -> T {
            try requireObject(domain, uri)
            guard domain == .playlist else { return work }
            return {
                guard (try? playlists.file(uri)) != nil else {
                    throw MPDProtocol.Ack(code: .argument, message: "no such playlist: \(Self.quoted(uri))")
                }
                return try work()
            }
        }
        switch (args[0], args.count) {
        case ("get", 4):
            let name = args[3]
            return stickerJob(try checked { try store.value(type: type, uri: uri, name: name) }) { value in
                // An empty value is no sticker, as in MPD (`list` still shows it).
                guard let value, !value.isEmpty else { throw Self.noSuchSticker(name) }
                return .text(Self.stickerLine(name, value))
            }
        case ("list", 3):
            return stickerJob(try checked { try store.stickers(type: type, uri: uri) }) { stickers in
                .text(stickers.map { Self.stickerLine($0.name, $0.value) }.joined())
            }
        case ("set", 5), ("inc", 5), ("dec", 5):
            let (name, value, operation) = (args[3], args[4], args[0])
            guard !name.isEmpty else { throw MPDProtocol.Ack(code: .argument, message: "empty sticker name") }
            return stickerJob(try checked {
                if operation == "set" { try store.set(type: type, uri: uri, name: name, value: value) } else {
                    try store.add(value, subtracting: operation == "dec", type: type, uri: uri, name: name)
                }
            }) { [unowned self] _ in
                announce([.sticker])
                return ""
            }
        case ("delete", 3), ("delete", 4):
            let name = args.count == 4 ? args[3] : nil
            return stickerJob(try checked { try store.delete(type: type, uri: uri, name: name) }) { [unowned self] deleted in
                // MPD 0.24.2 itself dies naming the sticker when there is no name.
                guard deleted else { throw name.map(Self.noSuchSticker) ?? MPDProtocol.Ack(code: .noExist, message: "no such sticker") }
                announce([.sticker])
                return ""
            }
        case ("find", 4...):
            return try findStickers(args, domain: domain, in: store)
        default:
            throw Self.badRequest
        }
    }

    /// `sticker find TYPE BASE NAME [OPERATOR VALUE] [sort ORDER] [window START:END]`, the
    /// options read from the end as MPD reads them: the objects whose URI starts with BASE
    /// ("" for all; a song's folder, whole names only), as `file:` (or the type's name) and
    /// `sticker:` lines. A sticker on a song no longer in the library is left out, as MPD
    /// leaves it out (after its window).
    private func findStickers(_ args: [String], domain: StickerDomain, in store: StickerDatabase) throws -> Reply {
        var args = args[...]
        var window: (start: Int, end: Int?)?
        if args.count >= 6, args[args.endIndex - 2] == "window" {
            window = try Self.window(args[args.endIndex - 1])
            args = args.dropLast(2)
        }
        var (order, reversed) = (StickerDatabase.Order?.none, false)
        if args.count >= 6, args[args.endIndex - 2] == "sort" {
            var value = args[args.endIndex - 1][...]
            if value.hasPrefix("-") { reversed = true; value = value.dropFirst() }
            switch value {
            case "uri": order = .uri
            case "value": order = .value
            case "value_int": order = .integerValue
            default: throw MPDProtocol.Ack(code: .argument, message: "Unknown sort tag \(Self.quoted(String(value)))")
            }
            args = args.dropLast(2)
        }
        var match = StickerDatabase.Match.exists
        if args.count > 4 {
            let op = args[args.startIndex + 4]
            guard args.count <= 6, let chosen = StickerDatabase.Match(operator: op, args.count == 6 ? args[args.startIndex + 5] : "") else {
                throw args.count <= 6 ? MPDProtocol.Ack(code: .argument, message: "bad operator \(Self.quoted(op))") : Self.badRequest
            }
            // An operator without a value finds nothing (MPD 0.24.2 reads past its
            // arguments there: `=` finds nothing, others anything).
            if args.count == 5 { return "" }
            match = chosen
        }
        let (base, name) = (args[args.startIndex + 2], args[args.startIndex + 3])
        let song = domain == .song
        let prefix = song && !base.isEmpty ? base + "/" : base
        let query = (type: domain.type, match: match, order: order, reversed: reversed, window: window)
        return stickerJob({
            try store.find(type: query.type, prefix: prefix, name: name, query.match, order: query.order, reversed: query.reversed,
                           window: query.window)
        }) { [unowned self] found in
            var rows = found
            if song {
                let known = catalog.snapshot
                rows = found.filter { $0.uri.hasPrefix(prefix) && library.path(for: $0.uri).flatMap { known.positions[$0] } != nil }
            }
            let key = song ? "file" : domain.type
            return .stream(ReplyStream.items(rows.count) { i, out in
                out.append(contentsOf: "\(key): \(MPDProtocol.value(rows[i].uri))\n\(Self.stickerLine(name, rows[i].value))".utf8)
            })
        }
    }

    /// `stickernamestypes [TYPE]`: each name in use with the type it is on. TYPE is
    /// `song`, `playlist`, `filter` or a tag's name as MPD writes it.
    private func stickerNamesAndTypes(_ args: [String]) throws -> Reply {
        let store = try stickerDatabase()
        let type = args.first
        if let type, !["song", "playlist", "filter"].contains(type) {
            guard let tag = MPDTag.allCases.first(where: { $0.rawValue == type }) else {
                throw MPDProtocol.Ack(code: .argument, message: "no such tag \(Self.quoted(type))")
            }
            guard StickerDomain.allowedTags.contains(tag) else {
                throw MPDProtocol.Ack(code: .argument, message: "unsupported tag \(Self.quoted(type))")
            }
        }
        return stickerJob({ try store.namesAndTypes(type: type) }) { rows in
            .text(rows.map { "name: \(MPDProtocol.value($0.name))\ntype: \(MPDProtocol.value($0.type))\n" }.joined())
        }
    }

    /// `START:END` or `START:`, as MPD's window takes it.
    private static func window(_ text: String) throws -> (start: Int, end: Int?) {
        let bad = MPDProtocol.Ack(code: .argument, message: "Bad window: \(text.prefix(64))")
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Int(parts[0]), start >= 0 else { throw bad }
        if parts[1].isEmpty { return (start, nil) }
        guard let end = Int(parts[1]), end >= start else { throw bad }
        return (start, end)
    }

    private static func stickerLine(_ name: String, _ value: String) -> String { "sticker: \(MPDProtocol.value(name))=\(MPDProtocol.value(value))\n" }

    private static func noSuchSticker(_ name: String) -> MPDProtocol.Ack {
        MPDProtocol.Ack(code: .noExist, message: "no such sticker: \(quoted(name))")
    }

    /// A name in double quotes with `"` and `\` escaped, as MPD 0.24 names things in its errors.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }

    /// MPD refuses stickers on anything but an object it has: a song in its database, a tag
    /// value some song has (of the tags stickers may be on). Stored playlists are looked
    /// for on the file thread.
    private func requireObject(_ domain: StickerDomain, _ uri: String) throws {
        switch domain {
        case .song:
            guard let path = library.path(for: uri), catalog.snapshot.positions[path] != nil else {
                throw MPDProtocol.Ack(code: .noExist, message: "No such song")
            }
        case .playlist:
            break
        case .tag(let tag):
            guard StickerDomain.allowedTags.contains(tag) else {
                throw MPDProtocol.Ack(code: .argument, message: "unsupported tag: \(Self.quoted(tag.rawValue))")
            }
            let test = SongFilter.compare(.tag(tag), .equal, uri).test(foldCase: false)
            guard catalog.snapshot.tracks.contains(where: { test($0.tags, { "" }, 0) }) else {
                throw MPDProtocol.Ack(code: .argument, message: "no such \(tag.rawValue): \(Self.quoted(uri))")
            }
        }
    }

    /// `work` on the file thread, then `then` with its result here; a refusal becomes its ACK.
    private func stickerJob<T: Sendable>(_ work: @escaping @Sendable () throws -> T, then: @escaping (T) throws -> Reply) -> Reply {
        afterReading({
            do {
                return try work()
            } catch let failure as StickerDatabase.Failure {
                throw Self.stickerAck(failure)
            }
        }, then: then)
    }

    private static func stickerAck(_ failure: StickerDatabase.Failure) -> MPDProtocol.Ack {
        let code: MPDProtocol.AckCode = switch failure {
        case .full: .playlistMax
        case .nameTooLong, .valueTooLong: .argument
        case .database: .system
        }
        return MPDProtocol.Ack(code: code, message: failure.description)
    }
}

/// What a sticker is on, as MPD 0.24 has them: a song, a stored playlist, or a value of
/// a tag (stored under the tag's name as MPD writes it). MPD's `filter` stickers are not
/// kept: `sticker ... filter` is refused as an unknown domain, and not listed.
enum StickerDomain: Equatable {
    case song, playlist
    case tag(MPDTag)

    /// The tags stickers may be on, as MPD 0.24 allows them.
    static let allowedTags: [MPDTag] = [
        .artist, .album, .albumArtist, .title, .genre, .composer, .performer, .conductor, .work, .ensemble, .location,
        .label, .musicBrainzArtistID, .musicBrainzAlbumID, .musicBrainzAlbumArtistID, .musicBrainzReleaseTrackID,
        .musicBrainzWorkID,
    ]

    /// `song` and `playlist` as written; a tag's name in any case.
    init?(_ name: String) {
        switch name {
        case "song": self = .song
        case "playlist": self = .playlist
        default:
            guard let tag = MPDTag(named: name) else { return nil }
            self = .tag(tag)
        }
    }

    var type: String {
        switch self {
        case .song: "song"
        case .playlist: "playlist"
        case .tag(let tag): tag.rawValue
        }
    }
}
