/// The queue, the play options and the history of what was actually played.
///
/// It only decides which track comes next; it never touches audio. Every method that
/// moves returns the new index, or nil when playback should stop.
public struct PlayQueue<Generator: RandomNumberGenerator & Sendable>: Sendable {
    public private(set) var count: Int
    public private(set) var current: Int?
    public private(set) var options: PlayOptions
    /// The mode the options amount to (the button's and the screen's view of them).
    public var mode: PlayMode { options.mode }
    /// Indices played before the current one, most recent last; bounded.
    public private(set) var history: [Int] = []
    public let historyLimit: Int

    /// The shuffle cycle: a permutation of all indices and where we are in it.
    private var shuffleOrder: [Int] = []
    private var shufflePosition = 0
    /// Each entry's priority (MPD's `prio`), empty while all are 0: in random play the
    /// part of the cycle still to come is ordered by it, highest first, and shuffled
    /// among equals.
    private var priorities: [Int] = []
    private var generator: Generator

    public init(count: Int, options: PlayOptions = PlayOptions(), historyLimit: Int = 100, generator: Generator) {
        self.count = count
        self.options = options
        self.historyLimit = historyLimit
        self.generator = generator
        if options.random { reshuffle(startingWith: nil) }
    }

    public init(count: Int, mode: PlayMode, historyLimit: Int = 100, generator: Generator) {
        self.init(count: count, options: PlayOptions(mode: mode), historyLimit: historyLimit, generator: generator)
    }

    /// The track list changed (a rescan); the current track keeps its place if it survives.
    public mutating func reset(count: Int, current: Int?) {
        self.count = count
        self.current = current.flatMap { $0 < count ? $0 : nil }
        history.removeAll()
        priorities = []
        if options.random { reshuffle(startingWith: self.current) }
    }

    /// The queue was edited: `moved[old]` is where each entry went (nil: removed), and
    /// the queue now holds `count` entries, those not in `moved` new. The current entry,
    /// the history and the shuffle cycle follow their entries; new entries join the
    /// part of the cycle still to come, at random places. A removed current entry
    /// leaves no current one (the player decides what plays instead). `priorities` are
    /// the entries' priorities now (empty: all 0): as in MPD, an entry already played
    /// whose priority was raised is due again, and what is to come goes highest first.
    public mutating func remap(count newCount: Int, moved: [Int?], priorities newPriorities: [Int] = []) {
        func map(_ index: Int) -> Int? { index < moved.count ? moved[index] : nil }
        var raised = Set<Int>()
        for (old, new) in moved.enumerated() {
            guard let new, priority(new, in: newPriorities) > priority(old, in: priorities) else { continue }
            raised.insert(new)
        }
        count = newCount
        priorities = newPriorities
        current = current.flatMap(map)
        history = history.compactMap(map)
        guard !shuffleOrder.isEmpty || options.random else { return }
        var done = shufflePosition >= 0 ? shuffleOrder.prefix(shufflePosition + 1).compactMap(map) : []
        var coming = shuffleOrder.dropFirst(max(0, shufflePosition + 1)).compactMap(map)
        done.removeAll { $0 != current && raised.contains($0) }
        let known = Set(done).union(coming)
        for index in 0..<newCount where !known.contains(index) {
            coming.insert(index, at: Int.random(in: 0...coming.count, using: &generator))
        }
        shuffleOrder = done + byPriority(coming)
        shufflePosition = done.count - 1
        if let current, let at = shuffleOrder.firstIndex(of: current) { shufflePosition = at }
    }

    /// A mode sets repeat, random and single; consume stays as it is.
    /// Returns whether the options changed.
    @discardableResult
    public mutating func setMode(_ newMode: PlayMode) -> Bool {
        setOptions(PlayOptions(mode: newMode, consume: options.consume))
    }

    /// Returns whether the options changed.
    @discardableResult
    public mutating func setOptions(_ new: PlayOptions) -> Bool {
        guard new != options else { return false }
        let wasRandom = options.random
        options = new
        if options.random, !wasRandom { reshuffle(startingWith: current) }
        return true
    }

    /// Jumps to `index` as the user asked (play N); the track left goes on the history.
    @discardableResult
    public mutating func jump(to index: Int) -> Int? {
        guard index >= 0, index < count else { return nil }
        let started = current != nil
        move(to: index)
        if options.random, let at = shuffleOrder.firstIndex(of: index) {
            // As MPD: an entry not yet played is taken out of the cycle and played now, so
            // what was to come (highest priority first) still comes next; one already
            // played is gone back to.
            if !started || at > shufflePosition {
                let slot = started ? shufflePosition + 1 : 0
                shuffleOrder.remove(at: at)
                shuffleOrder.insert(index, at: slot)
                shufflePosition = slot
            } else {
                shufflePosition = at
            }
        }
        return index
    }

    /// Makes `index` the current track in place of the one just chosen, without adding
    /// that one to the history: a folder that keeps its place redirects a move into it.
    public mutating func retarget(to index: Int) {
        guard index >= 0, index < count else { return }
        current = index
        if options.random, let at = shuffleOrder.firstIndex(of: index) { shufflePosition = at }
    }

    /// What follows the current track at its natural end, without moving: the player opens
    /// and primes that decoder before the current one ends.
    public mutating func peekAfterNaturalEnd() -> Int? {
        guard let current, count > 0 else { return count > 0 ? firstIndex() : nil }
        if options.single != .off { return options.repeat ? current : nil }
        if options.random { return peekShuffle() }
        return following(current)
    }

    /// The entry after `index` in queue order: wrapping round with repeat, else none after the last.
    private func following(_ index: Int) -> Int? {
        index + 1 < count ? index + 1 : (options.repeat ? 0 : nil)
    }

    /// What is due after the current track at its natural end, as far as it is known
    /// without drawing anything (a shuffle cycle that ends here has no next yet): what
    /// MPD's `nextsong` reports.
    public var upcoming: Int? {
        guard let current, count > 0 else { return nil }
        if options.single != .off { return options.repeat ? current : nil }
        guard options.random else { return following(current) }
        guard shuffleOrder.count == count, shufflePosition + 1 < shuffleOrder.count else { return nil }
        return shuffleOrder[shufflePosition + 1]
    }

    /// What follows `position` at its natural end, when `position` is itself the track
    /// after the current one: the decode thread can be two tracks ahead of what is heard.
    /// In shuffle, nil across a cycle boundary (the next cycle is drawn when it starts).
    public mutating func peekAfterUpcoming(_ position: Int) -> Int? {
        guard count > 0 else { return nil }
        if options.single != .off { return options.repeat && options.single == .on ? position : nil }
        guard options.random else { return following(position) }
        guard let at = shuffleOrder.firstIndex(of: position), at + 1 < shuffleOrder.count, at > shufflePosition else { return nil }
        return shuffleOrder[at + 1]
    }

    /// The current track ended by itself.
    public mutating func advanceAfterNaturalEnd() -> Int? {
        let next = peekAfterNaturalEnd()
        // A one-shot single covers the track that just ended, and only that one.
        if options.single == .oneshot { options.single = .off }
        guard let next else {
            if let current { pushHistory(current) }
            self.current = nil
            return nil
        }
        if options.random, next != current { consumeShuffle() }
        move(to: next)
        return next
    }

    /// An explicit "next": moves even in repeat-one; stops after the last track only in once.
    public mutating func next() -> Int? {
        guard count > 0 else { return nil }
        guard let current else { return jump(to: firstIndex()) }
        let target: Int?
        if options.random {
            target = peekShuffle()
            consumeShuffle()
        } else {
            target = following(current)
        }
        guard let target else {
            pushHistory(current)
            self.current = nil
            return nil
        }
        move(to: target)
        return target
    }

    /// An explicit "previous" (the player has already decided not to restart the track):
    /// back through what was played, else the previous track in queue order.
    public mutating func previous() -> Int? {
        guard count > 0 else { return nil }
        while let last = history.popLast() {
            guard last < count else { continue }
            current = last
            if options.random, let at = shuffleOrder.firstIndex(of: last) { shufflePosition = at }
            return last
        }
        guard let current else { return firstIndex() }
        let target = current > 0 ? current - 1 : (options.repeat ? count - 1 : 0)
        self.current = target
        return target
    }

    /// An entry that could not be played leaves the history: "previous" walks back
    /// through what was heard, not onto a track that fails again.
    public mutating func forgetPlayed(_ index: Int) {
        history.removeAll { $0 == index }
    }

    public var memory: QueueMemory {
        QueueMemory(current: current, history: history, shuffleOrder: shuffleOrder, shufflePosition: shufflePosition)
    }

    /// Takes back a saved memory of a queue of the same tracks. Indices beyond the queue
    /// are dropped; a shuffle order that is not a permutation of the queue is drawn afresh.
    public mutating func restore(_ memory: QueueMemory) {
        current = memory.current.flatMap { $0 >= 0 && $0 < count ? $0 : nil }
        history = Array(memory.history.filter { $0 >= 0 && $0 < count }.suffix(historyLimit))
        if memory.shuffleOrder.count == count, Set(memory.shuffleOrder) == Set(0..<count),
           (-1..<count).contains(memory.shufflePosition) {
            shuffleOrder = memory.shuffleOrder
            shufflePosition = memory.shufflePosition
        } else if options.random {
            reshuffle(startingWith: current)
        }
    }

    // MARK: Internals

    private func firstIndex() -> Int { options.random && !shuffleOrder.isEmpty ? shuffleOrder[0] : 0 }

    private mutating func move(to index: Int) {
        if let current { pushHistory(current) }
        current = index
    }

    private mutating func pushHistory(_ index: Int) {
        history.append(index)
        if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
    }

    /// A new permutation. The first track is `first` when given (the track playing as
    /// shuffle is switched on), and never `avoid` (the track that just ended a cycle).
    private mutating func reshuffle(startingWith first: Int?, avoid: Int? = nil) {
        var order = Array(0..<count)
        order.shuffle(using: &generator)
        if let first, let at = order.firstIndex(of: first) {
            order.swapAt(0, at)
        } else if let avoid, order.count > 1, order[0] == avoid {
            order.swapAt(0, Int.random(in: 1..<order.count, using: &generator))
        }
        // The first stays first (the track playing as shuffle is switched on).
        shuffleOrder = first != nil && !order.isEmpty ? [order[0]] + byPriority(Array(order.dropFirst())) : byPriority(order)
        shufflePosition = 0
    }

    private func priority(_ index: Int, in list: [Int]) -> Int { index < list.count ? list[index] : 0 }

    /// `order` with higher priorities first, each group in the order it had (a shuffle).
    private func byPriority(_ order: [Int]) -> [Int] {
        guard !priorities.isEmpty else { return order }
        return order.enumerated().sorted { a, b in
            let (x, y) = (priority(a.element, in: priorities), priority(b.element, in: priorities))
            return x != y ? x > y : a.offset < b.offset
        }.map(\.element)
    }

    private mutating func peekShuffle() -> Int? {
        guard count > 0 else { return nil }
        if shuffleOrder.count != count { reshuffle(startingWith: current) }
        if shufflePosition + 1 >= shuffleOrder.count {
            // The cycle is over: without repeat, so is playback; with it, the next cycle
            // starts, with a different first track.
            guard options.repeat else { return nil }
            reshuffle(startingWith: nil, avoid: current)
            shufflePosition = -1
        }
        return shuffleOrder[shufflePosition + 1]
    }

    private mutating func consumeShuffle() { shufflePosition += 1 }
}

/// What a restart needs to carry on as if it never happened: the current track, the
/// history "previous" walks back through, and the shuffle cycle with its place.
public struct QueueMemory: Sendable, Equatable, Codable {
    public var current: Int?
    public var history: [Int]
    public var shuffleOrder: [Int]
    public var shufflePosition: Int
}

/// The default generator; tests pass a seeded one.
public struct SystemRandom: RandomNumberGenerator, Sendable {
    public init() {}
    private var inner = SystemRandomNumberGenerator()
    public mutating func next() -> UInt64 { inner.next() }
}
