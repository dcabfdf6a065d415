/// Where the queue goes on when a track ends, is reached without a gap, fails to open,
/// or leaves the list. Rules on the queue alone: the player then starts (or stops) what
/// they name.
extension QueueEntries {
    /// An entry that played to its end: its place then, its id (to consume it once the
    /// queue has moved on) and its file.
    struct Finished: Equatable {
        var position: Int
        var id: Int
        var path: String
    }

    /// The current track ended: moves to the entry after it, and past the ones the
    /// decoder could not open and passed over (`ahead`), which are not tried again.
    /// Returns the entry to start, or nil at the queue's end.
    mutating func advanceAfterEnd(passing ahead: [GaplessCursor.Ahead]) -> Int? {
        var position = order.advanceAfterNaturalEnd()
        for entry in ahead where entry.passedOver {
            guard let at = position, at == entry.position else { break }
            position = order.advanceAfterNaturalEnd()
            order.forgetPlayed(at)
        }
        return position
    }

    /// The listener reached the last of `reached`, tracks the decoder went on to without a
    /// gap: moves the queue there. Each entry before it ended by itself, except those the
    /// decoder passed over (never heard); returns the ones that ended, in order.
    mutating func advance(through reached: [GaplessCursor.Ahead]) -> [Finished] {
        var finished: [Finished] = []
        for step in reached.indices {
            let position = order.current ?? 0
            if step > 0, reached[step - 1].passedOver {
                _ = order.advanceAfterNaturalEnd()
                order.forgetPlayed(position)
                continue
            }
            if position < count { finished.append(Finished(position: position, id: ids[position], path: tracks[position])) }
            _ = order.advanceAfterNaturalEnd()
        }
        return finished
    }

    /// The current entry could not be opened: the way on, back past it after "previous"
    /// (`movingBack`; forward from the first entry), forward otherwise. "previous" never
    /// walks back onto it again.
    mutating func wayPastFailure(movingBack: Bool) -> (target: Int?, backwards: Bool) {
        let failed = order.current
        var target: Int?
        if movingBack, let back = order.previous(), back != failed { target = back }
        let backwards = target != nil
        if target == nil { target = order.next() }
        if let failed { order.forgetPlayed(failed) }
        return (target, backwards)
    }

    /// The current entry, at `old`, left the list (`moved[old]` is each old entry's new
    /// place): the entry now in its place, or nil when none is.
    func replacement(forRemoved old: Int, moved: [Int?]) -> Int? {
        let place = moved.prefix(old).compactMap { $0 }.count
        return place < count ? place : nil
    }

    /// The entry to open after the last track the engine has (`ahead`'s last, or the
    /// current one): nil while nothing plays, or while the list is provisional.
    mutating func following(ahead: [GaplessCursor.Ahead], playing: Bool) -> Int? {
        guard playing, !provisional else { return nil }
        let position: Int?
        if let last = ahead.last { position = order.peekAfterUpcoming(last.position) } else { position = order.peekAfterNaturalEnd() }
        guard let position, position < count else { return nil }
        return position
    }
}
