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

    @Test(arguments: ["song.lrc", "song.txt", "song"])
    func utf16LyricsAreNotTakenForMP3(name: String) throws {
        let text = "[ti:Wide]\n[00:01.00]one\n[00:02.00]two\n"
        let le: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let be: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for (order, bytes) in [("le", le), ("be", be)] {
            let folder = try fx.scratchFolder("utf16-\(order)")
            let path = "\(folder)/\(name)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let out = try jukebox(["lyrics", path])
            #expect(out.status == 0, "\(order) \(name): exit \(out.status): \(out.stderr)")
            #expect(out.text.contains("[00:02.000] two"), "\(order) \(name): \(out.text)")
        }
    }

    @Test func oneFrameHeaderWithoutAnID3TagIsNotMP3() {
        // FF FE read as an MPEG header: version 1, layer I. With nothing behind it that
        // is a second header, it is not MP3.
        let text: [UInt8] = [0xFF, 0xFE, 0x5B, 0x00] + [UInt8](repeating: 0x41, count: 200)
        #expect(FormatSniffer.findMPEGFrames(text) == nil)
        #expect(FormatSniffer.findMPEGFrames(text, afterID3v2: true) == 0)
    }
}
