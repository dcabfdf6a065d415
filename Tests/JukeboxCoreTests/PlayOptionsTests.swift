import Testing
@testable import JukeboxCore

/// MPD's repeat, random, single (with oneshot) and consume, each on its own, and the
/// box's four modes as a view over them.
@Suite struct PlayOptionsTests {
    func queue(_ count: Int, _ options: PlayOptions, seed: UInt64 = 1) -> PlayQueue<SplitMix> {
        PlayQueue(count: count, options: options, generator: SplitMix(seed: seed))
    }

    @Test func modesAreAViewOverTheOptions() {
        for mode in PlayMode.allCases { #expect(PlayOptions(mode: mode).mode == mode) }
        #expect(PlayOptions(single: .on).mode == .once && PlayOptions(single: .on).label == "single")
        #expect(PlayOptions(random: true).label == "shuffle once")
        #expect(PlayOptions(mode: .repeatAll, consume: true).label == "repeat all, consume")
        var q = queue(3, PlayOptions(consume: true))
        q.setMode(.shuffle)
        #expect(q.options == PlayOptions(repeat: true, random: true, consume: true))
    }

    @Test func singleWithoutRepeatStopsAfterTheTrack() {
        var q = queue(3, PlayOptions(single: .on))
        q.jump(to: 0)
        #expect(q.upcoming == nil && q.peekAfterNaturalEnd() == nil)
        #expect(q.advanceAfterNaturalEnd() == nil)
        #expect(q.options.single == .on)
        // An explicit next still moves.
        q.jump(to: 0)
        #expect(q.next() == 1)
    }

    @Test func oneshotCoversOneTrackOnly() {
        var q = queue(3, PlayOptions(single: .oneshot))
        q.jump(to: 1)
        #expect(q.advanceAfterNaturalEnd() == nil)
        #expect(q.options.single == .off)

        var looped = queue(3, PlayOptions(repeat: true, single: .oneshot))
        looped.jump(to: 1)
        #expect(looped.advanceAfterNaturalEnd() == 1)  // once more
        #expect(looped.options.single == .off)
        #expect(looped.advanceAfterNaturalEnd() == 2)  // then on through the queue
    }

    @Test func randomWithoutRepeatPlaysEachOnceThenStops() {
        var q = queue(5, PlayOptions(random: true))
        var played = [q.next()!]
        while let next = q.advanceAfterNaturalEnd() { played.append(next) }
        #expect(played.count == 5 && Set(played) == Set(0..<5))
        var looping = queue(5, PlayOptions(repeat: true, random: true))
        var heard = [looping.next()!]
        for _ in 0..<9 { heard.append(looping.advanceAfterNaturalEnd()!) }
        #expect(Set(heard.prefix(5)) == Set(0..<5) && Set(heard.suffix(5)) == Set(0..<5))
    }

    @Test func theSwitchesAreIndependentOverTheProtocol() {
        let player = Player(engine: FakeEngine())
        player.setTracks(["/m/a.flac", "/m/b.flac"])
        let s = ControlSession(player: player, scope: .init(musicDirectory: "/m"))
        func status() -> [String: String] {
            guard case .reply(let text) = s.handle(line: "status") else { return [:] }
            return Dictionary(text.split(separator: "\n").compactMap { line in
                line.firstIndex(of: ":").map { (String(line[..<$0]), String(line[line.index($0, offsetBy: 2)...])) }
            }, uniquingKeysWith: { a, _ in a })
        }
        for line in ["repeat 1", "random 1", "random 0", "single oneshot"] { _ = s.handle(line: line) }
        var st = status()
        #expect(st["repeat"] == "1" && st["random"] == "0" && st["single"] == "oneshot" && st["consume"] == "0")
        _ = s.handle(line: "repeat 0")
        st = status()
        #expect(st["repeat"] == "0" && st["single"] == "oneshot")
        _ = s.handle(line: "single 0")
        #expect(status()["single"] == "0" && player.status.mode == .once)
        #expect(s.handle(line: "single 2") == .reply("ACK [2@0] {single} Unrecognized single mode, expected 0, 1, or oneshot\n"))
        // The mode button keeps what it does not cover.
        _ = s.handle(line: "single 1")
        player.perform(.cycleMode)
        #expect(player.status.options == PlayOptions(repeat: true))
    }

    /// A switch set on its own keeps the others as the player has them when it applies it.
    @Test func oneSwitchKeepsTheOthers() {
        let player = Player(engine: FakeEngine())
        for change in [PlayOptions.Switch.random(true), .single(.oneshot), .consume(true)] { player.perform(.setOption(change)) }
        player.perform(.setOption(.repeat(true)))
        #expect(player.status.options == PlayOptions(repeat: true, random: true, single: .oneshot, consume: true))
        player.perform(.setOption(.single(.off)))
        player.perform(.setOption(.consume(false)))
        #expect(player.status.options == PlayOptions(repeat: true, random: true))
        #expect(PlayerCommand.setOption(.single(.oneshot)).description == "single oneshot")
    }
}
