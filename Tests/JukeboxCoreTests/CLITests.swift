import Foundation
import Testing
@testable import JukeboxCore

/// The command line as scripts use it: field names, exit codes, output formats.
@Suite struct CLITests {
    let fx = Fixtures.shared

    @discardableResult
    func jukebox(_ args: [String], check: Bool = true) throws -> Tools.Output {
        try Tools.run(Tools.jukebox, args, check: check)
    }

    @Test func probeJSONFieldsAndExitCode() throws {
        let bad = try fx.write("cli-bad.mp3", [1, 2, 3])
        let out = try jukebox(["probe", "--json", fx.path("music16.flac"), bad, fx.path("music.mp3")], check: false)
        #expect(out.status == 1)
        let reports = try #require(try JSONSerialization.jsonObject(with: out.stdout) as? [[String: Any]])
        #expect(reports.count == 3)
        let fields: Set = ["path", "ok", "error", "format", "sampleRate", "channels", "bitsPerSample", "durationSeconds",
                           "title", "artist", "album", "trackNumber", "hasCover", "lyrics", "chapters", "warnings"]
        for report in reports { #expect(Set(report.keys) == fields) }
        let flac = reports[0]
        #expect(flac["ok"] as? Bool == true)
        #expect(flac["error"] is NSNull)
        #expect(flac["format"] as? String == "flac")
        #expect(flac["sampleRate"] as? Int == 44100)
        #expect(flac["channels"] as? Int == 2)
        #expect(flac["bitsPerSample"] as? Int == 16)
        #expect(flac["durationSeconds"] as? Double == 6.0)
        #expect(flac["title"] as? String == "Plucked")
        #expect(flac["trackNumber"] as? Int == 3)
        #expect(flac["hasCover"] as? Bool == true)
        let lyrics = try #require(flac["lyrics"] as? [String: Any])
        #expect(Set(lyrics.keys) == ["source", "synced", "lineCount"])
        #expect(lyrics["source"] as? String == "embedded-synced")
        #expect(lyrics["lineCount"] as? Int == 2)
        #expect(flac["warnings"] as? [String] == [])
        #expect(reports[1]["ok"] as? Bool == false)
        #expect((reports[1]["error"] as? String)?.isEmpty == false)
        #expect(reports[1]["format"] is NSNull)
        #expect(reports[2]["format"] as? String == "mp3")
        #expect(reports[2]["lyrics"] is NSNull)

        let good = try jukebox(["probe", fx.path("music16.flac")])
        #expect(good.status == 0)
        #expect(good.text.contains("Plucked"))
    }

    @Test func decodeWritesWAVInTheNativeFormat() throws {
        let out = fx.path("cli-24.wav")
        try jukebox(["decode", fx.path("music24.flac"), "-o", out])
        let info = try Tools.run("soxi", [out]).text
        #expect(info.contains("24-bit"))
        #expect(info.contains("96000"))
        let decoder = try AudioFile.open(out)
        #expect(decoder.info.sampleFormat == .s24)
        try expectSame(decoder.readAll(), fx.flacReference("music24.flac"))
    }

    @Test func decodeStartAndDurationToStdout() throws {
        let reference = try fx.flacReference("music16.flac")
        let part = try jukebox(["decode", fx.path("music16.flac"), "--start", "1.5", "--duration", "0.5", "-o", "-"]).stdout
        let start = 66_150 * 4
        expectSame(part, reference.subdata(in: start..<(start + 22_050 * 4)))
    }

    @Test func decodeOfBadFileExitsOne() throws {
        let out = try jukebox(["decode", try fx.write("cli-junk.wav", [0, 1, 2]), "-o", "-"], check: false)
        #expect(out.status == 1)
        #expect(out.stderr.contains("cli-junk.wav"))
    }

    @Test func lyricsJSON() throws {
        let lrc = fx.path("cli.lrc")
        try "[ti:Song]\n[offset:+100]\n[00:01.00]one\n[00:02.00]<00:02.00>two <00:02.50>words\n".write(toFile: lrc, atomically: true, encoding: .utf8)
        let out = try jukebox(["lyrics", lrc, "--at", "2.2", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: out.stdout) as? [String: Any])
        #expect(Set(json.keys) == ["source", "synced", "offsetMs", "metadata", "lines", "current"])
        #expect(json["synced"] as? Bool == true)
        #expect(json["offsetMs"] as? Int == 100)
        #expect((json["metadata"] as? [String: String])?["ti"] == "Song")
        #expect(json["current"] as? Int == 1)
        let lines = try #require(json["lines"] as? [[String: Any]])
        #expect(Set(lines[0].keys) == ["timeMs", "text", "words"])
        #expect(lines[0]["timeMs"] as? Int == 900)
        #expect((lines[0]["words"] as? [Any])?.isEmpty == true)
        let words = try #require(lines[1]["words"] as? [[String: Any]])
        #expect(words.map { $0["timeMs"] as? Int } == [1900, 2400])
        #expect(words.map { $0["text"] as? String } == ["two ", "words"])

        let none = try jukebox(["lyrics", lrc, "--json"])
        #expect((try JSONSerialization.jsonObject(with: none.stdout) as? [String: Any])?["current"] is NSNull)
    }

    @Test func lyricsOfAnAudioFile() throws {
        let out = try jukebox(["lyrics", fx.path("music16.flac"), "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: out.stdout) as? [String: Any])
        #expect(json["source"] as? String == "embedded-synced")
        let missing = try jukebox(["lyrics", fx.path("cbr.mp3")], check: false)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no lyrics"))
    }

    @Test func versionNamesTheCLibraries() throws {
        let out = try jukebox(["version"]).text
        for lib in ["alsa-lib", "libgpiod", "libFLAC", "libmpg123", "libvorbis", "libopus"] { #expect(out.contains(lib)) }
    }
}
