/// MPD's commands that change the queue: add, delete, move, swap, shuffle, clear, and
/// consume. Each is one `Player.editQueue` step, refused as a whole with MPD's ACK when a
/// position, id or name is wrong.
extension ControlSession {
    static let queueCommands = ["add", "addid", "clear", "consume", "delete", "deleteid", "move", "moveid", "seek", "seekid",
                                "shuffle", "swap", "swapid"]

    /// The reply to a queue command; nil when `name` is not one.
    func queueCommand(_ name: String, _ args: [String]) throws -> String? {
        func arguments(_ range: ClosedRange<Int>) throws {
            guard range.contains(args.count) else {
                throw MPDProtocol.Ack(code: .argument, message: "wrong number of arguments for \"\(name)\"")
            }
        }
        switch name {
        case "add", "addid":
            try arguments(1...2)
            let found = try tracks(named: args[0])
            guard !found.isEmpty else { throw MPDProtocol.Ack(code: .noExist, message: "No such directory") }
            guard name == "add" || found.count == 1 else { throw MPDProtocol.Ack(code: .noExist, message: "Not a file") }
            let ids = try editQueue { draft in
                try draft.insert(found, at: args.count == 2 ? try Self.insertion(args[1], in: draft) : nil)
            }
            return name == "addid" ? "Id: \(ids[0])\n" : ""
        case "delete":
            try arguments(1...1)
            try editQueue { draft in try draft.remove(try Self.range(args[0], within: draft.count)) }
        case "deleteid":
            try arguments(1...1)
            let id = try Self.integer(args[0], name)
            try editQueue { draft in
                let at = try draft.position(ofId: id)
                try draft.remove(at..<at + 1)
            }
        case "seek", "seekid":
            // The entry playing seeks; another starts at that time (at the frame the
            // library's format gives, so nothing is heard before it).
            try arguments(2...2)
            let key = try Self.integer(args[0], name)
            guard let seconds = Double(args[1]), seconds.isFinite, seconds >= 0 else {
                throw MPDProtocol.Ack(code: .argument, message: "Number expected: \(args[1].prefix(64))")
            }
            let listing = player.listing
            let found = name == "seek" ? (listing.paths.indices.contains(key) ? key : nil) : listing.ids.firstIndex(of: key)
            guard let position = found else {
                throw MPDProtocol.Ack(code: name == "seek" ? .argument : .noExist, message: name == "seek" ? "Bad song index" : "No such song")
            }
            let rate = catalog.snapshot.tags(of: listing.paths[position])?.format?.split(separator: ":").first.flatMap { Int($0) }
            try player.perform { status in
                guard status.tracksVersion == listing.tracksVersion else { throw MPDProtocol.Ack(code: .noExist, message: "No such song") }
                if status.queuePosition == position, status.state != .stopped { return .seek(seconds: seconds) }
                guard let rate else { return .playPosition(position) }
                return .playFrom(position: position, frame: Int64(seconds * Double(rate)))
            }
        case "prio", "prioid":
            // Not listed in `commands`: priorities order what random plays first, and this
            // box's random gives every entry the same chance. Said plainly, not taken and ignored.
            throw MPDProtocol.Ack(code: .unknown, message: "priorities are not supported: random play gives every entry the same chance")
        case "clear":
            try arguments(0...0)
            try editQueue { draft in draft.removeAll() }
        case "move":
            try arguments(2...2)
            let to = try Self.integer(args[1], name)
            try editQueue { draft in try draft.move(try Self.range(args[0], within: draft.count), to: to) }
        case "moveid":
            try arguments(2...2)
            let (id, to) = (try Self.integer(args[0], name), try Self.integer(args[1], name))
            try editQueue { draft in
                let at = try draft.position(ofId: id)
                try draft.move(at..<at + 1, to: to)
            }
        case "swap":
            try arguments(2...2)
            let (a, b) = (try Self.integer(args[0], name), try Self.integer(args[1], name))
            try editQueue { draft in try draft.swap(a, b) }
        case "swapid":
            try arguments(2...2)
            let (a, b) = (try Self.integer(args[0], name), try Self.integer(args[1], name))
            try editQueue { draft in try draft.swap(try draft.position(ofId: a), try draft.position(ofId: b)) }
        case "shuffle":
            try arguments(0...1)
            try editQueue { draft in
                var generator = SystemRandomNumberGenerator()
                try draft.shuffle(args.isEmpty ? 0..<draft.count : try Self.range(args[0], within: draft.count), using: &generator)
            }
        case "consume":
            try arguments(1...1)
            let on = try Self.boolean(args[0], name)
            player.perform(.setOption(.consume(on)))
        default:
            return nil
        }
        return ""
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

    /// Where `addid`/`add` put new entries: a position, or `+N`/`-N` counted from the
    /// current entry (`+0` right after it), as MPD 0.23 takes them.
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

    static func insertion(_ text: String, in draft: QueueDraft) throws -> Int {
        let bad = MPDProtocol.Ack(code: .argument, message: "Bad song index")
        guard let n = Int(text) else { throw bad }
        guard text.hasPrefix("+") || text.hasPrefix("-") else { return n }
        guard let current = draft.current else { throw MPDProtocol.Ack(code: .argument, message: "No current song") }
        let at = text.hasPrefix("+") ? current + 1 + n : current + n
        guard at >= 0, at <= draft.count else { throw bad }
        return at
    }
}
