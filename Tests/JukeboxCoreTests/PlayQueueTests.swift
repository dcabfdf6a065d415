import Testing
@testable import JukeboxCore

@Suite struct PlayQueueTests {
    func queue(_ count: Int, _ mode: PlayMode, seed: UInt64 = 1) -> PlayQueue<SplitMix> {
        PlayQueue(count: count, mode: mode, generator: SplitMix(seed: seed))
    }

    @Test func onceStopsAfterTheLast() {
        var q = queue(3, .once)
        #expect(q.jump(to: 0) == 0)
        #expect(q.advanceAfterNaturalEnd() == 1)
        #expect(q.advanceAfterNaturalEnd() == 2)
        #expect(q.peekAfterNaturalEnd() == nil)
        #expect(q.advanceAfterNaturalEnd() == nil)
        #expect(q.current == nil)
    }

    @Test func repeatAllWraps() {
        var q = queue(3, .repeatAll)
        q.jump(to: 1)
        #expect([q.advanceAfterNaturalEnd(), q.advanceAfterNaturalEnd(), q.advanceAfterNaturalEnd()] == [2, 0, 1])
        #expect(q.next() == 2)
        #expect(q.next() == 0)
    }

    @Test func repeatOneRepeatsAtNaturalEndButNextAndPreviousMove() {
        var q = queue(3, .repeatOne)
        q.jump(to: 1)
        #expect(q.peekAfterNaturalEnd() == 1)
        #expect(q.advanceAfterNaturalEnd() == 1)
        #expect(q.advanceAfterNaturalEnd() == 1)
        #expect(q.next() == 2)
        #expect(q.next() == 0)
        #expect(q.previous() == 2)  // back through what was played
    }

    @Test func explicitNextInOnceStopsAtTheEnd() {
        var q = queue(2, .once)
        q.jump(to: 1)
        #expect(q.next() == nil)
        #expect(q.current == nil)
    }

    @Test func previousWalksBackThroughWhatWasPlayed() {
        var q = queue(10, .once)
        q.jump(to: 0)
        q.jump(to: 7)
        q.jump(to: 3)
        _ = q.advanceAfterNaturalEnd()  // 4
        #expect(q.current == 4)
        #expect(q.previous() == 3)
        #expect(q.previous() == 7)
        #expect(q.previous() == 0)
        // Empty history: previous in queue order.
        #expect(q.previous() == 0)  // first track in once mode stays at the start
        q.jump(to: 5)
        _ = q.previous()  // back to 0 from history
        #expect(q.previous() == 0)
    }

    @Test func previousWithEmptyHistoryGoesBackInQueueOrder() {
        var q = queue(4, .repeatAll)
        q.reset(count: 4, current: 2)
        #expect(q.previous() == 1)
        #expect(q.previous() == 0)
        #expect(q.previous() == 3)  // wraps in repeat-all
    }

    @Test func historyIsBounded() {
        var q = PlayQueue(count: 500, mode: .repeatAll, historyLimit: 100, generator: SplitMix(seed: 3))
        q.jump(to: 0)
        for _ in 0..<400 { _ = q.next() }
        #expect(q.history.count == 100)
        #expect(q.history.last == 399)
    }

    @Test func previousWalksHistoryInShuffleToo() {
        var q = queue(8, .shuffle)
        q.jump(to: 2)
        var played = [2]
        for _ in 0..<5 { played.append(q.advanceAfterNaturalEnd()!) }
        for expected in played.dropLast().reversed() { #expect(q.previous() == expected) }
    }

    /// Every track exactly once per cycle, over many cycles; a new cycle never starts with
    /// the track that just ended the last one.
    @Test(arguments: [1, 2, 3, 7, 50])
    func shuffleFairness(count: Int) {
        var q = queue(count, .shuffle, seed: UInt64(count))
        var sequence = [q.next()!]
        for _ in 0..<(count * 200 - 1) { sequence.append(q.advanceAfterNaturalEnd()!) }
        var cycles: [[Int]] = []
        for start in stride(from: 0, to: sequence.count, by: count) { cycles.append(Array(sequence[start..<(start + count)])) }
        for cycle in cycles { #expect(cycle.sorted() == Array(0..<count)) }
        if count > 1 {
            for (a, b) in zip(cycles, cycles.dropFirst()) { #expect(a.last != b.first) }
        }
        if count > 2 {
            // Not always the same order (with two tracks the rules leave only one).
            #expect(Set(cycles.map { $0.description }).count > 1)
        }
    }

    @Test func switchingToShuffleKeepsTheCurrentTrackInTheCycle() {
        var q = queue(6, .once)
        q.jump(to: 4)
        q.setMode(.shuffle)
        var rest: [Int] = []
        for _ in 0..<5 { rest.append(q.advanceAfterNaturalEnd()!) }
        #expect(([4] + rest).sorted() == Array(0..<6))
    }

    @Test func modeCycles() {
        #expect(PlayMode.once.cycled == .repeatAll)
        #expect(PlayMode.repeatAll.cycled == .repeatOne)
        #expect(PlayMode.repeatOne.cycled == .shuffle)
        #expect(PlayMode.shuffle.cycled == .once)
    }

    @Test func emptyQueue() {
        var q = queue(0, .repeatAll)
        #expect(q.next() == nil)
        #expect(q.previous() == nil)
        #expect(q.advanceAfterNaturalEnd() == nil)
    }

    /// MPD's priorities in random play: what is to come goes highest first, shuffled among
    /// equals; an entry played already whose priority is raised is due again; an entry
    /// played by hand is taken out of the cycle, so the highest still comes next.
    @Test func prioritiesOrderWhatRandomPlaysNext() {
        var q = queue(10, .shuffle, seed: 7)
        let identity: [Int?] = Array(0..<10)
        var priorities = Array(repeating: 0, count: 10)
        priorities[8] = 200
        priorities[3] = 5
        priorities[5] = 5
        q.remap(count: 10, moved: identity, priorities: priorities)
        #expect(q.jump(to: 0) == 0)
        #expect(q.upcoming == 8)
        #expect(q.next() == 8)
        #expect(Set([q.next(), q.next()]) == [3, 5])
        // Played, then raised: due again, before the zeros.
        priorities[8] = 250
        q.remap(count: 10, moved: identity, priorities: priorities)
        #expect(q.next() == 8)
        // All back to 0: the rest of the cycle in some order, each once.
        q.remap(count: 10, moved: identity, priorities: [])
        var rest: Set<Int> = []
        while let n = q.peekAfterNaturalEnd(), rest.count < 6 { rest.insert(n); _ = q.advanceAfterNaturalEnd() }
        #expect(rest == [1, 2, 4, 6, 7, 9])
    }
}
