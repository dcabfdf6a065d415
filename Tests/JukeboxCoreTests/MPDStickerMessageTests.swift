import Foundation
import Testing
@testable import JukeboxCore

/// Client-to-client messages (against MPD 0.23) and stickers (against MPD 0.24.2) held
/// against MPD itself, as `MPDDifferentialTests` holds the rest of the protocol: the same
/// script of raw lines, over several connections at once, sent to MPD and to `jukebox
/// run`, and the transcripts required to be the same (stickers also after both are killed
/// and started again). The rules each side keeps (bounded mailboxes, channel names, the
/// sticker database's bounds and settings) are tested plainly.
@Suite(.serialized) struct MPDStickerMessageTests {
    // MARK: Against MPD

    /// Three connections: subscriptions and their errors, messages and their errors, the
    /// idle events each one raises (and the second unread message that raises none), the
    /// limits of 16 channels and 64 unread messages, a command list, and a client that
    /// disconnects (its channels go, with no event).
    static func messageScript(_ socket: String) throws -> [String] {
        var transcript: [String] = []
        var connections: [String: RawMPDConnection] = [:]
        for name in ["a", "b", "c"] { connections[name] = try RawMPDConnection(socket: socket) }
        func say(_ who: String, _ line: String) {
            transcript.append("\(who)> \(line)")
            transcript += connections[who].map { $0.reply(to: line) } ?? ["<no connection>"]
        }
        func settle() { usleep(200_000) }
        for line in ["subscribe", "subscribe \"\"", "subscribe a/b", "subscribe \"two words\"", "subscribe ok.ch-1:x_Y",
                     "subscribe ok.ch-1:x_Y", "channels", "unsubscribe nope", "unsubscribe \"\"", "sendmessage nope hi",
                     "sendmessage \"bad name\" hi", "sendmessage ok.ch-1:x_Y", "sendmessage ok.ch-1:x_Y \"hello there\"",
                     "readmessages", "readmessages"] {
            say("a", line)
        }
        say("b", "subscribe ok.ch-1:x_Y")
        say("b", "channels")
        say("a", "sendmessage ok.ch-1:x_Y \"to both\"")
        say("b", "readmessages")
        say("a", "readmessages")
        say("b", "unsubscribe ok.ch-1:x_Y")
        say("b", "unsubscribe ok.ch-1:x_Y")
        say("a", "command_list_begin\nsubscribe x\nsubscribe x\ncommand_list_end")
        say("a", "command_list_ok_begin\nunsubscribe x\nchannels\ncommand_list_end")
        // Sixteen channels at most: the first is taken, fifteen more fit, the next is refused.
        for n in 0..<16 { say("a", "subscribe c\(n)") }
        say("a", "channels")
        say("a", "unsubscribe c15")
        say("a", "unsubscribe ok.ch-1:x_Y")

        // Idle: a subscription wakes everyone; the first unread message wakes its reader.
        say("c", "subscribe z")
        say("a", "subscribe z")
        settle()
        // Every pending event answered: MPD drops the events an `idle SUBSYSTEM` does not
        // name, where the box keeps them for the next idle, so drains name none.
        for who in ["a", "b", "c"] { say(who, "idle") }
        connections["a"]?.send("idle message")
        transcript.append("a> idle message")
        settle()
        say("c", "sendmessage z one")
        transcript += connections["a"]?.readReply() ?? []
        // A second message while one is unread wakes no one.
        connections["a"]?.send("idle message")
        transcript.append("a> idle message")
        settle()
        say("c", "sendmessage z two")
        settle()
        say("a", "noidle")
        say("a", "readmessages")
        // The sender is a subscriber too: its own message is waiting for it.
        say("c", "sendmessage z self")
        say("c", "idle message")
        say("c", "readmessages")

        // At most 64 unread messages: the rest are not delivered, and with nobody else
        // listening the sender is told nobody is subscribed.
        say("b", "subscribe full")
        for n in 0..<70 { say("a", "sendmessage full m\(n)") }
        say("b", "readmessages")
        say("a", "sendmessage full again")
        say("b", "readmessages")

        // A client that goes: its channels go, and no one is told.
        settle()
        for who in ["a", "b", "c"] { say(who, "idle") }
        say("a", "channels")
        connections["a"]?.send("idle subscription")
        transcript.append("a> idle subscription")
        settle()
        connections["b"] = nil
        settle()
        say("a", "noidle")
        say("a", "channels")
        say("a", "sendmessage full anyone")
        return transcript
    }

    @Test func messagesMatchMPD() throws {
        let servers = try Servers(name: "messages")
        let (theirs, ours) = (try Self.messageScript(servers.mpd.socket), try Self.messageScript(servers.box.socket))
        #expect(theirs.count > 200)
        Self.expectSame(theirs, ours)
        // No sticker database (MPD without a sticker_file, the box without a state file):
        // `sticker` is not listed, and refused the same way.
        let (mpdNone, boxNone) = (try Self.noStickerScript(servers.mpd.socket), try Self.noStickerScript(servers.box.socket))
        Self.expectSame(mpdNone, boxNone)
        #expect(!mpdNone.contains("command: sticker") && mpdNone.contains("ACK [5@0] {sticker} sticker database is disabled"))
    }

    static func noStickerScript(_ socket: String) throws -> [String] {
        let connection = try RawMPDConnection(socket: socket)
        var transcript: [String] = []
        for line in ["commands", "sticker", "sticker get song", "sticker get song A/one.flac rating", "sticker list song nope.flac",
                     "sticker set song A/one.flac rating 5", "sticker find song \"\" rating"] {
            let reply = connection.reply(to: line)
            // Of `commands`, only what this is about: the box and MPD differ in others.
            transcript += ["> " + line] + (line == "commands" ? reply.filter { $0 == "command: sticker" || $0 == "OK" } : reply)
        }
        return transcript
    }

    /// Stickers on songs: set, get, list, find (with its operators and a base folder),
    /// delete, every error MPD gives (an unknown song, a folder, a URL, a missing sticker,
    /// a bad operator or request, another domain), an empty name and an empty value, the
    /// `sticker` idle event (and none for a refused change), and a command list.
    static func stickerScript(_ socket: String) throws -> [String] {
        var transcript: [String] = []
        let (a, watcher) = (try RawMPDConnection(socket: socket), try RawMPDConnection(socket: socket))
        func say(_ line: String) { transcript += ["> " + line] + a.reply(to: line) }
        for line in ["commands", "notcommands"] {
            // MPD 0.23 has no stickernames or stickertypes, which the box lists too.
            transcript += ["> " + line] + a.reply(to: line).filter { $0 == "command: sticker" || $0 == "OK" }
        }
        for line in [
            "sticker", "sticker get", "sticker get song", "sticker get song A/one.flac", "sticker get song A/one.flac rating",
            "sticker get song nope.flac rating", "sticker set song A/one.flac rating 5", "sticker get song A/one.flac rating",
            "sticker set song A/one.flac rating \"\"", "sticker get song A/one.flac rating", "sticker list song A/one.flac",
            "sticker set song A/one.flac \"\" 3", "sticker list song A/one.flac", "sticker set song A/one.flac \"a b\" \"x=y\"",
            "sticker set song A/one.flac \"a=b\" z", "sticker list song A/one.flac", "sticker set song \"Ünï/drei.flac\" rating 7",
            "sticker set song top.flac rating 10", "sticker set song A/two.flac rating 3", "sticker set song A/two.flac other \"x y\"",
            "sticker list song nope.flac", "sticker list song A", "sticker get song A x", "sticker set song A x 1",
            "sticker set song http://example.com/a.mp3 a b", "sticker list song \"\"", "sticker delete song A/one.flac nothere",
            "sticker delete song top.flac other", "sticker delete song nope.flac", "sticker find song \"\" rating",
            "sticker find song A rating", "sticker find song A/ rating", "sticker find song nope rating", "sticker find song Ünï rating",
            "sticker find song \"\" rating = 7", "sticker find song \"\" rating < 6", "sticker find song \"\" rating > 6",
            "sticker find song \"\" rating ~ 6", "sticker find song \"\" rating =", "sticker find song A/one.flac rating",
            "sticker find song \"\" nope", "sticker foo song A/one.flac", "sticker get album A/one.flac x",
            // (MPD 0.24.2 dies on `sticker delete song A/two.flac` with none left: not asked.)
            "sticker get song A/one.flac x y", "sticker delete song A/two.flac", "sticker list song A/two.flac",
            "sticker delete song A/two.flac rating", "command_list_begin\nsticker set song top.flac n 1\nsticker get song top.flac zz\ncommand_list_end",
            "sticker list song top.flac",
        ] {
            say(line)
        }
        // A change wakes an idle client; a refused one and a read do not.
        usleep(200_000)
        transcript += ["w> idle"] + watcher.reply(to: "idle")
        watcher.send("idle sticker")
        usleep(200_000)
        say("sticker set song top.flac rating 11")
        transcript += watcher.readReply()
        watcher.send("idle sticker")
        usleep(200_000)
        say("sticker delete song top.flac nothere")
        say("sticker get song top.flac rating")
        usleep(200_000)
        transcript += ["w> noidle"] + watcher.reply(to: "noidle")
        watcher.send("idle sticker")
        usleep(200_000)
        say("sticker delete song top.flac rating")
        transcript += watcher.readReply()
        return transcript
    }

    /// What is left after a kill and a start.
    static func afterRestartScript(_ socket: String) throws -> [String] {
        let a = try RawMPDConnection(socket: socket)
        return ["sticker list song A/one.flac", "sticker find song \"\" rating", "sticker list song top.flac", "sticker get song Ünï/drei.flac rating"]
            .flatMap { ["> " + $0] + a.reply(to: $0) }
    }

    /// MPD 0.24's additions: `inc` and `dec` (with text and fractions, as SQLite adds
    /// them), stickers on stored playlists and tag values and their errors, `find` on them,
    /// by a prefix as MPD's LIKE takes it, with `sort` and `window` (read from the end),
    /// `stickernames`, `stickernamestypes` and `stickertypes`.
    static func sticker024Script(_ socket: String) throws -> [String] {
        let a = try RawMPDConnection(socket: socket)
        return [
            "sticker inc song top.flac plays", "sticker inc song top.flac plays 2", "sticker inc song top.flac plays 3",
            "sticker get song top.flac plays", "sticker dec song top.flac plays 10", "sticker get song top.flac plays",
            "sticker inc song top.flac plays abc", "sticker get song top.flac plays", "sticker inc song top.flac fl 1.5",
            "sticker inc song top.flac fl 1", "sticker get song top.flac fl", "sticker inc song top.flac word abc",
            "sticker get song top.flac word", "sticker inc song nope.flac plays 1", "sticker inc song top.flac \"\" 1",
            "sticker set song A/one.flac plays 4", "sticker set song A/two.flac plays 30", "sticker set song \"Ünï/drei.flac\" plays 200",
            "sticker find song \"\" plays sort value_int", "sticker find song \"\" plays sort -value_int",
            "sticker find song \"\" plays sort value", "sticker find song \"\" plays sort uri window 1:3",
            "sticker find song \"\" plays window 2:", "sticker find song \"\" plays gt 5 sort -uri",
            "sticker find song \"\" plays window 0:1 sort uri", "sticker find song \"\" plays sort name",
            "sticker find song a plays", "sticker find song A plays",
            "sticker find song \"\" word contains B", "sticker find song \"\" word starts_with A",
            "sticker set playlist mine rating 5", "sticker set playlist nope rating 5", "sticker get playlist mine rating",
            "sticker inc playlist mine rating 1", "sticker list playlist mine", "sticker find playlist \"\" rating",
            "sticker find playlist MI rating", "sticker find playlist x rating",
            "sticker set Title One rating 3", "sticker set title Two rating 4", "sticker set Title Nobody rating 1",
            "sticker get Title One rating", "sticker list TITLE Two", "sticker find Title \"\" rating sort uri",
            "sticker set Date 2001 rating 1", "sticker get Date 2001 rating", "sticker find Date \"\" rating",
            "sticker set Colour red rating 1", "sticker delete Title One rating", "sticker delete Title One rating",
            "stickernames", "stickernamestypes", "stickernamestypes song", "stickernamestypes playlist",
            "stickernamestypes Title", "stickernamestypes title", "stickernamestypes Date", "stickernamestypes filter",
            "tagtypes clear", "tagtypes enable Title Artist", "stickertypes",
        ].flatMap { line -> [String] in
            // MPD lists `filter`, whose stickers the box does not keep.
            let reply = a.reply(to: line).filter { $0 != "stickertype: filter" }
            return ["> " + line] + reply
        }
    }

    @Test func stickersMatchMPDAndSurviveAKill() throws {
        let servers = try Servers(name: "stickers", stickers: true, release: .backports)
        let (theirs, ours) = (try Self.stickerScript(servers.mpd.socket), try Self.stickerScript(servers.box.socket))
        #expect(theirs.count > 100 && theirs.contains("command: sticker"))
        // The drain, the set and the delete; not the refused delete or the read.
        #expect(theirs.filter { $0 == "changed: sticker" }.count == 3, "\(theirs.suffix(20))")
        Self.expectSame(theirs, ours)
        try servers.restart()
        let (mpdAfter, boxAfter) = (try Self.afterRestartScript(servers.mpd.socket), try Self.afterRestartScript(servers.box.socket))
        #expect(boxAfter.contains("sticker: a b=x=y") && boxAfter.contains("sticker: rating=7"))
        Self.expectSame(mpdAfter, boxAfter)
        #expect(FileManager.default.fileExists(atPath: servers.folder + "/state/stickers.sqlite"))

        // MPD 0.24's additions, against MPD 0.24.2.
        for folder in ["mpd-playlists", "box-playlists"] {
            try "A/one.flac\n".write(toFile: "\(servers.folder)/\(folder)/mine.m3u", atomically: true, encoding: .utf8)
        }
        let (mpd024, box024) = (try Self.sticker024Script(servers.mpd.socket), try Self.sticker024Script(servers.box.socket))
        #expect(mpd024.contains("playlist: mine") && mpd024.contains("Title: One"), "\(mpd024)")
        Self.expectSame(mpd024, box024)

        // The rest held to MPD's documentation.
        let box = try RawMPDConnection(socket: servers.box.socket)
        #expect(box.reply(to: "sticker set filter \"(title == 'One')\" rating 1") == ["ACK [2@0] {sticker} unknown sticker domain \"filter\""])
        for (uri, rating) in [("A/one.flac", "9"), ("A/two.flac", "10"), ("top.flac", "100")] {
            #expect(box.reply(to: "sticker set song \(uri) rating \(rating)") == ["OK"])
        }
        func files(_ line: String) -> [String] { box.reply(to: line).filter { $0.hasPrefix("file: ") || $0.hasPrefix("ACK") } }
        #expect(files("sticker find song \"\" rating sort value_int") == ["file: Ünï/drei.flac", "file: A/one.flac", "file: A/two.flac", "file: top.flac"])
        #expect(files("sticker find song \"\" rating sort value") == ["file: A/two.flac", "file: top.flac", "file: Ünï/drei.flac", "file: A/one.flac"])
        #expect(files("sticker find song \"\" rating sort -value_int window 1:3") == ["file: A/two.flac", "file: A/one.flac"])
        #expect(files("sticker find song \"\" rating gt 9 sort uri") == ["file: A/two.flac", "file: top.flac"])
        #expect(files("sticker find song \"\" rating eq 7") == ["file: Ünï/drei.flac"])
        #expect(files("sticker find song \"\" rating lt 10") == ["file: A/one.flac", "file: Ünï/drei.flac"])
        #expect(files("sticker find song \"\" rating starts_with 10") == ["file: A/two.flac", "file: top.flac"])
        #expect(files("sticker find song \"\" rating contains 0") == ["file: A/two.flac", "file: top.flac"])
        #expect(files("sticker find song \"\" rating window 3:1") == ["ACK [2@0] {sticker} Bad window: 3:1"])
        // The bounds, refused with their reason.
        let long = String(repeating: "n", count: 65)
        #expect(box.reply(to: "sticker set song top.flac \(long) 1") == ["ACK [2@0] {sticker} sticker name is longer than 64 bytes"])
        #expect(box.reply(to: "sticker set song top.flac note \(String(repeating: "v", count: 257))")
            == ["ACK [2@0] {sticker} sticker value is longer than 256 bytes"])
    }

    /// The first line where two transcripts part, with the lines around it.
    static func expectSame(_ theirs: [String], _ ours: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        guard theirs != ours else { return }
        let at = (0..<min(theirs.count, ours.count)).first { theirs[$0] != ours[$0] } ?? min(theirs.count, ours.count)
        func shown(_ lines: [String]) -> String { lines[max(0, at - 8)..<min(lines.count, at + 8)].map { "    " + $0 }.joined(separator: "\n") }
        Issue.record("the box's transcript differs from MPD's at line \(at)\n  MPD:\n\(shown(theirs))\n  box:\n\(shown(ours))",
                     sourceLocation: sourceLocation)
    }

    // MARK: The rules, plainly

    @Test func channelNamesAreMPDs() {
        for name in ["a", "ok.ch-1:x_Y", "Z9", "::", String(repeating: "x", count: 1000)] { #expect(Mailbox.isValidChannel(name), "\(name)") }
        for name in ["", "a b", "a/b", "é", "a\tb", "a\"b", "*"] { #expect(!Mailbox.isValidChannel(name), "\(name)") }
    }

    @Test func aMailboxHoldsSixteenChannelsAndSixtyFourUnreadMessages() throws {
        var mailbox = Mailbox()
        #expect(throws: Mailbox.Refusal.badName) { try mailbox.subscribe("a b") }
        for n in 0..<Mailbox.maximumSubscriptions { try mailbox.subscribe("c\(n)") }
        // Full is said before already-subscribed, as MPD checks.
        #expect(throws: Mailbox.Refusal.full) { try mailbox.subscribe("c0") }
        #expect(throws: Mailbox.Refusal.full) { try mailbox.subscribe("new") }
        try mailbox.unsubscribe("c1")
        #expect(throws: Mailbox.Refusal.notSubscribed) { try mailbox.unsubscribe("c1") }
        #expect(throws: Mailbox.Refusal.already) { try mailbox.subscribe("c0") }

        #expect(mailbox.deliver(.init(channel: "c1", text: "not listening")) == .refused)
        #expect(mailbox.deliver(.init(channel: "c0", text: "m0")) == .delivered(first: true))
        for n in 1..<Mailbox.maximumUnread { #expect(mailbox.deliver(.init(channel: "c2", text: "m\(n)")) == .delivered(first: false)) }
        // Full: a reader that never reads holds 64 messages, however many are sent.
        for _ in 0..<1000 { #expect(mailbox.deliver(.init(channel: "c0", text: String(repeating: "x", count: 4000))) == .refused) }
        #expect(mailbox.unread.count == Mailbox.maximumUnread)
        let read = mailbox.takeUnread()
        #expect(read.map(\.text) == (0..<64).map { "m\($0)" })
        #expect(mailbox.unread.isEmpty)
        #expect(mailbox.deliver(.init(channel: "c0", text: "again")) == .delivered(first: true))
    }

    func temporaryDatabase(_ name: String) -> String {
        let folder = NSTemporaryDirectory() + "jukebox-stickerdb-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder + "/stickers.sqlite"
    }

    @Test func theStickerDatabaseKeepsMPDsRules() throws {
        let path = temporaryDatabase("rules")
        defer { try? FileManager.default.removeItem(atPath: AtomicFile.folder(of: path)) }
        let db = StickerDatabase(path: path)
        #expect(try db.set(type: "song", uri: "A/x.flac", name: "rating", value: "5"))
        #expect(try db.set(type: "song", uri: "A/x.flac", name: "rating", value: "6"))
        #expect(try !db.set(type: "song", uri: "A/x.flac", name: "", value: "ignored"))
        #expect(try db.value(type: "song", uri: "A/x.flac", name: "rating") == "6")
        #expect(try db.value(type: "song", uri: "A/x.flac", name: "other") == nil)
        try db.set(type: "song", uri: "A/x.flac", name: "a", value: "")
        #expect(try db.stickers(type: "song", uri: "A/x.flac").map { "\($0.name)=\($0.value)" } == ["a=", "rating=6"])
        try db.set(type: "song", uri: "AB/y.flac", name: "rating", value: "1")
        try db.set(type: "song", uri: "A/sub/z.flac", name: "rating", value: "2")
        // By a prefix, as MPD's LIKE: without case, and `_` matching any character.
        #expect(try db.find(type: "song", prefix: "a/", name: "rating", order: .uri).map(\.uri) == ["A/sub/z.flac", "A/x.flac"])
        #expect(try db.find(type: "song", prefix: "A", name: "rating", order: .uri).map(\.uri) == ["A/sub/z.flac", "A/x.flac", "AB/y.flac"])
        #expect(try db.find(type: "song", prefix: "_B", name: "rating").map(\.uri) == ["AB/y.flac"])
        #expect(try db.find(type: "song", prefix: "", name: "rating", .greaterThan("1"), order: .uri).map(\.uri) == ["A/sub/z.flac", "A/x.flac"])
        #expect(try db.find(type: "song", prefix: "", name: "rating", order: .value, reversed: true, window: (1, 2)).map(\.uri) == ["A/sub/z.flac"])
        #expect(try db.delete(type: "song", uri: "A/x.flac", name: "a"))
        #expect(try !db.delete(type: "song", uri: "A/x.flac", name: "a"))
        #expect(try db.delete(type: "song", uri: "A/x.flac"))
        #expect(try !db.delete(type: "song", uri: "A/x.flac"))
        #expect(db.stickerCount == 2)
        try db.add("3", type: "song", uri: "AB/y.flac", name: "rating")
        #expect(try db.value(type: "song", uri: "AB/y.flac", name: "rating") == "4")
        try db.add("0.5", subtracting: true, type: "song", uri: "AB/y.flac", name: "rating")
        #expect(try db.value(type: "song", uri: "AB/y.flac", name: "rating") == "3.5")
        try db.add("x", type: "song", uri: "new.flac", name: "word")
        #expect(try db.value(type: "song", uri: "new.flac", name: "word") == "x")
        #expect(try db.names() == ["rating", "word"])
        try db.set(type: "Artist", uri: "ABBA", name: "rating", value: "5")
        #expect(try db.namesAndTypes().map { "\($0.name) \($0.type)" } == ["rating Artist", "rating song", "word song"])
        #expect(try db.namesAndTypes(type: "Artist").map(\.name) == ["rating"])
    }

    /// Power-cut safe settings, read back from SQLite itself, and what a reopen finds.
    @Test func theStickerDatabaseIsWriteAheadLoggedWithFullSyncs() throws {
        let path = temporaryDatabase("wal")
        defer { try? FileManager.default.removeItem(atPath: AtomicFile.folder(of: path)) }
        do {
            let db = StickerDatabase(path: path)
            try db.set(type: "song", uri: "x.flac", name: "rating", value: "5")
        }
        let raw = try SQLite(path: path)
        #expect(try raw.run("PRAGMA journal_mode").first?.first?.text == "wal")
        // MPD's own table, so its sticker.sql can be copied over.
        #expect(try raw.run("SELECT type, uri, name, value FROM sticker").map { $0.map(\.text) } == [["song", "x.flac", "rating", "5"]])
        let again = StickerDatabase(path: path)
        #expect(again.stickerCount == 1)
        #expect(try again.value(type: "song", uri: "x.flac", name: "rating") == "5")
    }

    @Test func theStickerDatabaseIsBounded() throws {
        let path = temporaryDatabase("bounds")
        defer { try? FileManager.default.removeItem(atPath: AtomicFile.folder(of: path)) }
        let db = StickerDatabase(path: path, limits: .init(stickers: 3, nameBytes: 8, valueBytes: 16))
        for n in 0..<3 { try db.set(type: "song", uri: "s\(n).flac", name: "rating", value: "\(n)") }
        #expect(throws: StickerDatabase.Failure.full(limit: 3)) { try db.set(type: "song", uri: "s9.flac", name: "rating", value: "1") }
        #expect(throws: StickerDatabase.Failure.full(limit: 3)) { try db.add("1", type: "song", uri: "s9.flac", name: "plays") }
        // Changing one that exists still works when full; deleting makes room.
        try db.set(type: "song", uri: "s0.flac", name: "rating", value: "9")
        try db.add("1", type: "song", uri: "s1.flac", name: "rating")
        #expect(try db.value(type: "song", uri: "s1.flac", name: "rating") == "2")
        #expect(throws: StickerDatabase.Failure.nameTooLong(limit: 8)) { try db.set(type: "song", uri: "s0.flac", name: "ninechars", value: "1") }
        #expect(throws: StickerDatabase.Failure.valueTooLong(limit: 16)) {
            try db.set(type: "song", uri: "s0.flac", name: "rating", value: String(repeating: "é", count: 9))
        }
        #expect(try db.delete(type: "song", uri: "s2.flac"))
        try db.set(type: "song", uri: "s9.flac", name: "rating", value: "1")
        #expect(db.stickerCount == 3)
        #expect(StickerDatabase(path: path).stickerCount == 3)
    }

    /// No database: `sticker` is refused as MPD refuses it without a sticker_file, after
    /// its permission and argument count, and `commands` leaves it out.
    @Test func withoutADatabaseStickersAreOff() {
        let s = session(MessageBoard())
        #expect(say(s, "sticker get song x.flac rating") == "ACK [5@0] {sticker} sticker database is disabled\n")
        #expect(say(s, "sticker get") == "ACK [2@0] {sticker} too few arguments for \"sticker\"\n")
        #expect(!say(s, "commands").contains("sticker"))
        let guest = session(MessageBoard(), local: false, password: "sesame")
        #expect(say(guest, "sticker get song x.flac rating") == "ACK [4@0] {sticker} you don't have permission for \"sticker\"\n")
        #expect(say(guest, "notcommands").contains("command: sticker\n"))
    }

    func session(_ board: MessageBoard, local: Bool = true, password: String = "") -> ControlSession {
        ControlSession(player: Player(engine: FakeEngine()), local: local, password: password, board: board)
    }

    func say(_ s: ControlSession, _ line: String) -> String {
        if case .reply(let text) = s.handle(line: line) { return text }
        return ""
    }

    @Test func aMessageWakesAnIdleSubscriberAtOnce() {
        let board = MessageBoard()
        let (reader, sender) = (session(board), session(board))
        var woken: [String] = []
        reader.wake = { woken.append($0) }
        #expect(say(reader, "subscribe news") == "OK\n")
        #expect(reader.handle(line: "idle message") == .none)
        #expect(say(sender, "sendmessage news hello") == "OK\n")
        #expect(woken == ["changed: message\nOK\n"])
        #expect(say(sender, "sendmessage news again") == "OK\n")
        #expect(woken.count == 1)
        #expect(say(reader, "readmessages") == "channel: news\nmessage: hello\nchannel: news\nmessage: again\nOK\n")
        #expect(say(sender, "channels") == "channel: news\nOK\n")
        // Gone with its connection: nobody listens any more.
        board.leave(reader)
        #expect(say(sender, "channels") == "OK\n")
        #expect(say(sender, "sendmessage news hello") == "ACK [50@0] {sendmessage} nobody is subscribed to this channel\n")
    }

    /// MPD's permissions: anyone may listen and read; sending needs "control".
    @Test func aClientWithoutThePasswordListensButDoesNotSend() {
        let board = MessageBoard()
        let guest = session(board, local: false, password: "sesame")
        #expect(say(guest, "subscribe news") == "OK\n")
        #expect(say(guest, "channels") == "channel: news\nOK\n")
        #expect(say(guest, "readmessages") == "OK\n")
        #expect(say(guest, "sendmessage news hi") == "ACK [4@0] {sendmessage} you don't have permission for \"sendmessage\"\n")
        #expect(say(guest, "unsubscribe news") == "OK\n")
    }
}

/// MPD and the box side by side on one small library, each with its own folder; with
/// `stickers`, MPD has a `sticker_file` and the box a state file (its stickers beside it).
final class Servers {
    let folder: String
    private(set) var mpd: MPDPeer
    private(set) var box: RunningDaemon
    let songs = 4
    private let name: String
    private let stickers: Bool
    private var generation = 0

    private let release: MPDPeer.Release

    init(name: String, stickers: Bool = false, release: MPDPeer.Release = .bookworm) throws {
        self.name = name
        self.stickers = stickers
        self.release = release
        folder = NSTemporaryDirectory() + "jukebox-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        let music = folder + "/music"
        for sub in ["music/A", "music/Ünï", "mpd-playlists", "box-playlists", "state"] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(sub)", withIntermediateDirectories: true)
        }
        let wav = folder + "/tone.wav"
        try Tools.run("sox", ["-n", "-r", "44100", "-b", "16", "-c", "2", wav, "synth", "2", "sine", "440", "gain", "-12"])
        for (path, title) in [("A/one.flac", "One"), ("A/two.flac", "Two"), ("Ünï/drei.flac", "Drei"), ("top.flac", "Top")] {
            try Tools.run("flac", ["-s", "-f", "-T", "TITLE=\(title)", "-o", "\(music)/\(path)", wav])
        }
        try """
            [playback]
            autoplay = false
            [library]
            playlists_dir = "\(folder)/box-playlists"
            [control]
            keyboard = false

            """.write(toFile: folder + "/jukebox.toml", atomically: true, encoding: .utf8)
        (mpd, box) = try Self.start(folder: folder, name: name, stickers: stickers, songs: songs, release: release)
    }

    private static func start(folder: String, name: String, stickers: Bool, songs: Int,
                              release: MPDPeer.Release) throws -> (MPDPeer, RunningDaemon) {
        let music = folder + "/music"
        let mpd = try MPDPeer(name: name, musicDirectory: music, playlistsDirectory: folder + "/mpd-playlists",
                              stickerFile: stickers ? folder + "/mpd-sticker.sql" : nil, release: release)
        let box = try RunningDaemon(name: name, config: folder + "/jukebox.toml", musicDirectory: music, device: NullOutput.deviceName,
                                    stateFile: stickers ? folder + "/state/state" : "")
        #expect(try mpd.scan(expecting: songs), "MPD did not scan the library: \(mpd.log)")
        #expect(box.wait(seconds: 30) { (try? RawMPDConnection(socket: box.socket).reply(to: "stats"))?.contains("songs: \(songs)") == true },
                "the box did not scan the library: \(box.log)")
        return (mpd, box)
    }

    /// Both killed at once (SIGKILL: what a commit survives, a power cut's first half),
    /// then started again on the same files.
    func restart() throws {
        mpd.kill()
        box.send(SIGKILL)
        #expect(box.waitForExit(seconds: 10))
        generation += 1
        (mpd, box) = try Self.start(folder: folder, name: "\(name)\(generation)", stickers: stickers, songs: songs, release: release)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}
