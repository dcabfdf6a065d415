import Testing
@testable import JukeboxCore

@Suite struct SleepTimerTests {
    let s: UInt64 = 1_000_000_000
    func timer(fade: Double = 30, steps: [Double] = [15, 30, 60]) -> SleepTimer {
        var settings = SleepTimer.Settings()
        settings.fadeSeconds = fade
        settings.steps = steps
        return SleepTimer(settings: settings)
    }
    func playing(_ id: Int, elapsed: Double, of duration: Double, at time: UInt64, speed: Double = 1, chapterEnd: Double? = nil) -> SleepTimer.Playback {
        .init(playing: true, songID: id, elapsed: elapsed, duration: duration, speed: speed, chapterEnd: chapterEnd, at: time)
    }

    @Test func minutesWaitThenFadeThenPauseAndRestore() {
        var t = timer()
        t.set(.minutes(10), now: 0)
        #expect(t.request == .minutes(10))
        // Waits until the fade begins, 30 s before the end.
        #expect(t.decide(now: 0, nil) == .init(actions: [], wakeAt: 570 * s))
        #expect(t.decide(now: 570 * s, nil) == .init(actions: [.fadeOut(seconds: 30)], wakeAt: 600 * s))
        // Looking again during the fade changes nothing.
        #expect(t.decide(now: 580 * s, nil) == .init(actions: [], wakeAt: 600 * s))
        #expect(t.decide(now: 600 * s, nil) == .init(actions: [.pause, .restoreLevel], wakeAt: nil))
        #expect(t.request == nil)
        #expect(t.decide(now: 601 * s, nil) == .init())
    }

    @Test func secondsLeftCountDown() {
        var t = timer()
        #expect(t.secondsLeft(now: 0, nil) == nil)
        t.set(.minutes(1), now: 10 * s)
        #expect(t.secondsLeft(now: 10 * s, nil) == 60)
        #expect(t.secondsLeft(now: 40 * s, nil) == 30)
        #expect(t.secondsLeft(now: 90 * s, nil) == 0)
    }

    @Test func aTimerShorterThanTheFadeFadesOverWhatIsLeft() {
        var t = timer(fade: 30)
        t.set(.minutes(0.1), now: 0)
        #expect(t.decide(now: 0, nil) == .init(actions: [.fadeOut(seconds: 6)], wakeAt: 6 * s))
    }

    @Test func offDuringTheFadeRestoresTheLevel() {
        var t = timer()
        t.set(.minutes(1), now: 0)
        _ = t.decide(now: 40 * s, nil)
        t.set(.off, now: 41 * s)
        #expect(t.decide(now: 41 * s, nil) == .init(actions: [.restoreLevel], wakeAt: nil))
        #expect(t.decide(now: 42 * s, nil) == .init())
    }

    @Test func aNewTimeDuringTheFadeRestoresTheLevelAndWaits() {
        var t = timer()
        t.set(.minutes(1), now: 0)
        _ = t.decide(now: 40 * s, nil)
        t.set(.minutes(15), now: 41 * s)
        #expect(t.decide(now: 41 * s, nil) == .init(actions: [.restoreLevel], wakeAt: 41 * s + 870 * s))
    }

    @Test func buttonStepsThroughThenOff() {
        var t = timer(steps: [15, 30, 60])
        #expect(t.step(now: 0) == .minutes(15))
        #expect(t.step(now: 1) == .minutes(30))
        #expect(t.step(now: 2) == .minutes(60))
        #expect(t.step(now: 3) == .off)
        #expect(t.request == nil)
        #expect(t.step(now: 4) == .minutes(15))
        // Each step counts from its press.
        #expect(t.secondsLeft(now: 4, nil) == 900)
        // Set otherwise (a card), a press starts the steps afresh.
        t.set(.endOfTrack, now: 5)
        #expect(t.step(now: 6) == .minutes(15))
    }

    @Test func endOfTrackPausesAtTheTracksEndReckonedFromTheStatus() {
        var t = timer(fade: 10)
        t.set(.endOfTrack, now: 0)
        // 100 s left of the track.
        let status = playing(1, elapsed: 20, of: 120, at: 0)
        #expect(t.decide(now: 0, status) == .init(actions: [], wakeAt: 90 * s))
        #expect(t.decide(now: 90 * s, status) == .init(actions: [.fadeOut(seconds: 10)], wakeAt: 100 * s))
        #expect(t.decide(now: 100 * s, status) == .init(actions: [.pause, .restoreLevel]))
    }

    @Test func endOfTrackFollowsASeekAndTheSpeed() {
        var t = timer(fade: 10)
        t.set(.endOfTrack, now: 0)
        _ = t.decide(now: 0, playing(1, elapsed: 20, of: 120, at: 0))
        // Seeked back during the fade: the level comes back and the end moves.
        _ = t.decide(now: 90 * s, playing(1, elapsed: 20, of: 120, at: 0))
        #expect(t.decide(now: 95 * s, playing(1, elapsed: 10, of: 120, at: 95 * s))
                == .init(actions: [.restoreLevel], wakeAt: 195 * s))
        // At double speed the 110 s left take 55 s.
        #expect(t.decide(now: 96 * s, playing(1, elapsed: 10, of: 120, at: 96 * s, speed: 2)).wakeAt == 141 * s)
    }

    @Test func endOfTrackWaitsWhilePaused() {
        var t = timer(fade: 10)
        t.set(.endOfTrack, now: 0)
        let paused = SleepTimer.Playback(playing: false, songID: 1, elapsed: 20, duration: 120, at: 0)
        #expect(t.decide(now: 0, paused) == .init())
        #expect(t.secondsLeft(now: 0, paused) == nil)
        #expect(t.request == .endOfTrack)
    }

    @Test func theGaplessNextTrackStartingFirstIsPausedAndTakenBackToItsStart() {
        var t = timer(fade: 10)
        t.set(.endOfTrack, now: 0)
        _ = t.decide(now: 0, playing(1, elapsed: 110, of: 120, at: 0))
        // The next track's status comes a moment before the timer fires.
        #expect(t.decide(now: 10 * s - 200_000_000, playing(2, elapsed: 0, of: 200, at: 10 * s - 200_000_000))
                == .init(actions: [.pause, .backToTrackStart, .restoreLevel]))
    }

    @Test func theSameTrackBegunAgainAtItsEndIsItsNextRound() {
        var t = timer(fade: 10)
        t.set(.endOfTrack, now: 0)
        _ = t.decide(now: 0, playing(1, elapsed: 110, of: 120, at: 0))
        // Repeat one: the same entry from its start, a moment before the timer fires.
        #expect(t.decide(now: 10 * s - 100_000_000, playing(1, elapsed: 0, of: 120, at: 10 * s - 100_000_000))
                == .init(actions: [.pause, .backToTrackStart, .restoreLevel]))
    }

    @Test func aSkipLongBeforeTheEndMovesTheTimerToTheNewTrack() {
        var t = timer(fade: 10)
        t.set(.endOfTrack, now: 0)
        _ = t.decide(now: 0, playing(1, elapsed: 0, of: 120, at: 0))
        #expect(t.decide(now: 5 * s, playing(2, elapsed: 0, of: 60, at: 5 * s)) == .init(actions: [], wakeAt: 55 * s))
        #expect(t.request == .endOfTrack)
    }

    @Test func endOfChapterPausesAtTheChaptersEnd() {
        var t = timer(fade: 10)
        t.set(.endOfChapter, now: 0)
        let status = playing(1, elapsed: 100, of: 3600, at: 0, chapterEnd: 300)
        #expect(t.decide(now: 0, status) == .init(actions: [], wakeAt: 190 * s))
        #expect(t.decide(now: 200 * s, status) == .init(actions: [.pause, .restoreLevel]))
        // Without chapters, the track's end.
        t.set(.endOfChapter, now: 0)
        #expect(t.decide(now: 0, playing(1, elapsed: 100, of: 160, at: 0)).wakeAt == 50 * s)
    }

    @Test func theChapterEndIsTheNextMark() {
        let marks = [0.0, 300, 600]
        #expect(SleepTimer.Playback.chapterEnd(marks: marks, elapsed: 100) == 300)
        #expect(SleepTimer.Playback.chapterEnd(marks: marks, elapsed: 300) == 600)
        #expect(SleepTimer.Playback.chapterEnd(marks: marks, elapsed: 650) == nil)
        #expect(SleepTimer.Playback.chapterEnd(marks: [0], elapsed: 1) == nil)
    }

    @Test func theFadeFallsAsTheVolumeCurve() {
        #expect(SleepFade.level(at: 0) == 1)
        #expect(SleepFade.level(at: 1) == 0)
        #expect(SleepFade.level(at: 0.5) == 0.125)
        #expect(SleepFade.level(at: 2) == 0)
        // Falling all the way, never rising.
        let levels = (0...100).map { SleepFade.level(at: Double($0) / 100) }
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 > $1 })
    }

    @Test func requestWords() {
        #expect(SleepRequest("30") == .minutes(30))
        #expect(SleepRequest("0.5") == .minutes(0.5))
        #expect(SleepRequest("0.05") == nil)
        #expect(SleepRequest("721") == nil)
        #expect(SleepRequest("end-of-chapter") == .endOfChapter)
        #expect(SleepRequest("soon") == nil)
    }
}
