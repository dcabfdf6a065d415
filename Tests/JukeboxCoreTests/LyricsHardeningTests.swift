import Foundation
import Testing
@testable import JukeboxCore

/// Hostile lyrics: numbers past Int's range, inputs built to be quadratic, and the time
/// box that keeps one bad file from starving the lyrics of the tracks after it.
@Suite struct LyricsHardeningTests {
    let fx = Fixtures.shared

    /// Runs `body` on a thread and waits at most `seconds` for it: a hang fails the test
    /// instead of blocking the run.
    func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread { body(); done.signal() }.start()
        return done.wait(timeout: .now() + seconds) == .success
    }

    @Test(arguments: ["-9223372036854775808", "9223372036854775807", "-10000000000000000", "+20000000000000000"])
    func offsetsPastADayAreIgnored(offset: String) {
        let l = LRCParser.parse(text: "[offset:\(offset)]\n[00:01.00]<00:01.00>one\n", source: .file)
        #expect(l.offsetMs == 0)
        #expect(l.lines.map(\.timeMs) == [1000])
        #expect(l.lines.first?.words.map(\.timeMs) == [1000])
    }

    @Test func anOffsetOfADayStillApplies() {
        let l = LRCParser.parse(text: "[offset:-86400000]\n[00:01.00]one\n", source: .file)
        #expect(l.lines.map(\.timeMs) == [86_401_000])
    }

    @Test func fourMebibytesOfOpenAnglesParseInBoundedTime() {
        let text = "[00:01.00]" + String(repeating: "<", count: LRCParser.maximumFileSize - 10)
        let ok = finishes(within: 60) {
            let l = LRCParser.parse(text: text, source: .file)
            precondition(l.lines.count == 1 && l.lines[0].text.utf8.count == LRCParser.maximumFileSize - 10)
        }
        #expect(ok, "4 MiB of '<' after a time tag did not parse within 60 s")
    }

    @Test func fourMebibytesOfBlankLinesParseInBoundedTime() {
        let text = String(repeating: "\n", count: LRCParser.maximumFileSize / 2) + "words"
            + String(repeating: "\n", count: LRCParser.maximumFileSize / 2)
        let ok = finishes(within: 60) {
            precondition(LRCParser.parse(text: text, source: .file).lines.map(\.text) == ["words"])
        }
        #expect(ok, "4 MiB of blank lines did not parse within 60 s")
    }

    @Test func aPassedDeadlineGivesUp() throws {
        let text = String(repeating: "[00:01.00]line\n", count: 20_000)
        let expired = LyricsDeadline(budgetMs: 0)
        #expect(throws: LyricsGaveUp.self) { try LRCParser.parse(text: text, source: .file, deadline: expired) }
        // A small file finishes before its first checkpoint whatever the deadline.
        #expect(try LRCParser.parse(text: "[00:01.00]one", source: .file, deadline: expired).lines.count == 1)
    }

    @Test func theLocatorReportsASidecarItGaveUpOn() throws {
        let folder = try fx.scratchFolder("gave-up")
        let audio = "\(folder)/song.flac"
        try FileManager.default.copyItem(atPath: fx.path("music16.flac"), toPath: audio)
        try String(repeating: "[00:01.00]line\n", count: 20_000).write(toFile: "\(folder)/song.lrc", atomically: true, encoding: .utf8)
        var problems: [String] = []
        let found = LyricsLocator.lyrics(forAudioAt: audio, metadata: TrackMetadata(), problems: &problems,
                                         deadline: LyricsDeadline(budgetMs: 0))
        #expect(found == nil)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("\(folder)/song.lrc: gave up after ") == true)
    }

    // MARK: Through the binary

    func jukebox(_ args: [String]) throws -> Tools.Output {
        try Tools.run("timeout", ["60", Tools.jukebox] + args, check: false)
    }

    @Test(arguments: ["1e300", "nan", "inf", "-inf", "-1"])
    func lyricsAtRefusesTimesThatAreNotTimes(at: String) throws {
        let lrc = try fx.write("at-\(at).lrc", Array("[00:01.00]one\n".utf8))
        let out = try jukebox(["lyrics", lrc, "--at=\(at)"])
        #expect(out.status == 64, "exit \(out.status): \(out.stderr)")
        #expect(out.stderr.contains("--at must be a number of seconds"))
    }

    @Test func aHugeOffsetNeitherCrashesLyricsNorProbe() throws {
        let lrc = try fx.write("huge-offset.lrc", Array("[offset:-9223372036854775808]\n[00:01.00]one\n".utf8))
        let lyrics = try jukebox(["lyrics", lrc])
        #expect(lyrics.status == 0, "exit \(lyrics.status): \(lyrics.stderr)")
        #expect(lyrics.text.contains("[00:01.000] one"))

        let flac = fx.path("huge-offset.flac")
        try Tools.run("flac", ["-s", "-f", "-T", "LYRICS=[offset:-9223372036854775808]\n[00:01.00]one",
                               "-o", flac, fx.path("music16.wav")])
        let probe = try jukebox(["probe", "--json", flac])
        #expect(probe.status == 0, "exit \(probe.status): \(probe.stderr)")
    }
}
