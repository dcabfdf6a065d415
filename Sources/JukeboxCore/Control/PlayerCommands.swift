/// MPD's commands for what the player plays and how: playback, seeking, volume, the play
/// options, and the status and queue as clients read them. Each is applied to the player
/// under its lock (`Player.perform`) before the reply is made.
extension ControlSession {
    /// MPD's answer to moving on while stopped.
    static let notPlaying = MPDProtocol.Ack(code: .playerSync, message: "Not playing")

    static let playerCommands: [MPDCommand] = [
        // -1, as no position: MPD's way of saying "whatever is current".
        .init("play", .change, 0...1) { s, request in
            let position = try request.arguments.first.map { try ControlSession.integer($0, request.name) } ?? -1
            guard position != -1 else { s.player.perform(.play); return "" }
            try s.player.perform { status in
                guard position >= 0, position < status.queueLength else {
                    throw MPDProtocol.Ack(code: .argument, message: "Bad song index")
                }
                return .playPosition(position)
            }
            return ""
        },
        .init("playid", .change, 0...1) { s, request in
            let id = try request.arguments.first.map { try ControlSession.integer($0, request.name) } ?? -1
            guard id != -1 else { s.player.perform(.play); return "" }
            let listing = s.player.listing
            guard let position = listing.ids.firstIndex(of: id) else {
                throw MPDProtocol.Ack(code: .noExist, message: "No such song")
            }
            try s.player.perform { status in
                guard status.tracksVersion == listing.tracksVersion else { throw MPDProtocol.Ack(code: .noExist, message: "No such song") }
                return .playPosition(position)
            }
            return ""
        },
        .init("pause", .change, 0...1) { s, request in
            guard let arg = request.arguments.first else { s.player.perform(.toggle); return "" }
            s.player.perform(try ControlSession.boolean(arg, request.name) ? .pause : .play)
            return ""
        },
        .init("stop", .change, 0...0) { s, _ in s.player.perform(.stop); return "" },
        // As MPD's: both need a track to move on from and play on from a pause, and
        // `previous` is the entry above (in random play, the one heard before). The box's
        // own buttons keep a pause and walk back through what was heard.
        .init("next", .change, 0...0) { s, _ in
            var paused = false
            try s.player.perform { status throws(MPDProtocol.Ack) in
                guard status.state != .stopped, status.state != .error else { throw ControlSession.notPlaying }
                paused = status.state == .paused
                return .next
            }
            if paused { s.player.perform(.play) }
            return ""
        },
        .init("previous", .change, 0...0) { s, _ in
            var paused = false
            try s.player.perform { status throws(MPDProtocol.Ack) in
                guard status.state != .stopped, status.state != .error, let current = status.queuePosition else {
                    throw ControlSession.notPlaying
                }
                paused = status.state == .paused
                guard !status.options.random else { return .previous }
                return .playPosition(current > 0 ? current - 1 : status.options.repeat ? status.queueLength - 1 : 0)
            }
            if paused { s.player.perform(.play) }
            return ""
        },
        .init("seekcur", .change, 1...1) { s, request in
            let arg = request.arguments[0]
            guard let seconds = Double(arg), seconds.isFinite else {
                throw MPDProtocol.Ack(code: .argument, message: "Float expected: \(arg.prefix(64))")
            }
            // As MPD: only into a track that plays or is paused.
            try s.player.perform { status throws(MPDProtocol.Ack) in
                guard status.state != .stopped, status.state != .error else { throw ControlSession.notPlaying }
                return arg.hasPrefix("+") || arg.hasPrefix("-") ? .skip(seconds: seconds) : .seek(seconds: seconds)
            }
            return ""
        },
        // The box plays tracks end to end (gapless albums, audiobooks): no crossfade to set.
        .init("crossfade", .change, 1...1) { _, request in
            let seconds = try ControlSession.unsigned(request.arguments[0], atMost: .max)
            guard seconds == 0 else { throw MPDProtocol.Ack(code: .argument, message: "crossfade is not supported: tracks play gapless, end to end") }
            return ""
        },
        // MixRamp overlaps tracks by their loudness, a crossfade's way, and the box has none:
        // it takes what leaves MixRamp off (the threshold the status gives, MPD's 0 dB;
        // no delay: `nan` or one below zero, as MPD has it) and refuses the rest.
        .init("mixrampdb", .change, 1...1) { _, request in
            guard try ControlSession.float(request.arguments[0]) == 0 else { throw ControlSession.noMixRamp }
            return ""
        },
        .init("mixrampdelay", .change, 1...1) { _, request in
            guard !(try ControlSession.float(request.arguments[0]) > 0) else { throw ControlSession.noMixRamp }
            return ""
        },
        .init("clearerror", .change, 0...0) { s, _ in s.player.perform(.clearError); return "" },
        .init("getvol", .read, 0...0) { s, _ in "volume: \(s.player.status.volume)\n" },
        .init("setvol", .change, 1...1) { s, request in
            s.player.perform(.setVolume(try ControlSession.unsigned(request.arguments[0], atMost: 100)))
            return ""
        },
        .init("volume", .change, 1...1) { s, request in
            let arg = request.arguments[0]
            let delta = try ControlSession.integer(arg, request.name)
            guard (-100...100).contains(delta) else { throw MPDProtocol.Ack(code: .argument, message: "Number too large: \(arg.prefix(64))") }
            // Read and set in one step under the player's lock, so a button press in between is kept.
            s.player.perform { status in .setVolume(status.volume + delta) }
            return ""
        },
        // Not MPD's: the playback speed, pitch kept (audiobooks). `speed` alone says it.
        .init("speed", .change, 0...1) { s, request in
            guard let arg = request.arguments.first else { return "speed: \(PlaybackSpeed.text(s.player.status.speed))\n" }
            guard let speed = Double(arg), PlaybackSpeed.range.contains(speed) else {
                throw MPDProtocol.Ack(code: .argument, message: "Speed from 0.5 to 2 expected: \(arg.prefix(64))")
            }
            s.player.perform(.setSpeed(speed))
            return ""
        },
        // Each switch set on its own, under the player's lock.
        .init("single", .change, 1...1) { s, request in
            let arg = request.arguments[0]
            guard let single = MPDProtocol.single(arg) else {
                throw MPDProtocol.Ack(code: .argument, message: "Unrecognized single mode, expected 0, 1, or oneshot")
            }
            s.player.perform(.setOption(.single(single)))
            return ""
        },
        .init("random", .change, 1...1) { s, request in
            s.player.perform(.setOption(.random(try ControlSession.boolean(request.arguments[0], request.name))))
            return ""
        },
        .init("repeat", .change, 1...1) { s, request in
            s.player.perform(.setOption(.repeat(try ControlSession.boolean(request.arguments[0], request.name))))
            return ""
        },
        .init("replay_gain_mode", .change, 1...1) { s, request in
            guard let mode = ReplayGainMode(rawValue: request.arguments[0]) else {
                throw MPDProtocol.Ack(code: .argument, message: "Unrecognized replay gain mode")
            }
            s.player.perform(.setReplayGainMode(mode))
            return ""
        },
        .init("replay_gain_status", .read, 0...0) { s, _ in "replay_gain_mode: \(s.player.status.replayGainMode.rawValue)\n" },
        .init("status", .read, 0...0) { s, _ in
            var status = s.player.status
            // Until the track opens, its length and format are the library's: MPD answers
            // `play` once its decoder has started, so a client that asks for the status
            // right after (mpc does) sees them at once.
            let started = status.state != .stopped && status.state != .error
            var format: String?
            if status.duration == 0, started, let path = status.path, let known = s.catalog.snapshot.tags(of: path) {
                status.duration = known.seconds
                format = known.format
            }
            return .text(ControlSession.status(status, bitrate: started ? s.averageBitrate(status) : nil,
                                               updating: s.catalog.updatingJob, format: format))
        },
        .init("currentsong", .read, 0...0) { s, _ in
            let status = s.player.status
            guard let spot = status.selected, let path = status.path ?? s.player.listing.paths[safe: spot.position] else { return "" }
            return .text(s.song(path: path, spot: spot, tags: s.tags(of: path, position: spot.position, status: status, catalog: s.catalog.snapshot)))
        },
        .init("plchanges", .read, 1...2) { s, request in try s.changes(request, positionsAndIds: false) },
        .init("plchangesposid", .read, 1...2) { s, request in try s.changes(request, positionsAndIds: true) },
        .init("playlistinfo", .read, 0...1) { s, request in
            let status = s.player.status
            let listing = s.player.listing
            let range = try request.arguments.first.map { try ControlSession.range($0, within: listing.paths.count) } ?? 0..<listing.paths.count
            return .stream(s.songs(range, of: listing, status: status))
        },
        // MPD's oldest queue listing, still sent by some clients: `POSITION:file: NAME`.
        .init("playlist", .read, 0...0) { s, _ in
            let listing = s.player.listing
            let library = s.library
            return .stream(ReplyStream.items(listing.paths.count) { i, out in
                out.append(contentsOf: "\(i):file: \(MPDProtocol.value(library.uri(listing.paths[i])))\n".utf8)
            })
        },
        .init("playlistid", .read, 0...1) { s, request in
            let status = s.player.status
            let listing = s.player.listing
            var range = 0..<listing.paths.count
            if let arg = request.arguments.first {
                let id = try ControlSession.unsigned(arg, atMost: .max)
                guard let at = listing.ids.firstIndex(of: id) else { throw MPDProtocol.Ack(code: .noExist, message: "No such song") }
                range = at..<at + 1
            }
            return .stream(s.songs(range, of: listing, status: status))
        },
    ]

    private static let noMixRamp = MPDProtocol.Ack(code: .argument, message: "MixRamp is not supported: tracks play gapless, end to end")

    /// A number as MPD reads one (`nan` and `inf` too).
    static func float(_ text: String) throws -> Float {
        guard let value = Float(text) else { throw MPDProtocol.Ack(code: .argument, message: "Float expected: \(text.prefix(64))") }
        return value
    }

    /// `plchanges VERSION [START:END]`: the entries changed since that queue version, as
    /// songs, or (`plchangesposid`) as positions and ids.
    private func changes(_ request: MPDProtocol.Request, positionsAndIds: Bool) throws -> Reply {
        let args = request.arguments
        let since = try Self.integer(args[0], request.name)
        let status = player.status
        let listing = player.listing
        var positions = listing.changed(since: since)
        if args.count == 2 {
            // As MPD: a range past the end holds no changes.
            let range = try Self.parsedRange(args[1])
            positions = positions.filter { $0 >= range.start && $0 < range.end ?? .max }
        }
        guard positionsAndIds else { return .stream(songs(positions, of: listing, status: status)) }
        return .stream(ReplyStream.items(positions.count) { k, out in
            out.append(contentsOf: "cpos: \(positions[k])\nId: \(listing.ids[positions[k]])\n".utf8)
        })
    }
}
