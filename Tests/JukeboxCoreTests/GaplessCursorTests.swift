import Testing
@testable import JukeboxCore

/// Where gapless playback stands, as a value: the engine's news fed in by hand.
@Suite struct GaplessCursorTests {
    let info = StreamInfo(sampleRate: 44_100, channels: 2, sampleFormat: .s16, totalFrames: 44_100)

    @Test func aNamedTrackIsHeardAfterTheDecoderGoesOnToIt() throws {
        var cursor = GaplessCursor()
        let first = cursor.start(at: 0, frame: 500)
        #expect(cursor.current == first && cursor.currentPosition == 0 && cursor.cuedFrame == 500)
        let second = try #require(cursor.name(1) as Int?)
        let namedAgain = cursor.name(1)
        #expect(namedAgain == nil, "the same track is not named twice")
        let wentOn = cursor.decoderAdvanced(second)
        let wentOnAgain = cursor.decoderAdvanced(second)
        #expect(wentOn && !wentOnAgain, "only the named track is gone on to")
        #expect(cursor.ahead == [.init(token: second, position: 1)])
        let third = try #require(cursor.name(2) as Int?)
        // Heard before the decoder's note came: the same as after it.
        let reached = cursor.heard(third)
        #expect(reached == [.init(token: second, position: 1), .init(token: third, position: 2)])
        #expect(cursor.current == third && cursor.currentPosition == 2)
        #expect(cursor.ahead.isEmpty)
    }

    @Test func aTrackThatFailsAheadIsPassedOverOnTheWay() throws {
        var cursor = GaplessCursor()
        _ = cursor.start(at: 0, frame: 0)
        let broken = try #require(cursor.name(1) as Int?)
        let passed = cursor.passedOver(broken, at: 1)
        #expect(passed)
        let next = try #require(cursor.name(2) as Int?)
        _ = cursor.decoderAdvanced(next)
        let reached = cursor.heard(next)
        #expect(reached == [.init(token: broken, position: 1, passedOver: true), .init(token: next, position: 2)])
        let unknown = cursor.heard(12345)
        #expect(unknown == nil)
        // A failure of a track not named to follow is not passed over.
        let passedCurrent = cursor.passedOver(next, at: 2)
        #expect(!passedCurrent)
    }

    @Test func aQueueEditMovesWhatIsAheadOrSaysItIsGone() throws {
        var cursor = GaplessCursor()
        _ = cursor.start(at: 1, frame: 0)
        let ahead = try #require(cursor.name(2) as Int?)
        _ = cursor.decoderAdvanced(ahead)
        _ = cursor.name(3)
        // Entry 0 removed: everything moves up one, the named track is named again.
        var result = cursor.remap([nil, 0, 1, 2])
        #expect(result.aheadKept && result.wasNamed)
        #expect(cursor.currentPosition == 0)
        #expect(cursor.ahead == [.init(token: ahead, position: 1)])
        #expect(cursor.pending == nil)
        // The track gone on to is removed: the cursor says so.
        result = cursor.remap([0, nil, 1])
        #expect(!result.aheadKept && !result.wasNamed)
        #expect(cursor.ahead.isEmpty)
    }

    @Test func aPassedOverEntryRemovedNeedsNoSteppingOver() throws {
        var cursor = GaplessCursor()
        _ = cursor.start(at: 0, frame: 0)
        let broken = try #require(cursor.name(1) as Int?)
        _ = cursor.passedOver(broken, at: 1)
        let result = cursor.remap([0, nil])
        #expect(result.aheadKept)
        #expect(cursor.ahead.isEmpty)
    }

    @Test func theEngineIsToldOnlyOfAChange() {
        var cursor = GaplessCursor()
        var told: [Bool] = []
        for hasNext in [false, true, true, false, false] { told.append(cursor.tell(hasNext: hasNext)) }
        // Nothing after nothing wakes no one; something is told each time.
        #expect(told == [false, true, true, true, false])
        cursor.engineHolds(next: true)
        let toldNothing = cursor.tell(hasNext: false)
        #expect(toldNothing)
    }

    @Test func whatWasOpenedIsKeptForTheTracksStillInPlay() {
        var cursor = GaplessCursor()
        let old = cursor.start(at: 0, frame: 0)
        cursor.opened(old, info: info, metadata: TrackMetadata())
        cursor.movingBack = true
        let current = cursor.start(at: 1, frame: 0)
        var tags = TrackMetadata()
        tags.title = "Now"
        cursor.opened(current, info: info, metadata: tags)
        #expect(!cursor.movingBack, "once the current track opens, a failure is no step back")
        cursor.forgetOld()
        #expect(cursor.positions[old] == nil && cursor.metadata(of: old) == nil)
        #expect(cursor.currentMetadata?.title == "Now")
        #expect(cursor.currentInfo == info)
        cursor.stop()
        #expect(cursor.current == nil && cursor.currentInfo == nil)
    }
}
