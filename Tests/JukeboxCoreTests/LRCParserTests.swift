import Testing
@testable import JukeboxCore

@Suite struct LRCParserTests {
    func parse(_ text: String) -> Lyrics { LRCParser.parse(text: text, source: .file) }
    func times(_ l: Lyrics) -> [Int?] { l.lines.map(\.timeMs) }

    @Test func everyTimeTagFormParses() {
        #expect(LRCTime.parse(ArraySlice("01:02".utf8)) == 62_000)
        #expect(LRCTime.parse(ArraySlice("01:02.3".utf8)) == 62_300)
        #expect(LRCTime.parse(ArraySlice("01:02.34".utf8)) == 62_340)
        #expect(LRCTime.parse(ArraySlice("01:02.345".utf8)) == 62_345)
        #expect(LRCTime.parse(ArraySlice("01:02:34".utf8)) == 62_340)  // hundredths
        #expect(LRCTime.parse(ArraySlice("125:00.00".utf8)) == 7_500_000)  // minutes past 59
        for bad in ["", "1", ":02", "01:", "01:60", "01:02.", "01:02.3456", "a1:02", "01:02x", "-1:00"] {
            #expect(LRCTime.parse(ArraySlice(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test func severalTagsGiveOneLineEach() {
        let l = parse("[00:02.00][00:05.00]chorus\n[00:03.00]verse")
        #expect(l.lines.map(\.text) == ["chorus", "verse", "chorus"])
        #expect(times(l) == [2000, 3000, 5000])
    }

    @Test func equalTimesKeepFileOrder() {
        let l = parse("[00:05.00]b\n[00:01.00]a\n[00:05.00]c\n[00:05.00]d")
        #expect(l.lines.map(\.text) == ["a", "b", "c", "d"])
    }

    @Test func offsetShiftsEarlierAndNeverBelowZero() {
        let plus = parse("[offset:+500]\n[00:00.20]early\n[00:02.00]two")
        #expect(plus.offsetMs == 500)
        #expect(times(plus) == [0, 1500])
        let minus = parse("[00:02.00]two\n[offset:-250]")
        #expect(minus.offsetMs == -250)
        #expect(times(minus) == [2250])
    }

    @Test func metadataTagsAreNotLines() {
        let l = parse("[ti:Title]\n[ar:Artist]\n[al:Album]\n[by:Me]\n[length:03:20]\n[re:tool]\n[ve:1.0]\n[00:01.00]line")
        #expect(l.lines.count == 1)
        #expect(l.metadata == ["ti": "Title", "ar": "Artist", "al": "Album", "by": "Me", "length": "03:20", "re": "tool", "ve": "1.0"])
    }

    @Test func enhancedWordTimes() {
        let l = parse("[00:10.00]<00:10.00>Hello <00:10.50>big <00:11.00>world<00:12.00>")
        #expect(l.lines[0].text == "Hello big world")
        #expect(l.lines[0].words == [LyricWord(timeMs: 10_000, text: "Hello "), LyricWord(timeMs: 10_500, text: "big "),
                                     LyricWord(timeMs: 11_000, text: "world")])
        let shifted = parse("[offset:100]\n[00:10.00]<00:10.00>a <00:10.50>b")
        #expect(shifted.lines[0].words.map(\.timeMs) == [9900, 10_400])
    }

    @Test func blankTimedLineIsKept() {
        let l = parse("[00:01.00]words\n[00:04.00]\n[00:06.00]more")
        #expect(l.lines.map(\.text) == ["words", "", "more"])
    }

    @Test func invalidLinesAreIgnored() {
        let l = parse("junk\n[00:01.00]ok\n[xx:yy]bad\n[00:61.00]bad seconds\n[00:02.00 unclosed\n[00:03.00]fine")
        #expect(l.lines.map(\.text) == ["ok", "fine"])
        #expect(l.synced)
    }

    @Test func noTimeTagsMeansUnsyncedText() {
        let l = parse("[ti:Song]\n\nFirst line\nSecond line\n\n")
        #expect(!l.synced)
        #expect(l.lines.map(\.text) == ["First line", "Second line"])
        #expect(l.lines.allSatisfy { $0.timeMs == nil })
        #expect(l.currentLineIndex(atMs: 5000) == nil)
    }

    @Test func crlfLineEndings() {
        let l = parse("[ti:T]\r\n[00:01.00]one\r\n[00:02.00]two\r\n")
        #expect(l.lines.map(\.text) == ["one", "two"])
        #expect(l.metadata["ti"] == "T")
    }

    @Test func currentLine() {
        let l = parse("[00:01.00]a\n[00:03.00]b\n[00:03.00]b2\n[00:05.00]c")
        #expect(l.currentLineIndex(atMs: 0) == nil)
        #expect(l.currentLineIndex(atMs: 1000) == 0)
        #expect(l.currentLineIndex(atMs: 2999) == 0)
        #expect(l.currentLineIndex(atMs: 3000) == 1)
        #expect(l.currentLineIndex(atMs: 4000) == 1)
        #expect(l.currentLineIndex(atMs: 99_000) == 3)
    }

    @Test func sixThousandLines() {
        var text = "[ti:Long]\n"
        for i in 0..<6000 { text += "[\(LRCTime.format(i * 500))]line \(i) <\(LRCTime.format(i * 500 + 100))>word\n" }
        let l = parse(text)
        #expect(l.lines.count == 6000)
        #expect(l.lines[5999].timeMs == 5999 * 500)
        #expect(l.lines[5999].words.count == 1)
    }
}

@Suite struct TextDecodingTests {
    @Test func encodings() throws {
        let text = "[00:01.00]你好，世界"
        #expect(try TextDecoding.decode(Array(text.utf8)).text == text)
        #expect(try TextDecoding.decode([0xEF, 0xBB, 0xBF] + Array(text.utf8)).text == text)
        let le: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(try TextDecoding.decode(le) == (text, .utf16))
        let be: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(try TextDecoding.decode(be).text == text)
    }

    @Test func gbkWhenNotUTF8() throws {
        // "[00:01.00]你好" in GBK.
        let gbk: [UInt8] = Array("[00:01.00]".utf8) + [0xC4, 0xE3, 0xBA, 0xC3]
        let decoded = try TextDecoding.decode(gbk)
        #expect(decoded.encoding == .gb18030)
        #expect(decoded.text == "[00:01.00]你好")
    }

    @Test func binaryJunkIsRefused() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let junk = (0..<2000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(throws: TextDecoding.Failure.self) { try TextDecoding.decode(junk) }
        }
        let controls = [UInt8](repeating: 0x01, count: 100) + Array("[00:01.00]x".utf8)
        #expect(throws: TextDecoding.Failure.self) { try TextDecoding.decode(controls) }
    }
}
