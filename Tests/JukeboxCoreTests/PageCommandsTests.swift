import Testing
@testable import JukeboxCore

/// The page's MPD bridge: only the listed commands pass, changes need the right, and
/// replies become pairs; and the lyrics the page fills are timed by the screen's rules.
@Suite struct PageCommandsTests {
    private func commands(locks: ConditionLocked<[Bool]> = ConditionLocked([])) -> (PageCommands, Player) {
        let player = Player(engine: FakeEngine())
        player.setTracks(["/music/a.flac", "/music/b.flac"])
        let commands = PageCommands(player: player, scope: ControlServer.Scope(musicDirectory: "/music"), catalog: LibraryCatalog(),
                                    outputs: OutputSwitches(devices: ["default"]), sleepTimer: nil) { locked in
            locks.withLock { $0.wholeValue.append(locked) }
        }
        return (commands, player)
    }

    @Test func readsPassAndChangesNeedTheRight() {
        let (commands, player) = commands()
        guard case .pairs(let pairs) = commands.runNow("status", mayChange: false) else {
            Issue.record("status refused")
            return
        }
        #expect(pairs.contains { $0.0 == "volume" })
        #expect(commands.runNow("setvol 40", mayChange: false) == .refused("you don't have permission for \"setvol\""))
        #expect(player.status.volume != 40)
        #expect(commands.runNow("setvol 40", mayChange: true) == .pairs([]))
        #expect(player.status.volume == 40)
    }

    @Test func commandsOffThePagesListAreRefusedWhateverTheRight() {
        let (commands, _) = commands()
        for line in ["config", "kill", "sticker get song a.flac x", "readpicture a.flac 0", "password x", "command_list_begin",
                     "idle", "listallinfo", "rescan"] {
            guard case .refused(let reason) = commands.runNow(line, mayChange: true) else {
                Issue.record("\(line) passed")
                continue
            }
            #expect(reason.hasPrefix("the page cannot send"), "\(line): \(reason)")
        }
        #expect(commands.runNow("status\nkill", mayChange: true) == .refused("one command, on one line"))
    }

    @Test func theKeyLockIsThePagesOwnCommand() {
        let locks = ConditionLocked<[Bool]>([])
        let (commands, _) = commands(locks: locks)
        #expect(commands.runNow("keylock 1", mayChange: false) == .refused("you don't have permission for \"keylock\""))
        #expect(commands.runNow("keylock 1", mayChange: true) == .pairs([]))
        #expect(commands.runNow("keylock 0", mayChange: true) == .pairs([]))
        #expect(commands.runNow("keylock on", mayChange: true) == .refused("keylock takes 0 or 1"))
        #expect(locks.current == [true, false])
    }

    @Test func anAckBecomesItsMessage() {
        #expect(PageCommands.parse("ACK [50@0] {lsinfo} No such directory\n") == .refused("No such directory"))
        #expect(PageCommands.parse("file: a b.flac\nTitle: x: y\nOK\n") == .pairs([("file", "a b.flac"), ("Title", "x: y")]))
    }

    @Test func lyricsCarryTheScreensEnds() {
        let lyrics = Lyrics(source: .sidecar, synced: true, offsetMs: 0, metadata: [:], lines: [
            LyricLine(timeMs: 1000, text: "one two", words: [LyricWord(timeMs: 1000, text: "one"), LyricWord(timeMs: 1500, text: "two")]),
            LyricLine(timeMs: 5000, text: "", words: []),
            LyricLine(timeMs: 30_000, text: "alone", words: []),
        ])
        let view = PageAPI.view(of: lyrics)
        #expect(view.lines.map(\.text) == ["one two", "alone"])
        // The last word runs until the line is over: 1.5 s after it starts, as on the screen.
        #expect(view.lines[0].words.map(\.end) == [1500, 3000])
        #expect(view.lines[0].end == LyricsMoment.lineEnd(lyrics.lines[0], start: 1000, nextStart: 5000))
        #expect(view.lines[1].end == 30_000 + LyricsMoment.longestLineMs)
    }
}
