#if canImport(Glibc)
import Glibc
#endif

/// One client's conversation: turns request lines into player commands and status
/// replies. It keeps the command-list state, so a half-sent list or a bad line only ever
/// affects this client.
///
/// Commands are applied to the player before the reply is made (`Player.perform`), so
/// `OK` means the player's state machine has taken the command; the audible change
/// follows within an ALSA period. After `play`, `currentsong` therefore names the track
/// at once (file, Pos, Id); its tags and duration appear once the decoder has opened it.
public final class ControlSession {
    public enum Outcome: Equatable {
        case reply(String)
        /// Send this, then close: the client broke a limit.
        case replyAndClose(String)
        /// A reply holding binary data (a picture chunk).
        case replyBytes([UInt8])
        /// A reply made as the client reads it, ending with its `OK` (or ACK).
        case stream(ReplyStream)
        case close
        case none
    }

    let player: Player
    /// Files are named to clients relative to this folder, as MPD's URIs are.
    let library: LibraryPaths
    /// The library's tracks and tags, as the last scan left them.
    let catalog: LibraryCatalog
    /// The playlists clients keep (`[library] playlists_dir`).
    let playlists: StoredPlaylists
    /// The audio devices in priority order (`[audio] devices`), each switched on or off.
    let outputs: OutputSwitches
    /// Tells every idle client (this one too) of a change the player does not report:
    /// a stored playlist written.
    var announce: (IdleSubsystems) -> Void = { _ in }
    /// Long replies are streamed (`Outcome.stream`) rather than made whole: the server
    /// sets it. Otherwise they come as one `reply`.
    var streamsReplies = false
    /// Runs file reads off the control thread, and tells it when one is done: the
    /// server's file thread. By default, at once.
    var background: (@escaping @Sendable () -> Void) -> Void = { $0() }
    /// Connected through the Unix socket, from this machine: only such a client may ask
    /// for `config`, as in MPD.
    let local: Bool
    /// `[control] password`; empty: none.
    private let password: String
    /// Whether this client may change anything: on the Unix socket, with no password set,
    /// or once it sent the password. Otherwise it may only read (MPD's "read" permission).
    private(set) var mayChange: Bool
    /// Wrong passwords this client sent: the server answers each later than the last,
    /// and closes the connection after a few.
    private(set) var wrongPasswords = 0
    /// The tags this client asked for (`tagtypes`); all of them at first.
    private var tags = Set(MPDTag.allCases) {
        didSet { listedTags = MPDTag.allCases.filter(tags.contains) }
    }
    /// The same, in the order songs list them (looked up once, not for every song).
    private(set) var listedTags = MPDTag.allCases
    /// The largest binary chunk this client takes (`binarylimit`; MPD's default 8192).
    var binaryLimit = 8192
    /// The current file's average bitrate, worked out once per track.
    var bitrate: (path: String, kbps: Int?)?
    private let maximumCommandListBytes: Int
    private var list: [String]?
    /// A list that has ended and is being run, a bounded number of commands per call, so
    /// a long list does not hold up the other clients.
    private var running: (lines: [String], next: Int)?
    private let commandsPerCall: Int
    private var listBytes = 0
    private var listOK = false
    /// Longest request line accepted; MPD closes such clients too.
    public static let maximumLineLength = 4096

    /// Whether an ended list still has commands to run (`continueList`).
    public var isRunningList: Bool { running != nil }

    /// While in `idle`: the subsystems it waits for.
    private var idleFor: IdleSubsystems?
    /// Changes since this client's last `idle` answer: an `idle` sent after them returns at once.
    private var changesSeen: IdleSubsystems = []

    /// Whether the client waits in `idle` (the server then never times it out).
    public var isIdle: Bool { idleFor != nil }

    /// Something changed: the reply that ends this client's `idle`, if it waits for it.
    public func changed(_ subsystems: IdleSubsystems) -> String? {
        changesSeen.formUnion(subsystems)
        return idleAnswer(force: false)
    }

    /// The `changed:` lines and OK for a waiting client, when any of what it waits for
    /// has changed (or `force`, for noidle); those changes are then reported.
    private func idleAnswer(force: Bool) -> String? {
        guard let waiting = idleFor else { return nil }
        let due = changesSeen.intersection(waiting)
        guard !due.isEmpty || force else { return nil }
        idleFor = nil
        changesSeen.subtract(due)
        return due.idleAnswer
    }

    public init(player: Player, scope: ControlServer.Scope = .init(), catalog: LibraryCatalog = LibraryCatalog(),
                outputs: OutputSwitches = OutputSwitches(devices: ["default"]), local: Bool = true, password: String = "",
                maximumCommandListBytes: Int = ControlServer.Limits().maximumCommandListBytes,
                commandsPerCall: Int = .max) {
        self.player = player
        self.outputs = outputs
        self.local = local
        self.password = password
        mayChange = local || password.isEmpty
        self.catalog = catalog
        library = LibraryPaths(musicDirectory: scope.musicDirectory)
        playlists = StoredPlaylists(folder: scope.playlistsDirectory)
        self.commandsPerCall = max(1, commandsPerCall)
        self.maximumCommandListBytes = maximumCommandListBytes
    }

    public func handle(line rawLine: String) -> Outcome {
        let line = rawLine.utf8.last == UInt8(ascii: "\r") ? String(rawLine.dropLast()) : rawLine
        if idleFor != nil {
            // In idle only noidle is taken, as in MPD; anything else ends the connection.
            guard line.trimmingSpaces == "noidle" else {
                return .replyAndClose(Self.ack(.init(code: .argument, message: "only noidle is allowed in idle"), index: 0, command: Self.commandName(line)))
            }
            return idleAnswer(force: true).map(Outcome.reply) ?? .none
        }
        if list != nil {
            if line == "command_list_end" {
                running = (list ?? [], 0)
                list = nil
                return continueList()
            }
            listBytes += line.utf8.count + 1
            guard listBytes <= maximumCommandListBytes else {
                // As MPD does: the rest of the list would run as single commands, so the client goes.
                list = nil
                let limit = "\(maximumCommandListBytes >> 10) KiB"
                return .replyAndClose(Self.ack(.init(code: .system, message: "command list is longer than \(limit) (max_command_list_size)"),
                                               index: 0, command: listOK ? "command_list_ok_begin" : "command_list_begin"))
            }
            list?.append(line)  // in place: a copy per line made long lists quadratic
            return .none
        }
        // The line is split once; what is not a plain command is told by its first word.
        do {
            let request = try MPDProtocol.request(line)
            let alone = request?.arguments.isEmpty ?? false
            let command = request.flatMap { Self.commandsByName[$0.name] }
            switch command {
            case .idle?: return idle(request?.arguments ?? [])
            case .listBegin? where alone: list = []; listBytes = 0; listOK = false; return .none
            case .listOKBegin? where alone: list = []; listBytes = 0; listOK = true; return .none
            case .close? where alone: return .close
            case .noidle? where alone: return .none  // not idle: nothing to end, and MPD sends nothing
            case .albumart?, .readpicture?:
                // Pictures answer in binary, so outside command lists only (as clients send them).
                if let request, let bytes = try pictureReply(request) { return .replyBytes(bytes) }
            default: break
            }
            switch try execute(request, command) {
            case .text(var reply):
                reply += "OK\n"  // in place: a listing can be megabytes
                return .reply(reply)
            case .stream(let stream):
                return streamed(finishing(stream, prefix: "", ending: "OK\n", index: 0, command: Self.commandName(line)))
            }
        } catch let ack as MPDProtocol.Ack {
            return .reply(Self.ack(ack, index: 0, command: Self.commandName(line)))
        } catch {
            return .reply(Self.ack(.init(code: .system, message: "\(error)"), index: 0, command: Self.commandName(line)))
        }
    }

    /// `idle [SUBSYSTEM...]`: answers when one of them (any, without names) changes, at
    /// once if one changed since the client's last idle.
    private func idle(_ names: [String]) -> Outcome {
        var wanted: IdleSubsystems = []
        for name in names {
            guard let subsystem = IdleSubsystem.named[name.lowercased()] else {
                return .reply(Self.ack(.init(code: .argument, message: "Unrecognized idle event: \(name.prefix(64))"), index: 0, command: "idle"))
            }
            wanted.insert(subsystem.only)
        }
        idleFor = wanted.isEmpty ? .all : wanted
        return idleAnswer(force: false).map(Outcome.reply) ?? .none
    }

    /// Runs the next commands of an ended list, at most `commandsPerCall` of them, and
    /// returns their replies; the list's last reply ends with `OK` (or its ACK).
    public func continueList() -> Outcome {
        guard let (lines, first) = running else { return .none }
        let end = lines.count - first <= commandsPerCall ? lines.count : first + commandsPerCall
        var out = ""
        for i in first..<end {
            do {
                let request = try MPDProtocol.request(lines[i])
                switch try execute(request, request.flatMap { Self.commandsByName[$0.name] }) {
                case .text(let text):
                    out += text
                case .stream(let stream):
                    // The list goes on after this reply has been read.
                    let last = i + 1 == lines.count
                    running = last ? nil : (lines, i + 1)
                    let ending = (listOK ? "list_OK\n" : "") + (last ? "OK\n" : "")
                    return streamed(finishing(stream, prefix: out, ending: ending, index: i, command: Self.commandName(lines[i])))
                }
                if listOK { out += "list_OK\n" }
            } catch let ack as MPDProtocol.Ack {
                running = nil
                return .reply(out + Self.ack(ack, index: i, command: Self.commandName(lines[i])))
            } catch {
                running = nil
                return .reply(out + Self.ack(.init(code: .system, message: "\(error)"), index: i, command: Self.commandName(lines[i])))
            }
        }
        guard end < lines.count else {
            running = nil
            return .reply(out + "OK\n")
        }
        running = (lines, end)
        return .reply(out)
    }

    /// `stream` between `prefix` and `ending`; an ACK it throws ends it, and the list it is in.
    private func finishing(_ stream: ReplyStream, prefix: String, ending: String, index: Int, command: String) -> ReplyStream {
        var started = false
        return ReplyStream { [unowned self] out in
            if !started {
                out.append(contentsOf: prefix.utf8)
                started = true
            }
            do {
                let step = try stream.produce(into: &out)
                if step == .done { out.append(contentsOf: ending.utf8) }
                return step
            } catch {
                running = nil
                let ack = error as? MPDProtocol.Ack ?? MPDProtocol.Ack(code: .system, message: "\(error)")
                out.append(contentsOf: Self.ack(ack, index: index, command: command).utf8)
                return .done
            }
        }
    }

    /// The outcome for a streamed reply: the stream itself for the server, or the text
    /// it makes for a caller that takes replies whole.
    private func streamed(_ stream: ReplyStream) -> Outcome {
        guard !streamsReplies else { return .stream(stream) }
        return .reply((try? stream.drained()) ?? "")
    }

    /// `read` on the file thread (`background`), then `then` with what it read, on the
    /// control thread; the reply waits meanwhile, and the other clients do not.
    func afterReading<T: Sendable>(_ read: @escaping @Sendable () throws -> T, then: @escaping (T) throws -> Reply) -> Reply {
        let done = ConditionLocked<Result<T, any Error>?>(nil)
        background {
            let result = Result { try read() }
            done.withLock { $0.wholeValue = result }
        }
        var after: ReplyStream?
        return .stream(ReplyStream { out in
            if let after { return try after.produce(into: &out) }
            guard let result = done.withLock({ $0.wholeValue }) else { return .waiting }
            switch try then(result.get()) {
            case .text(let text):
                out.append(contentsOf: text.utf8)
                return .done
            case .stream(let stream):
                after = stream
                return .more
            }
        })
    }

    static func ack(_ ack: MPDProtocol.Ack, index: Int, command: String) -> String {
        "ACK [\(ack.code.rawValue)@\(index)] {\(command)} \(MPDProtocol.value(ack.message))\n"
    }

    /// The first word as written, for ACK lines, even when the rest does not parse.
    static func commandName(_ line: String) -> String {
        let first = line.drop { $0 == " " || $0 == "\t" }.prefix { $0 != " " && $0 != "\t" }
        return String(first.prefix(64).filter { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    /// The formats the box plays, as MPD's `decoders` lists its plugins.
    static let decoders = "plugin: flac\nsuffix: flac\nmime_type: audio/flac\nmime_type: audio/x-flac\n"
        + "plugin: mpg123\nsuffix: mp3\nmime_type: audio/mpeg\n"
        + "plugin: wave\nsuffix: wav\nmime_type: audio/wav\nmime_type: audio/x-wav\n"

    /// What a client without the password may run: everything that only reads (MPD's
    /// "read" permission).
    static let readCommands: Set<String> = [
        "albumart", "binarylimit", "close", "command_list_begin", "command_list_end", "command_list_ok_begin", "commands", "count",
        "currentsong", "decoders", "find", "getvol", "idle", "list", "listall", "listallinfo", "listfiles", "listplaylist", "listplaylistinfo",
        "listplaylists", "lsinfo", "noidle", "notcommands", "outputs", "password", "ping", "playlistfind", "playlistid", "playlistinfo",
        "playlistsearch", "plchanges", "plchangesposid", "readpicture", "search", "stats", "status", "tagtypes", "urlhandlers",
    ]

    /// Compares every byte, whatever differs first, so the time taken tells nothing.
    static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        var differ = x.count ^ y.count
        for i in 0..<min(x.count, y.count) { differ |= Int(x[i] ^ y[i]) }
        return differ == 0
    }

    static let commands = (["clearerror", "close", "config", "password", "decoders", "disableoutput", "enableoutput", "notcommands", "outputs",
                            "toggleoutput", "urlhandlers", "command_list_begin", "command_list_end", "command_list_ok_begin", "commands",
                            "currentsong", "getvol", "idle", "next", "noidle", "pause", "ping", "play", "playid", "playlistid", "playlistinfo", "plchanges",
                            "plchangesposid", "previous", "random", "repeat", "rescan", "seekcur", "setvol", "single", "status", "stop",
                            "tagtypes", "update", "volume"] + queueCommands + databaseCommands + searchCommands + pictureCommands + playlistCommands).sorted()

    /// The commands this file answers, found by one hashed lookup per line (a `switch`
    /// over their names compared the name with each case in turn). The others are the
    /// queue's, the library's, searching's and the stored playlists'.
    private enum Command: String, CaseIterable {
        case password, ping, outputs, enableoutput, disableoutput, toggleoutput, decoders, urlhandlers, notcommands
        case clearerror, config, binarylimit, update, rescan, commands, commandlist, play, playid, pause, stop, next
        case previous, seekcur, getvol, setvol, volume, random, `repeat`, single, tagtypes, status, currentsong
        case plchanges, plchangesposid, playlistinfo, playlistid
        /// About the connection itself: taken before `execute`, and outside command lists only.
        case idle, close, noidle, albumart, readpicture
        case listBegin = "command_list_begin", listOKBegin = "command_list_ok_begin"
    }
    private static let commandsByName = Dictionary(uniqueKeysWithValues: Command.allCases.map { ($0.rawValue, $0) })

    // MARK: Commands

    /// Runs one command; `command` is its name looked up in `commandsByName`.
    private func execute(_ request: MPDProtocol.Request?, _ command: Command?) throws -> Reply {
        guard let request else { throw MPDProtocol.Ack(code: .unknown, message: "No command given") }
        let name = request.name
        let args = request.arguments
        func arguments(_ range: ClosedRange<Int>) throws {
            guard range.contains(args.count) else {
                throw MPDProtocol.Ack(code: .argument, message: "wrong number of arguments for \"\(name)\"")
            }
        }
        guard mayChange || Self.readCommands.contains(name) || !Self.commands.contains(name) else {
            throw MPDProtocol.Ack(code: .permission, message: "you don't have permission for \"\(name)\"")
        }
        switch command {
        case .password?:
            try arguments(1...1)
            guard !password.isEmpty, Self.same(args[0], password) else {
                wrongPasswords += 1
                throw MPDProtocol.Ack(code: .password, message: "incorrect password")
            }
            mayChange = true
        case .ping?:
            try arguments(0...0)
            return ""
        case .outputs?:
            // The devices of the route, in priority order; the one playing says so.
            try arguments(0...0)
            let route = player.status.route
            return .text(outputs.listed.enumerated().map { id, output in
                var entry = "outputid: \(id)\noutputname: \(MPDProtocol.value(output.device))\n"
                entry += "plugin: \(output.device == NullOutput.deviceName ? "null" : "alsa")\noutputenabled: \(output.on ? 1 : 0)\n"
                if case .playingOn(let playing) = route, playing == output.device { entry += "attribute: playing=1\n" }
                return entry
            }.joined())
        case .enableoutput?, .disableoutput?, .toggleoutput?:
            try arguments(1...1)
            let id = try Self.integer(args[0], name)
            do {
                if try outputs.set(id, on: name == "toggleoutput" ? nil : name == "enableoutput") { announce([.output]) }
            } catch {
                throw MPDProtocol.Ack(code: .noExist, message: "No such audio output")
            }
        case .decoders?:
            try arguments(0...0)
            return .text(Self.decoders)
        case .urlhandlers?:
            try arguments(0...0)
            return "handler: http://\nhandler: https://\n"
        case .notcommands?:
            // What this client may not run until it sends the password.
            try arguments(0...0)
            return .text(mayChange ? "" : Self.commands.filter { !Self.readCommands.contains($0) }.map { "command: \($0)\n" }.joined())
        case .clearerror?:
            try arguments(0...0)
            player.perform(.clearError)
        case .config?:
            try arguments(0...0)
            guard local else { throw MPDProtocol.Ack(code: .permission, message: "Command only permitted to local clients") }
            return "music_directory: \(MPDProtocol.value(String(library.root.dropLast())))\n"
        case .binarylimit?:
            try arguments(1...1)
            let limit = try Self.integer(args[0], name)
            guard limit >= 64 else { throw MPDProtocol.Ack(code: .argument, message: "Value too small") }
            binaryLimit = min(limit, ControlServer.Limits().maximumCommandListBytes)
        case .update?, .rescan?:
            // The whole library is checked whatever the name: by folder time, that costs
            // little more than the folder named, and a new folder is found anyway.
            try arguments(0...1)
            if let uri = args.first, library.path(for: uri) == nil { throw MPDProtocol.Ack(code: .argument, message: "Malformed path") }
            guard let job = catalog.requestUpdate(everything: name == "rescan") else {
                throw MPDProtocol.Ack(code: .noExist, message: "No database")
            }
            return "updating_db: \(job)\n"
        case .commands?, .commandlist?:
            return .text(Self.commands.filter { mayChange || Self.readCommands.contains($0) }.map { "command: \($0)\n" }.joined())
        case .play?:
            try arguments(0...1)
            if let arg = args.first {
                let position = try Self.integer(arg, name)
                try player.perform { status in
                    guard position >= 0, position < status.queueLength else {
                        throw MPDProtocol.Ack(code: .argument, message: "Bad song index")
                    }
                    return .playPosition(position)
                }
            } else {
                player.perform(.play)
            }
        case .playid?:
            try arguments(0...1)
            guard let arg = args.first else { player.perform(.play); break }
            let id = try Self.integer(arg, name)
            let listing = player.listing
            guard let position = listing.ids.firstIndex(of: id) else {
                throw MPDProtocol.Ack(code: .noExist, message: "No such song")
            }
            try player.perform { status in
                guard status.tracksVersion == listing.tracksVersion else { throw MPDProtocol.Ack(code: .noExist, message: "No such song") }
                return .playPosition(position)
            }
        case .pause?:
            try arguments(0...1)
            if let arg = args.first {
                player.perform(try Self.boolean(arg, name) ? .pause : .play)
            } else {
                player.perform(.toggle)
            }
        case .stop?: try arguments(0...0); player.perform(.stop)
        case .next?: try arguments(0...0); player.perform(.next)
        case .previous?: try arguments(0...0); player.perform(.previous)
        case .seekcur?:
            try arguments(1...1)
            let arg = args[0]
            guard let seconds = Double(arg), seconds.isFinite else {
                throw MPDProtocol.Ack(code: .argument, message: "Number expected: \(arg)")
            }
            player.perform(arg.hasPrefix("+") || arg.hasPrefix("-") ? .skip(seconds: seconds) : .seek(seconds: seconds))
        case .getvol?:
            try arguments(0...0)
            return "volume: \(player.status.volume)\n"
        case .setvol?:
            try arguments(1...1)
            let v = try Self.integer(args[0], name)
            guard (0...100).contains(v) else { throw MPDProtocol.Ack(code: .argument, message: "Invalid volume value") }
            player.perform(.setVolume(v))
        case .volume?:
            try arguments(1...1)
            let delta = try Self.integer(args[0], name)
            guard (-100...100).contains(delta) else { throw MPDProtocol.Ack(code: .argument, message: "Invalid volume value") }
            // Read and set in one step under the player's lock, so a button press in between is kept.
            player.perform { status in .setVolume(status.volume + delta) }
        // Each switch set on its own, under the player's lock.
        case .single?:
            try arguments(1...1)
            guard let single = MPDProtocol.single(args[0]) else {
                throw MPDProtocol.Ack(code: .argument, message: "Boolean (0/1) or \"oneshot\" expected: \(args[0].prefix(64))")
            }
            player.perform(.setOption(.single(single)))
        case .random?:
            try arguments(1...1)
            player.perform(.setOption(.random(try Self.boolean(args[0], name))))
        case .`repeat`?:
            try arguments(1...1)
            player.perform(.setOption(.repeat(try Self.boolean(args[0], name))))
        case .tagtypes?:
            guard let sub = args.first else { return .text(MPDTag.allCases.filter(tags.contains).map { "tagtype: \($0.rawValue)\n" }.joined()) }
            switch sub {
            case "all": tags = Set(MPDTag.allCases)
            case "clear": tags = []
            case "enable", "disable":
                guard args.count > 1 else { throw MPDProtocol.Ack(code: .argument, message: "Not enough arguments") }
                for word in args.dropFirst() where !MPDTag.isKnown(word) {
                    throw MPDProtocol.Ack(code: .argument, message: "Unknown tag type: \(word.prefix(64))")
                }
                let named = args.dropFirst().compactMap(MPDTag.init(named:))
                if sub == "enable" { tags.formUnion(named) } else { tags.subtract(named) }
            default:
                throw MPDProtocol.Ack(code: .argument, message: "Unknown sub command")
            }
        case .status?:
            try arguments(0...0)
            let status = player.status
            return .text(Self.status(status, bitrate: status.state == .playing || status.state == .paused ? averageBitrate(status) : nil,
                                     updating: catalog.updatingJob))
        case .currentsong?:
            try arguments(0...0)
            let s = player.status
            guard let spot = s.selected, let path = s.path ?? player.listing.paths[safe: spot.position] else { return "" }
            return .text(song(path: path, spot: spot, tags: tags(of: path, position: spot.position, status: s, catalog: catalog.snapshot)))
        case .plchanges?, .plchangesposid?:
            try arguments(1...2)
            let since = try Self.integer(args[0], name)
            let s = player.status
            let listing = player.listing
            var positions = listing.changed(since: since)
            if args.count == 2 {
                let range = try Self.range(args[1], within: listing.paths.count)
                positions = positions.filter(range.contains)
            }
            if name == "plchangesposid" {
                return .stream(ReplyStream.items(positions.count) { k, out in
                    out.append(contentsOf: "cpos: \(positions[k])\nId: \(listing.ids[positions[k]])\n".utf8)
                })
            }
            return .stream(songs(positions, of: listing, status: s))
        case .playlistinfo?, .playlistid?:
            try arguments(0...1)
            let s = player.status
            let listing = player.listing
            var range = 0..<listing.paths.count
            if let arg = args.first {
                if name == "playlistid" {
                    let id = try Self.integer(arg, name)
                    guard let at = listing.ids.firstIndex(of: id) else { throw MPDProtocol.Ack(code: .noExist, message: "No such song") }
                    range = at..<at + 1
                } else {
                    range = try Self.range(arg, within: listing.paths.count)
                }
            }
            return .stream(songs(range, of: listing, status: s))
        case nil, .idle?, .close?, .noidle?, .albumart?, .readpicture?, .listBegin?, .listOKBegin?:
            if let reply = try queueCommand(name, args) { return .text(reply) }
            if let reply = try databaseCommand(name, args) ?? searchCommand(name, args) ?? playlistCommand(name, args) { return reply }
            throw MPDProtocol.Ack(code: .unknown, message: "unknown command \"\(String(name.prefix(64)))\"")
        }
        return ""
    }

    static func integer(_ text: String, _ command: String) throws -> Int {
        guard let n = Int(text) else { throw MPDProtocol.Ack(code: .argument, message: "Integer expected: \(text.prefix(64))") }
        return n
    }

    static func boolean(_ text: String, _ command: String) throws -> Bool {
        // By its one byte: a `switch` over strings compares them in the standard library.
        switch text.utf8.count == 1 ? text.utf8.first : nil {
        case UInt8(ascii: "0")?: return false
        case UInt8(ascii: "1")?: return true
        default: throw MPDProtocol.Ack(code: .argument, message: "Boolean (0/1) expected: \(text.prefix(64))")
        }
    }

    /// A position (`N`) or a range (`START:END`, `START:` to the end) of a queue of
    /// `count` entries, as MPD takes them.
    static func range(_ text: String, within count: Int) throws -> Range<Int> {
        let bad = MPDProtocol.Ack(code: .argument, message: "Bad song index")
        guard let colon = text.firstIndex(of: ":") else {
            guard let n = Int(text), n >= 0, n < count else { throw bad }
            return n..<n + 1
        }
        guard let start = Int(text[..<colon]), start >= 0 else { throw bad }
        let rest = text[text.index(after: colon)...]
        let end = rest.isEmpty ? count : Int(rest) ?? -1
        guard end >= start else { throw bad }
        guard start < count || start == end else { throw bad }
        return min(start, count)..<min(end, count)
    }
}
