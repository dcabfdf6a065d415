import Testing
@testable import JukeboxCore

/// Where lyrics are at a moment: the line, the fill through its words, the gaps.
@Suite struct KaraokeTests {
    func lyrics(_ text: String) -> Lyrics { LRCParser.parse(text: text, source: .file) }

    @Test func wordTimesDriveTheFillWordByWord() throws {
        let l = lyrics("[00:10.00]<00:10.00>One <00:11.00>two <00:13.00>three<00:14.00>\n[00:17.00]next")
        #expect(l.lines[0].endMs == 14_000)
        let a = try #require(LyricsMoment.at(10_500, in: l))
        #expect(a.line == 0 && a.word == 0 && a.fraction == 0.5)
        let b = try #require(LyricsMoment.at(12_000, in: l))
        #expect(b.word == 1 && b.fraction == 0.5)
        let c = try #require(LyricsMoment.at(13_999, in: l))
        #expect(c.word == 2 && c.fraction > 0.99)
        // After the end tag the line stays up: the next line is only 3 s on, a short rest.
        let d = try #require(LyricsMoment.at(16_000, in: l))
        #expect(d.line == 0 && d.fraction == 1 && d.gap == nil)
    }

    @Test func lineTimesOnlyFillAcrossTheLineUntilTheNext() throws {
        let l = lyrics("[00:01.00]first\n[00:05.00]second\n[00:07.00]third")
        let m = try #require(LyricsMoment.at(3_000, in: l))
        #expect(m.line == 0 && m.word == nil && m.fraction == 0.5 && m.previous == nil && m.next == 1)
        let n = try #require(LyricsMoment.at(6_000, in: l))
        #expect(n.line == 1 && n.fraction == 0.5 && n.previous == 0 && n.next == 2)
    }

    @Test func anInstrumentalStretchShowsTheGapNotAStaleLine() throws {
        // Sung at 1 s, next line at 60 s: after the longest a line lasts, it is a gap.
        let l = lyrics("[00:01.00]verse\n[01:00.00]after the solo")
        let sung = try #require(LyricsMoment.at(5_000, in: l))
        #expect(sung.line == 0 && sung.gap == nil)
        let solo = try #require(LyricsMoment.at(30_000, in: l))
        #expect(solo.line == nil && solo.previous == 0 && solo.next == 1)
        let gap = try #require(solo.gap)
        #expect(gap > 0.3 && gap < 0.4)
        // An empty line clears the screen too, and the gap runs from it.
        let e = lyrics("[00:01.00]verse\n[00:03.00]\n[00:13.00]chorus")
        let cleared = try #require(LyricsMoment.at(8_000, in: e))
        #expect(cleared.line == nil && cleared.gap == 0.5 && cleared.next == 2)
        // A long intro before the first line is a gap from the start.
        let intro = try #require(LyricsMoment.at(5_000, in: lyrics("[00:20.00]late start")))
        #expect(intro.line == nil && intro.gap == 0.25)
        #expect(LyricsMoment.at(5_000, in: lyrics("plain text, no times")) == nil)
    }

    @Test func theNextChangeIsTheNextLineOrTheEndOfThisOne() {
        let l = lyrics("[00:01.00]verse\n[01:00.00]after the solo")
        #expect(ScreenRenderer.nextLyricChange(after: 500, in: l) == 1_000)
        #expect(ScreenRenderer.nextLyricChange(after: 2_000, in: l) == 13_000)  // the line's longest
        #expect(ScreenRenderer.nextLyricChange(after: 20_000, in: l) == 60_000)
    }
}
