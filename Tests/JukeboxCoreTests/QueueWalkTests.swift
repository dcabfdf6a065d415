import Testing
@testable import JukeboxCore

/// Where the queue goes on after an end, a gapless change, a failure or a removal: the
/// rules on the queue alone, with synthetic lists.
@Suite struct QueueWalkTests {
    func queue(_ count: Int, at current: Int, mode: PlayMode = .once) -> QueueEntries {
        var queue = QueueEntries(order: PlayQueue(count: 0, mode: mode, generator: SystemRandom()))
        let paths = (0..<count).map { "/m/\($0).flac" }
        _ = queue.offerLibrary(paths, provisional: false)
        queue.order.reset(count: count, current: nil)
        _ = queue.order.jump(to: current)
        return queue
    }

    typealias Ahead = GaplessCursor.Ahead

    @Test func anEndMovesOnPastWhatTheDecoderPassedOver() {
        var q = queue(5, at: 0)
        let ahead = [Ahead(token: 7, position: 1, passedOver: true), Ahead(token: 8, position: 2, passedOver: true)]
        #expect(q.advanceAfterEnd(passing: ahead) == 3)
        #expect(q.order.current == 3)
        // At the last entry: the queue's end.
        var last = queue(2, at: 1)
        #expect(last.advanceAfterEnd(passing: []) == nil)
    }

    @Test func aGaplessChangeFinishesEachTrackHeardOnTheWay() {
        var q = queue(5, at: 0)
        // The decoder went 0 → 1 → (2 could not open) → 3, and the listener reached 3.
        let reached = [Ahead(token: 2, position: 1), Ahead(token: 3, position: 2, passedOver: true), Ahead(token: 4, position: 3)]
        let finished = q.advance(through: reached)
        #expect(finished.map(\.position) == [0, 1])
        #expect(finished.map(\.path) == ["/m/0.flac", "/m/1.flac"])
        #expect(finished.map(\.id) == [q.ids[0], q.ids[1]])
        #expect(q.order.current == 3)
    }

    @Test func aFailureGoesOnTheWayItWasGoing() {
        var forward = queue(4, at: 1)
        #expect(forward.wayPastFailure(movingBack: false) == (2, false))
        var back = queue(4, at: 0)
        _ = back.order.next()
        _ = back.order.next()  // at 2, with 0 and 1 behind
        #expect(back.wayPastFailure(movingBack: true) == (1, true))
        // From the first entry there is no way back: forward.
        var first = queue(4, at: 0)
        #expect(first.wayPastFailure(movingBack: true) == (1, false))
    }

    @Test func aRemovedCurrentEntryIsTakenOverByTheOneInItsPlace() {
        let q = queue(3, at: 1)  // the list is already the new one: entries 1 went
        #expect(q.replacement(forRemoved: 1, moved: [0, nil, 1, 2]) == 1)
        #expect(q.replacement(forRemoved: 3, moved: [0, 1, 2, nil]) == nil)
    }

    @Test func whatFollowsIsNamedOnlyWhilePlayingARealList() {
        var q = queue(4, at: 0)
        #expect(q.following(ahead: [], playing: false) == nil)
        #expect(q.following(ahead: [], playing: true) == 1)
        #expect(q.following(ahead: [Ahead(token: 2, position: 1)], playing: true) == 2)
        var provisional = QueueEntries(order: PlayQueue(count: 0, mode: .once, generator: SystemRandom()))
        _ = provisional.offerLibrary(["/m/resumed.flac"], provisional: true)
        provisional.order.reset(count: 1, current: 0)
        #expect(provisional.following(ahead: [], playing: true) == nil)
    }
}
