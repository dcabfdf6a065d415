import Foundation
import Testing
@testable import JukeboxCore

/// Client-to-client messages held against MPD 0.23 itself, as `MPDDifferentialTests` holds
/// the rest of the protocol: the same script of raw lines, over several connections at
/// once, sent to Debian's `mpd` and to `jukebox run`, and the transcripts required to be
/// the same. The rules each side keeps (bounded mailboxes, channel names) are tested
/// plainly too.
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

/// MPD and the box side by side on one small library, each with its own folder.
final class Servers {
    let folder: String
    let mpd: MPDPeer
    let box: RunningDaemon
    let songs = 4

    init(name: String) throws {
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
        mpd = try MPDPeer(name: name, musicDirectory: music, playlistsDirectory: folder + "/mpd-playlists")
        let config = folder + "/jukebox.toml"
        try """
            [playback]
            autoplay = false
            [library]
            playlists_dir = "\(folder)/box-playlists"
            [control]
            keyboard = false

            """.write(toFile: config, atomically: true, encoding: .utf8)
        box = try RunningDaemon(name: name, config: config, musicDirectory: music, device: NullOutput.deviceName)
        let songs = songs
        #expect(try mpd.scan(expecting: songs), "MPD did not scan the library: \(mpd.log)")
        #expect(box.wait(seconds: 30) { (try? RawMPDConnection(socket: box.socket).reply(to: "stats"))?.contains("songs: \(songs)") == true },
                "the box did not scan the library: \(box.log)")
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}
