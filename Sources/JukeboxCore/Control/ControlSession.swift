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
    /// Where `card` and `card-removed` go: the box's card service (the server sets it).
    var cardReported: @Sendable (CardSighting) -> Void = { _ in }
    /// Writes an idle answer to this client at once, when another client's message ends
    /// its `idle` (the server sets it to this client's connection).
    var wake: (String) -> Void = { _ in }
    /// Every connected client, for client-to-client messages; this one joins when made.
    let board: MessageBoard
    /// The channels this client listens on and the messages it has not read.
    var mailbox = Mailbox()
    /// MPD's sticker database, beside the state file; nil without one. Used on the
    /// server's file thread only (`background`).
    let stickers: StickerDatabase?
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
    /// The protocol features this client turned on (`protocol`); none at first.
    var features: Set<ProtocolFeature> = []
    /// The tags this client asked for (`tagtypes`); all of them at first.
    var tags = Set(MPDTag.offered) {
        didSet {
            listedTags = MPDTag.offered.filter(tags.contains)
            listedTagCodes = listedTags.reduce(0) { $0 | 1 << $1.code }
        }
    }
    /// The same, in the table's order, and as a bit for each tag's code (looked up once,
    /// not for every song).
    private(set) var listedTags = MPDTag.offered
    private(set) var listedTagCodes: UInt64 = MPDTag.offered.reduce(0) { $0 | 1 << $1.code }
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
                commandsPerCall: Int = .max, board: MessageBoard = MessageBoard(), stickers: StickerDatabase? = nil) {
        self.player = player
        self.outputs = outputs
        self.local = local
        self.password = password
        mayChange = local || password.isEmpty
        self.catalog = catalog
        library = LibraryPaths(musicDirectory: scope.musicDirectory)
        playlists = StoredPlaylists(folder: scope.playlistsDirectory, musicDirectory: scope.musicDirectory)
        self.commandsPerCall = max(1, commandsPerCall)
        self.maximumCommandListBytes = maximumCommandListBytes
        self.board = board
        self.stickers = stickers
        board.join(self)
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
            // As MPD 0.24 (and 0.23.17): a list cannot wait, so a client that puts idle or
            // noidle in one is no longer understood, and goes.
            if line == "idle" || line == "noidle" {
                list = nil
                return .close
            }
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
        // The line is split once, and its command looked up once.
        do {
            let request = try MPDProtocol.request(line)
            let command = request.flatMap { Self.commandTable[$0.name] }
            if let request, let command {
                switch command.run {
                case .connection(let step) where command.arguments.contains(request.arguments.count):
                    switch step {
                    case .idle: return idle(request.arguments)
                    case .listBegin: list = []; listBytes = 0; listOK = false; return .none
                    case .listOKBegin: list = []; listBytes = 0; listOK = true; return .none
                    case .close: return .close
                    case .noidle: return .none  // not idle: nothing to end, and MPD sends nothing
                    case .listEnd: break  // no list to end: `execute` answers
                    }
                case .binary(let reply):
                    try admit(request, command)
                    return .replyBytes(try reply(self, request))
                default: break
                }
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
                let command = request.flatMap { Self.commandTable[$0.name] }
                // `close` in a list, as MPD: what the list answered so far, then goodbye.
                if let request, let command, case .connection(.close) = command.run, command.arguments.contains(request.arguments.count) {
                    running = nil
                    return .replyAndClose(out)
                }
                switch try execute(request, command) {
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
        "ACK [\(ack.code.rawValue)@\(index)] {\(ack.beforeCommand ? "" : command)} \(MPDProtocol.value(ack.message))\n"
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
        + "plugin: vorbis\nsuffix: ogg\nsuffix: oga\nmime_type: audio/ogg\nmime_type: audio/vorbis\nmime_type: application/ogg\n"
        + "plugin: opus\nsuffix: opus\nsuffix: ogg\nsuffix: oga\nmime_type: audio/ogg\nmime_type: audio/opus\n"
        + "plugin: ffmpeg\nsuffix: m4a\nsuffix: m4b\nsuffix: mp4\nmime_type: audio/mp4\nmime_type: audio/x-m4a\n"

    /// Compares every byte, whatever differs first, so the time taken tells nothing.
    static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        var differ = x.count ^ y.count
        for i in 0..<min(x.count, y.count) { differ |= Int(x[i] ^ y[i]) }
        return differ == 0
    }

    // MARK: Commands

    /// Every command the server answers, each declared once, in its area's file: adding
    /// one to an area touches that file alone.
    static let commandTable = CommandTable(sessionCommands + clientSettingsCommands + playerCommands + outputCommands + queueCommands
        + queueSearchCommands + databaseCommands
        + searchCommands + pictureCommands + playlistCommands + storageCommands + messageCommands + stickerCommands
        + partitionCommands + songEditCommands + cardCommands)

    /// Runs one command; `command` is its entry in `commandTable`.
    private func execute(_ request: MPDProtocol.Request?, _ command: MPDCommand?) throws -> Reply {
        guard let request else { throw MPDProtocol.Ack.unparsed("No command given") }
        // What the connection takes (idle, pictures...) reaches here only in a command list,
        // or with arguments it does not take: no command, as ever.
        guard let command, case .reply(let reply) = command.run else { throw Self.unknown(request.name) }
        try admit(request, command)
        return try reply(self, request)
    }

    /// Refuses a command this client may not run, then its arguments when too few or too many.
    private func admit(_ request: MPDProtocol.Request, _ command: MPDCommand) throws {
        guard mayChange || command.permission == .read else { throw command.denied }
        if let refusal = command.refusal(arguments: request.arguments.count) { throw refusal }
    }

    private static func unknown(_ name: String) -> MPDProtocol.Ack {
        MPDProtocol.Ack.unparsed("unknown command \"\(String(name.prefix(64)))\"")
    }

    /// The commands about the session itself: the connection, the password, what this
    /// client may run, and what the server is.
    static let sessionCommands: [MPDCommand] = [
        .init("idle", .read, 0..., connection: .idle),
        .init("noidle", .read, 0...0, connection: .noidle),
        .init("close", .read, 0...0, connection: .close),
        .init("command_list_begin", .read, 0...0, connection: .listBegin),
        .init("command_list_ok_begin", .read, 0...0, connection: .listOKBegin),
        .init("command_list_end", .read, 0...0, connection: .listEnd),
        .init("password", .read, 1...1) { s, request in
            guard !s.password.isEmpty, ControlSession.same(request.arguments[0], s.password) else {
                s.wrongPasswords += 1
                throw MPDProtocol.Ack(code: .password, message: "incorrect password")
            }
            s.mayChange = true
            return ""
        },
        .init("ping", .read, 0...0) { _, _ in "" },
        .init("commands", .read, 0...) { s, _ in .text(ControlSession.commandTable.commands(mayChange: s.mayChange, stickers: s.stickers != nil)) },
        .init("commandlist", .read, 0..., listed: false) { s, _ in
            .text(ControlSession.commandTable.commands(mayChange: s.mayChange, stickers: s.stickers != nil))
        },
        .init("notcommands", .read, 0...0) { s, _ in .text(ControlSession.commandTable.notCommands(mayChange: s.mayChange)) },
        .init("config", .change, 0...0) { s, _ in
            guard s.local else { throw MPDProtocol.Ack(code: .permission, message: "Command only permitted to local clients") }
            // As MPD 0.24: the playlists folder when there is one, and that `=~` is taken.
            let playlists = s.playlists.folder.isEmpty ? "" : "playlist_directory: \(MPDProtocol.value(s.playlists.folder))\n"
            return .text("music_directory: \(MPDProtocol.value(String(s.library.root.dropLast())))\n" + playlists + "pcre: 1\n")
        },
        // MPD's `kill` ends the daemon. Here that would silence the buttons and the screen
        // too, until someone logs in (systemd restarts the box only after a failure): no
        // client may do that. Refused for all, with any arguments (MPD counts none), and
        // left out of `commands`, as `prio` is.
        .init("kill", .read, 0..., listed: false) { _, _ in
            throw MPDProtocol.Ack(code: .unknown, message: "kill is not taken: the jukebox runs until its service is stopped (systemctl stop jukebox)")
        },
        .init("decoders", .read, 0...0) { _, _ in .text(ControlSession.decoders) },
        .init("urlhandlers", .read, 0...0) { _, _ in "handler: http://\nhandler: https://\n" },
    ]

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

    /// A position (`N`) or a range (`START:END`, `START:` to the end; `-1`: all, as older
    /// MPDs had it) of a queue of `count` entries, as MPD takes them.
    static func range(_ text: String, within count: Int) throws -> Range<Int> {
        let bad = MPDProtocol.Ack(code: .argument, message: "Bad song index")
        let (start, end) = try parsedRange(text)
        guard text.contains(":" as Character) else {
            guard start < count || end == nil else { throw bad }
            return end == nil ? 0..<count : start..<start + 1
        }
        let last = end ?? count
        guard start < count || start == last else { throw bad }
        return min(start, count)..<min(last, count)
    }

    /// A position or range as MPD reads one, before it is held against a list: `N` is
    /// `N..<N+1`, `START:` has no end (nil), and `-1` is everything (0, nil). Written
    /// wrong, it is refused in MPD's words.
    static func parsedRange(_ text: String) throws -> (start: Int, end: Int?) {
        func refused(_ reason: String) -> MPDProtocol.Ack { MPDProtocol.Ack(code: .argument, message: "\(reason): \(text.prefix(64))") }
        func number(_ digits: Substring) throws -> Int {
            guard let value = Int(digits) else { throw refused("Integer or range expected") }
            guard value >= 0 else { throw refused("Number is negative") }
            guard value <= Int(Int32.max) else { throw refused("Number too large") }
            return value
        }
        guard let colon = text.firstIndex(of: ":") else {
            if text == "-1" { return (0, nil) }
            let at = try number(text[...])
            return (at, at + 1)
        }
        let start = try number(text[..<colon])
        let rest = text[text.index(after: colon)...]
        guard !rest.isEmpty else { return (start, nil) }
        let end = try number(rest)
        guard end >= start else { throw refused("Malformed range") }
        return (start, end)
    }
}