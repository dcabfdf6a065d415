import Testing
@testable import JukeboxCore

/// The MPD command table: each command declared once, with its permission and argument
/// counts, and `commands`, `notcommands`, permission refusals and argument-count ACKs
/// all read from it.
@Suite struct CommandTableTests {
    let table = ControlSession.commandTable

    func session(password: String = "") -> (ControlSession, Player) {
        let player = Player(engine: FakeEngine())
        player.setTracks((0..<4).map { "/srv/music/Album/song \($0).flac" })
        let s = ControlSession(player: player, scope: .init(musicDirectory: "/srv/music/"), local: false, password: password)
        return (s, player)
    }

    func say(_ s: ControlSession, _ line: String) -> String {
        switch s.handle(line: line) {
        case .reply(let text): return text
        case .replyBytes(let bytes): return String(decoding: bytes, as: UTF8.self)
        default: return ""
        }
    }

    func listed(_ reply: String) -> [String] {
        reply.split(separator: "\n").filter { $0.hasPrefix("command: ") }.map { String($0.dropFirst(9)) }
    }

    /// As MPD sorts its table: by the names' bytes (strcmp).
    func sorted(_ names: [String]) -> [String] { names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    @Test func noNameIsDeclaredTwice() {
        let names = table.all.map(\.name)
        #expect(Set(names).count == names.count, "\(Dictionary(grouping: names) { $0 }.filter { $0.value.count > 1 }.keys)")
        #expect(names.count > 80)
        for command in table.all { #expect(table[command.name]?.name == command.name) }
    }

    @Test func commandsListTheTableEntriesEachClientMayRun() {
        let (s, _) = session(password: "sesame")
        let reads = sorted(table.all.filter { $0.listed && $0.permission == .read }.map(\.name))
        // `notcommands` names what `commands` leaves out only where nothing can be mounted, as MPD's.
        let changes = sorted(table.all.filter { $0.permission == .change }.map(\.name))
        #expect(listed(say(s, "commands")) == reads)
        #expect(say(s, "commands").hasSuffix("command: urlhandlers\nOK\n"))
        #expect(listed(say(s, "notcommands")) == changes)
        #expect(say(s, "password sesame") == "OK\n")
        // The sticker commands only with a sticker database, which this session has not
        // (as MPD without a sticker_file); `notcommands` names them all the same, as MPD's.
        let stickers = Set(table.all.filter(\.needsStickers).map(\.name))
        #expect(stickers == ["sticker", "stickernames", "stickernamestypes", "stickertypes"])
        #expect(listed(say(s, "commands")) == sorted(reads + changes).filter { !stickers.contains($0) && table[$0]?.listed == true })
        #expect(say(s, "notcommands") == "OK\n")
        // As in MPD's list: the words read before any command is looked up are left out.
        let all = listed(say(s, "commands"))
        #expect(!all.contains("command_list_begin") && !all.contains("command_list_end") && !all.contains("noidle") && all.contains("idle"))
        // Answered but never listed: an alias, what MPD without neighbor plugins or
        // mountable storage answers, and a command refused with its reason.
        for name in ["commandlist", "listneighbors", "kill", "mount", "unmount"] {
            #expect(table[name] != nil && !all.contains(name))
        }
    }

    /// What a client without the password may run: MPD's "read" commands, the same set
    /// as before the table.
    @Test func theReadPermissionIsMPDs() {
        let reads: Set = [
            "albumart", "binarylimit", "channels", "close", "commands", "count",
            "currentsong", "decoders", "find", "getvol", "idle", "list", "listall", "listallinfo", "listfiles", "listmounts",
            "listpartitions", "listplaylist", "listplaylistinfo", "listplaylists", "lsinfo", "notcommands", "outputs", "partition", "password", "ping", "playlist", "playlistfind",
            "playlistid", "playlistinfo", "playlistsearch", "plchanges", "plchangesposid", "readcomments", "readmessages", "readpicture", "replay_gain_status", "search",
            "stats", "status", "subscribe", "tagtypes", "unsubscribe", "urlhandlers",
            // MPD 0.24's
            "playlistlength", "protocol", "searchcount", "searchplaylist",
        ]
        #expect(Set(table.listed.filter { $0.permission == .read }.map(\.name)) == reads)
        // Those not listed refuse or alias for anyone: no password is asked for them. But
        // `mount` and `unmount`, which MPD 0.24 leaves out of `commands` where nothing can
        // be mounted, still ask for it, and `notcommands` names them. So do the box's own
        // card commands, which MPD does not have.
        #expect(table.all.filter { !$0.listed && $0.permission != .read }.map(\.name) == ["mount", "unmount"])
        #expect(table.notCommands(mayChange: false).contains("command: mount\n"))
    }

    @Test func argumentCountsOutsideTheRangeAreRefusedAsMPDDoes() {
        let play = MPDCommand("play", .change, 0...1) { _, _ in "" }
        #expect(play.refusal(arguments: 0) == nil && play.refusal(arguments: 1) == nil)
        #expect(play.refusal(arguments: 2) == MPDProtocol.Ack(code: .argument, message: "too many arguments for \"play\""))
        let add = MPDCommand("add", .change, 1...2) { _, _ in "" }
        #expect(add.refusal(arguments: 0) == MPDProtocol.Ack(code: .argument, message: "too few arguments for \"add\""))
        let stop = MPDCommand("stop", .change, 0...0) { _, _ in "" }
        #expect(stop.refusal(arguments: 1) == MPDProtocol.Ack(code: .argument, message: "wrong number of arguments for \"stop\""))
        let list = MPDCommand("list", .read, 1...) { _, _ in "" }
        #expect(list.refusal(arguments: 0) == MPDProtocol.Ack(code: .argument, message: "too few arguments for \"list\""))
        #expect(list.refusal(arguments: 40) == nil)
    }

    /// Every command, with one argument too few and one too many: MPD's ACK, and the
    /// handler never runs (the queue, volume and options stay as they were).
    @Test func everyCommandChecksItsArgumentCountBeforeItsHandler() {
        for command in table.all {
            let range = command.arguments
            var counts: [Int] = []
            if range.lowerBound > 0 { counts.append(range.lowerBound - 1) }
            if range.upperBound != .max { counts.append(range.upperBound + 1) }
            for count in counts {
                let (s, player) = session()
                let before = (player.listing, player.status.volume, player.status.state, player.status.options)
                let line = ([command.name] + Array(repeating: "1", count: count)).joined(separator: " ")
                let reply = say(s, line)
                switch command.run {
                case .connection:
                    // Taken by the connection only as it is sent alone: otherwise no command, as before the table.
                    #expect(reply == "ACK [5@0] {} unknown command \"\(command.name)\"\n", "\(line)")
                default:
                    let what = range.lowerBound == range.upperBound ? "wrong number of" : count < range.lowerBound ? "too few" : "too many"
                    #expect(reply == "ACK [2@0] {\(command.name)} \(what) arguments for \"\(command.name)\"\n", "\(line)")
                }
                let after = (player.listing, player.status.volume, player.status.state, player.status.options)
                #expect(after.0.version == before.0.version && after.0.paths == before.0.paths, "\(line)")
                #expect(after.1 == before.1 && after.2 == before.2 && after.3 == before.3, "\(line)")
            }
        }
    }

    /// The box's own card commands are read commands for the table (so `notcommands` is
    /// MPD's) but still ask for the password before a card reaches the box.
    @Test func theCardCommandsAskForThePasswordInside() {
        for (line, name) in [("card 0A1B2C3D4E", "card"), ("cardremoved", "cardremoved")] {
            let (s, _) = session(password: "sesame")
            #expect(say(s, line) == "ACK [4@0] {\(name)} you don't have permission for \"\(name)\"\n")
        }
    }

    /// Without the password, a command that changes things is refused before its
    /// arguments are looked at, and does nothing.
    @Test func permissionIsCheckedFirst() {
        for command in table.all where command.permission == .change {
            for count in [0, 1, 5] {
                let (s, player) = session(password: "sesame")
                let line = ([command.name] + Array(repeating: "1", count: count)).joined(separator: " ")
                #expect(say(s, line) == "ACK [4@0] {\(command.name)} you don't have permission for \"\(command.name)\"\n", "\(line)")
                #expect(player.listing.paths.count == 4 && player.status.state == .stopped, "\(line)")
            }
        }
    }

    /// In a command list, what the connection takes alone is no command; but, as MPD 0.24,
    /// idle and noidle there close the connection at once, and close closes it when the
    /// list comes to it.
    @Test func connectionCommandsAreUnknownInAList() {
        for command in table.all {
            switch command.run {
            case .reply, .connection(.listEnd): continue  // command_list_end would end the list
            case .connection, .binary: break
            }
            let (s, _) = session()
            for line in ["command_list_begin", "ping"] { _ = s.handle(line: line) }
            let opened = s.handle(line: ([command.name] + Array(repeating: "1", count: command.arguments.lowerBound)).joined(separator: " "))
            switch command.name {
            case "idle", "noidle": #expect(opened == .close, "\(command.name)")
            case "close": #expect(s.handle(line: "command_list_end") == .replyAndClose(""))
            default: #expect(say(s, "command_list_end") == "ACK [5@1] {} unknown command \"\(command.name)\"\n", "\(command.name)")
            }
        }
    }
}
