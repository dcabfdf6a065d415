/// MPD's commands that change one queue entry's song rather than the queue: the tags a
/// stream is shown with (`addtagid`, `cleartagid`) and the part of a song that plays
/// (`rangeid`). Arguments, ids and MPD's own refusals (a local file's tags, the song
/// playing) are answered as MPD answers them; what the box cannot do is refused with
/// the reason.
extension ControlSession {
    static let songEditCommands: [MPDCommand] = [
        .init("addtagid", .change, 3...3) { s, request in
            let id = try ControlSession.songId(request.arguments[0])
            _ = try ControlSession.tag(request.arguments[1])
            try s.refuseTagEdit(id)
        },
        .init("cleartagid", .change, 1...2) { s, request in
            let id = try ControlSession.songId(request.arguments[0])
            if request.arguments.count == 2 { _ = try ControlSession.tag(request.arguments[1]) }
            try s.refuseTagEdit(id)
        },
        .init("rangeid", .change, 2...2) { s, request in
            let id = try ControlSession.songId(request.arguments[0])
            let range = try ControlSession.songRange(request.arguments[1])
            let listing = s.player.listing
            guard let position = listing.ids.firstIndex(of: id) else { throw MPDProtocol.Ack(code: .noExist, message: "No such song") }
            let status = s.player.status
            if status.state != .stopped, status.queuePosition == position {
                throw MPDProtocol.Ack(code: .permission, message: "Cannot edit the current song")
            }
            // The player plays whole files and keeps no range per entry: the whole song
            // (`0:`, `:`) is what it plays already, and anything else is refused.
            guard range.start == 0, range.end == nil else {
                throw MPDProtocol.Ack(code: .unknown, message: "song ranges are not supported: the player plays whole songs")
            }
            return ""
        },
    ]

    /// MPD's answer to editing the tags of the entry `id`: a local file's are the file's,
    /// as in MPD; a stream's are what the stream says, which the player keeps no other
    /// copy of.
    private func refuseTagEdit(_ id: Int) throws -> Never {
        let listing = player.listing
        guard let position = listing.ids.firstIndex(of: id) else { throw MPDProtocol.Ack(code: .noExist, message: "No such song") }
        guard case .url = TrackLocation(listing.paths[position]) else {
            throw MPDProtocol.Ack(code: .permission, message: "Cannot edit tags of local file")
        }
        throw MPDProtocol.Ack(code: .unknown, message: "editing a stream's tags is not supported: it is shown as the stream names itself")
    }

    /// A song id as MPD reads one, unsigned: a negative number is "too large", as its
    /// unsigned parse makes it.
    static func songId(_ text: String) throws -> Int {
        guard let n = Int(text) else { throw MPDProtocol.Ack(code: .argument, message: "Integer expected: \(text.prefix(64))") }
        guard n >= 0 else { throw MPDProtocol.Ack(code: .argument, message: "Number too large: \(text.prefix(64))") }
        return n
    }

    static func tag(_ name: String) throws -> MPDTag {
        guard let tag = MPDTag(named: name) else { throw MPDProtocol.Ack(code: .argument, message: "Unknown tag type: \(name.prefix(64))") }
        return tag
    }

    /// `START:END` in seconds as MPD reads it for `rangeid`: either side may be left out
    /// (the start is then 0, the end the song's), and an end of 0 is the song's end too.
    /// An end of nil: the song's.
    static func songRange(_ text: String) throws -> (start: Double, end: Double?) {
        let bad = MPDProtocol.Ack(code: .argument, message: "Bad range")
        guard let colon = text.firstIndex(of: ":") else { throw bad }
        func seconds(_ part: Substring) throws -> Double {
            let number = part.drop { $0 == " " || $0 == "\t" }
            guard !part.isEmpty else { return 0 }
            guard let value = Double(number), value >= 0 else { throw bad }
            return value
        }
        let (start, end) = (try seconds(text[..<colon]), try seconds(text[text.index(after: colon)...]))
        guard end == 0 || end > start else { throw bad }
        return (start, end == 0 ? nil : end)
    }
}
