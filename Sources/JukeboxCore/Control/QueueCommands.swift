/// MPD's commands that change the queue: add, delete, move, swap, shuffle, clear, and
/// consume. Each is one `Player.editQueue` step, refused as a whole with MPD's ACK when a
/// position, id or name is wrong.
extension ControlSession {
    static let queueCommands: [MPDCommand] = [
        .init("add", .change, 1...2) { s, request in try s.add(request.arguments, one: false); return "" },
        .init("addid", .change, 1...2) { s, request in "Id: \(try s.add(request.arguments, one: true)[0])\n" },
        .init("delete", .change, 1...1) { s, request in
            try s.editQueue { draft in
                let range = try ControlSession.range(request.arguments[0], within: draft.count)
                // Nothing to delete is done, as MPD does it.
                if !range.isEmpty { try draft.remove(range) }
            }
            return ""
        },
        .init("deleteid", .change, 1...1) { s, request in
            let id = try ControlSession.unsigned(request.arguments[0], atMost: .max)
            try s.editQueue { draft in
                let at = try draft.position(ofId: id)
                try draft.remove(at..<at + 1)
            }
            return ""
        },
        .init("seek", .change, 2...2) { s, request in try s.seek(request, byId: false); return "" },
        .init("seekid", .change, 2...2) { s, request in try s.seek(request, byId: true); return "" },
        // `prio PRIORITY START:END...` and `prioid PRIORITY ID...`: in random play, higher
        // priorities are played first (a party's "play this soon").
        .init("prio", .change, 2...) { s, request in
            let args = request.arguments
            let priority = try ControlSession.priority(args[0])
            try s.editQueue { draft in
                for range in try args.dropFirst().map({ try ControlSession.range($0, within: draft.count) }) { try draft.setPriority(priority, range) }
            }
            return ""
        },
        .init("prioid", .change, 2...) { s, request in
            let args = request.arguments
            let priority = try ControlSession.priority(args[0])
            let ids = try args.dropFirst().map { try ControlSession.unsigned($0, atMost: .max) }
            try s.editQueue { draft in
                for id in ids {
                    let at = try draft.position(ofId: id)
                    try draft.setPriority(priority, at..<at + 1)
                }
            }
            return ""
        },
        .init("clear", .change, 0...0) { s, _ in
            try s.editQueue { draft in draft.removeAll() }
            return ""
        },
        .init("move", .change, 2...2) { s, request in
            let args = request.arguments
            let from = try ControlSession.parsedRange(args[0])
            guard let end = from.end else { throw MPDProtocol.Ack(code: .argument, message: "Open-ended range not supported") }
            try s.editQueue { draft in
                let range = from.start..<end
                try draft.move(range, to: try ControlSession.destination(args[1], moving: range, in: draft))
            }
            return ""
        },
        .init("moveid", .change, 2...2) { s, request in
            let args = request.arguments
            let id = try ControlSession.unsigned(args[0], atMost: .max)
            try s.editQueue { draft in
                let at = try draft.position(ofId: id)
                try draft.move(at..<at + 1, to: try ControlSession.destination(args[1], moving: at..<at + 1, in: draft))
            }
            return ""
        },
        .init("swap", .change, 2...2) { s, request in
            let args = request.arguments
            let (a, b) = (try ControlSession.unsigned(args[0], atMost: .max), try ControlSession.unsigned(args[1], atMost: .max))
            try s.editQueue { draft in try draft.swap(a, b) }
            return ""
        },
        .init("swapid", .change, 2...2) { s, request in
            let args = request.arguments
            let (a, b) = (try ControlSession.unsigned(args[0], atMost: .max), try ControlSession.unsigned(args[1], atMost: .max))
            try s.editQueue { draft in try draft.swap(try draft.position(ofId: a), try draft.position(ofId: b)) }
            return ""
        },
        .init("shuffle", .change, 0...1) { s, request in
            let args = request.arguments
            try s.editQueue { draft in
                var generator = SystemRandomNumberGenerator()
                try draft.shuffle(args.isEmpty ? 0..<draft.count : try ControlSession.range(args[0], within: draft.count), using: &generator)
            }
            return ""
        },
        .init("consume", .change, 1...1) { s, request in
            let arg = request.arguments[0]
            guard let consume = MPDProtocol.consume(arg) else {
                throw MPDProtocol.Ack(code: .argument, message: "Unrecognized consume mode, expected 0, 1, or oneshot")
            }
            s.player.perform(.setOption(.consume(consume)))
            return ""
        },
    ]

    /// A priority as MPD reads it: a whole number from 0 to 255 (a negative one is "too
    /// large", as MPD reads it unsigned).
    private static func priority(_ text: String) throws -> Int {
        guard let value = Int(text) else { throw MPDProtocol.Ack(code: .argument, message: "Integer expected: \(text.prefix(32))") }
        guard (0...QueueDraft.maximumPriority).contains(value) else { throw MPDProtocol.Ack(code: .argument, message: "Number too large: \(text.prefix(32))") }
        return value
    }

    /// `add URI [POSITION]` (`one`: `addid`, a single file): queues the library's tracks
    /// under the name, or a URL; returns the new entries' ids.
    @discardableResult
    private func add(_ args: [String], one: Bool) throws -> [Int] {
        let found = try tracks(named: args[0])
        guard !found.isEmpty else { throw MPDProtocol.Ack(code: .noExist, message: "No such directory") }
        guard !one || found.count == 1 else { throw MPDProtocol.Ack(code: .noExist, message: "No such song") }
        return try editQueue { draft in
            try draft.insert(found, at: args.count == 2 ? try Self.insertion(args[1], in: draft) : nil)
        }
    }

    /// `seek POSITION TIME` (`byId`: `seekid ID TIME`): the entry playing seeks; another
    /// starts at that time (at the frame the library's format gives, so nothing is heard before it).
    private func seek(_ request: MPDProtocol.Request, byId: Bool) throws {
        let args = request.arguments
        let key = try Self.unsigned(args[0], atMost: .max)
        // Not NaN or infinity, which MPD takes (and seeks nowhere sensible with).
        guard let seconds = Double(args[1]), seconds.isFinite else {
            throw MPDProtocol.Ack(code: .argument, message: "Float expected: \(args[1].prefix(64))")
        }
        guard seconds >= 0 else { throw MPDProtocol.Ack(code: .argument, message: "Negative value not allowed: \(args[1].prefix(64))") }
        let listing = player.listing
        let found = byId ? listing.ids.firstIndex(of: key) : (listing.paths.indices.contains(key) ? key : nil)
        guard let position = found else {
            throw byId ? MPDProtocol.Ack(code: .noExist, message: "No such song") : MPDProtocol.Ack(code: .argument, message: "Bad song index")
        }
        let rate = catalog.snapshot.tags(of: listing.paths[position])?.format?.split(separator: ":").first.flatMap { Int($0) }
        try player.perform { status in
            guard status.tracksVersion == listing.tracksVersion else { throw MPDProtocol.Ack(code: .noExist, message: "No such song") }
            if status.queuePosition == position, status.state != .stopped { return .seek(seconds: seconds) }
            guard let rate else { return .playPosition(position) }
            return .playFrom(position: position, frame: Int64(seconds * Double(rate)))
        }
    }

    /// Applies `change` to the player's queue in one step, turning a refused position or id
    /// into MPD's ACK.
    @discardableResult
    func editQueue<T>(_ change: (inout QueueDraft) throws -> T) throws -> T {
        do {
            return try player.editQueue(change)
        } catch let refusal as QueueDraft.Refusal {
            switch refusal {
            case .badPosition: throw MPDProtocol.Ack(code: .argument, message: "Bad song index")
            case .noSuchId: throw MPDProtocol.Ack(code: .noExist, message: "No such song")
            case .tooLong(let limit): throw MPDProtocol.Ack(code: .playlistMax, message: "Playlist is too large (at most \(limit) songs)")
            }
        }
    }

    /// A URL a client queues: one line of visible characters, of a sane length.
    static func url(_ text: String) throws -> String {
        guard NetworkPlayback.isQueueable(text) else { throw MPDProtocol.Ack(code: .argument, message: "Malformed URL") }
        return text
    }

    /// What `add` and `playlistadd` take from `text`: a URL as it is (the player downloads
    /// it when it comes to it), else the library's tracks under that name.
    func tracks(named text: String) throws -> [String] {
        switch TrackLocation(text) {
        case .url(let url): [try Self.url(url)]
        case .file(let name): library.tracks(named: name, in: catalog.snapshot.tracks.map(\.path))
        }
    }

    /// Where `add`, `addid`, `load` and the like put new entries: a position up to the
    /// queue's end, or `+N`/`-N` counted from the current entry (`+0` right after it), as
    /// MPD takes them.
    static func insertion(_ text: String, in draft: QueueDraft) throws -> Int {
        guard let sign = text.first, sign == "+" || sign == "-" else { return try unsigned(text, atMost: draft.count) }
        guard let current = draft.current else { throw MPDProtocol.Ack(code: .playerSync, message: "No current song") }
        let offset = String(text.dropFirst())
        return sign == "+" ? current + 1 + (try unsigned(offset, atMost: draft.count - current - 1)) : current - (try unsigned(offset, atMost: current))
    }

    /// Where `move` and `moveid` put `range`: a position in the queue without it, or
    /// `+N`/`-N` from the current entry, which may not be among those moved; as MPD reads it.
    static func destination(_ text: String, moving range: Range<Int>, in draft: QueueDraft) throws -> Int {
        guard let sign = text.first, sign == "+" || sign == "-" else { return try unsigned(text, atMost: max(0, draft.count - range.count)) }
        guard var current = draft.current else { throw MPDProtocol.Ack(code: .playerSync, message: "No current song") }
        guard !range.contains(current) else { throw MPDProtocol.Ack(code: .argument, message: "Cannot move current song relative to itself") }
        if current >= range.upperBound { current -= range.count }
        let offset = try unsigned(String(text.dropFirst()), atMost: max(0, draft.count - current - range.count))
        return sign == "+" ? current + 1 + offset : current - offset
    }

    /// A whole number from 0 to `maximum`, refused in MPD's words (a negative one is "too
    /// large", as MPD reads it unsigned).
    static func unsigned(_ text: String, atMost maximum: Int) throws -> Int {
        guard let value = Int(text) else { throw MPDProtocol.Ack(code: .argument, message: "Integer expected: \(text.prefix(64))") }
        guard value >= 0, value <= maximum else { throw MPDProtocol.Ack(code: .argument, message: "Number too large: \(text.prefix(64))") }
        return value
    }
}
