/// MPD's sticker commands for songs: `sticker get|set|delete|list|find`, MPD 0.24's
/// `sticker inc|dec`, `find`'s integer and text operators, `sort` and `window`, and
/// `stickernames`, `stickertypes`. A song is named by its URI, as in MPD, and must be in
/// the library. Each call to the database runs on the server's file thread; the reply
/// waits for it, the other clients do not. A change tells idle clients (`sticker`).
/// Without a sticker database (no state file) these are answered as MPD answers them
/// without a `sticker_file`: not listed, and refused.
extension ControlSession {
    static let stickerCommands: [MPDCommand] = [
        // MPD's "admin" permission, as its table has it: a client without the password may not.
        .init("sticker", .change, 3..., needsStickers: true) { s, request in try s.sticker(request.arguments) },
        .init("stickernames", .change, 0...0, needsStickers: true) { s, _ in
            let store = try s.stickerDatabase()
            return s.stickerJob({ try store.names() }) { names in .text(names.map { "name: \(MPDProtocol.value($0))\n" }.joined()) }
        },
        .init("stickertypes", .change, 0...0, needsStickers: true) { s, _ in
            _ = try s.stickerDatabase()
            return "stickertype: song\n"
        },
    ]

    private static let songType = "song"
    private static let badRequest = MPDProtocol.Ack(code: .argument, message: "bad request")
    private static let noSuchSticker = MPDProtocol.Ack(code: .noExist, message: "no such sticker")

    private func stickerDatabase() throws -> StickerDatabase {
        guard let stickers else { throw MPDProtocol.Ack(code: .unknown, message: "sticker database is disabled") }
        return stickers
    }

    /// `sticker SUBCOMMAND TYPE URI [ARGS...]`, checked in MPD's order: the database, the
    /// type, the subcommand with its argument count, then the song.
    private func sticker(_ args: [String]) throws -> Reply {
        let store = try stickerDatabase()
        guard args[1] == Self.songType else { throw MPDProtocol.Ack(code: .argument, message: "unknown sticker domain") }
        let (type, uri) = (Self.songType, args[2])
        switch (args[0], args.count) {
        case ("get", 4):
            try requireSong(uri)
            let name = args[3]
            return stickerJob({ try store.value(type: type, uri: uri, name: name) }) { value in
                // An empty value is no sticker, as in MPD (`list` still shows it).
                guard let value, !value.isEmpty else { throw Self.noSuchSticker }
                return .text(Self.stickerLine(name, value))
            }
        case ("list", 3):
            try requireSong(uri)
            return stickerJob({ try store.stickers(type: type, uri: uri) }) { stickers in
                .text(stickers.map { Self.stickerLine($0.name, $0.value) }.joined())
            }
        case ("set", 5):
            try requireSong(uri)
            let (name, value) = (args[3], args[4])
            return stickerJob({ try store.set(type: type, uri: uri, name: name, value: value) }) { [unowned self] changed in
                if changed { announce([.sticker]) }
                return ""
            }
        case ("delete", 3), ("delete", 4):
            try requireSong(uri)
            let name = args.count == 4 ? args[3] : nil
            return stickerJob({ try store.delete(type: type, uri: uri, name: name) }) { [unowned self] deleted in
                guard deleted else { throw Self.noSuchSticker }
                announce([.sticker])
                return ""
            }
        case ("inc", 4), ("inc", 5), ("dec", 4), ("dec", 5):
            try requireSong(uri)
            let name = args[3]
            var delta: Int64 = 1
            if args.count == 5 {
                guard let n = Int64(args[4]) else { throw MPDProtocol.Ack(code: .argument, message: "Integer expected: \(args[4].prefix(64))") }
                delta = n
            }
            if args[0] == "dec" {
                guard delta != .min else { throw Self.stickerAck(.outOfRange) }
                delta = -delta
            }
            let change = delta
            return stickerJob({ try store.add(change, type: type, uri: uri, name: name) }) { [unowned self] _ in
                announce([.sticker])
                return ""
            }
        case ("find", 4...):
            return try findStickers(args, in: store)
        default:
            throw Self.badRequest
        }
    }

    /// `sticker find song BASE NAME [OPERATOR VALUE] [sort ORDER] [window START:END]`:
    /// the songs under BASE ("" for all) with the sticker, as `file:` and `sticker:` lines.
    /// A sticker on a file no longer in the library is left out, as MPD leaves it out.
    private func findStickers(_ args: [String], in store: StickerDatabase) throws -> Reply {
        let (base, name) = (args[2], args[3])
        var rest = args[4...]
        var match = StickerDatabase.Match.exists
        if rest.count >= 2, rest.first != "sort", rest.first != "window" {
            guard let chosen = StickerDatabase.Match(operator: rest[rest.startIndex], rest[rest.startIndex + 1]) else {
                throw MPDProtocol.Ack(code: .argument, message: "bad operator")
            }
            match = chosen
            rest = rest.dropFirst(2)
        }
        var (order, reversed) = (StickerDatabase.Order.uri, false)
        var window: (start: Int, end: Int?)?
        while rest.count >= 2 {
            let (key, value) = (rest[rest.startIndex], rest[rest.startIndex + 1])
            switch key {
            case "sort":
                reversed = value.hasPrefix("-")
                switch reversed ? String(value.dropFirst()) : value {
                case "uri": order = .uri
                case "value": order = .value
                case "value_int": order = .integerValue
                default: throw MPDProtocol.Ack(code: .argument, message: "Unknown sort type: \(value.prefix(64))")
                }
            case "window":
                window = try Self.window(value)
            default:
                throw Self.badRequest
            }
            rest = rest.dropFirst(2)
        }
        guard rest.isEmpty else { throw Self.badRequest }
        let query = (match: match, order: order, reversed: reversed)
        return stickerJob({ try store.find(type: Self.songType, under: base, name: name, query.match, order: query.order, reversed: query.reversed) }) {
            [unowned self] found in
            let known = catalog.snapshot
            let inLibrary = found.filter { row in library.path(for: row.uri).flatMap { known.positions[$0] } != nil }
            let shown = window.map { inLibrary.dropFirst($0.start).prefix(max(0, ($0.end ?? .max) - $0.start)) } ?? inLibrary[...]
            let rows = Array(shown)
            return .stream(ReplyStream.items(rows.count) { i, out in
                out.append(contentsOf: "file: \(MPDProtocol.value(rows[i].uri))\n\(Self.stickerLine(name, rows[i].value))".utf8)
            })
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

    /// MPD refuses stickers on anything but a song in its database.
    private func requireSong(_ uri: String) throws {
        guard let path = library.path(for: uri), catalog.snapshot.positions[path] != nil else {
            throw MPDProtocol.Ack(code: .noExist, message: "No such song")
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
        case .nameTooLong, .valueTooLong, .outOfRange: .argument
        case .database: .system
        }
        return MPDProtocol.Ack(code: code, message: failure.description)
    }
}
