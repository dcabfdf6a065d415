import Foundation
import Testing
@testable import JukeboxCore

/// The rules alone: CUE sheets, chapter ranges, chapter entries.
@Suite struct ChapterRuleTests {
    let sheet = """
        REM GENRE Audiobook
        PERFORMER "Reader"
        TITLE "The Book"
        FILE "book.flac" WAVE
          TRACK 01 AUDIO
            TITLE "Opening"
            INDEX 01 00:00:00
          TRACK 02 AUDIO
            TITLE "The Middle Part"
            INDEX 00 00:01:70
            INDEX 01 00:02:00
          TRACK 03 AUDIO
            INDEX 01 00:04:37
        """

    @Test func aCueSheetGivesEachTracksIndexOne() {
        let marks = CueSheet.marks(sheet, for: "/m/book.flac")
        #expect(marks.map(\.title) == ["Opening", "The Middle Part", nil])
        #expect(marks.map(\.count) == [0, 150, 4 * 75 + 37])
        #expect(CueSheet.marks(sheet, for: "/m/other.flac").isEmpty)  // a sheet for another file
        #expect(CueSheet.marks("FILE a.wav WAVE\nTRACK 01 AUDIO\nINDEX 01 00:00:00\nFILE b.wav WAVE\nTRACK 02 AUDIO\nINDEX 01 00:00:00").isEmpty)
        #expect(CueSheet.time("00:61:00") == nil && CueSheet.time("1:00:75") == nil && CueSheet.time("x") == nil)
    }

    @Test func marksBecomeRangesThatCoverTheFile() {
        let marks = CueSheet.marks(sheet)
        let chapters = Chapter.ranges(marks, sampleRate: 44_100, totalFrames: 300_000)
        #expect(chapters == [
            Chapter(title: "Opening", startFrame: 0, endFrame: 88_200),
            Chapter(title: "The Middle Part", startFrame: 88_200, endFrame: 4 * 44_100 + 37 * 588),
            Chapter(title: "Chapter 3", startFrame: 4 * 44_100 + 37 * 588, endFrame: 300_000),
        ])
        // A first mark after the start still reaches back to it; marks past the end go.
        let late = [ChapterMark(title: "a", count: 500, perSecond: 1000), ChapterMark(title: "b", count: 2000, perSecond: 1000),
                    ChapterMark(title: "c", count: 99_000, perSecond: 1000)]
        #expect(Chapter.ranges(late, sampleRate: 48_000, totalFrames: 144_000).map(\.startFrame) == [0, 96_000])
        // One chapter is no chapter list.
        #expect(Chapter.ranges([late[0]], sampleRate: 48_000, totalFrames: 144_000).isEmpty)
    }

    @Test func entriesNameAChapterOfAFile() {
        #expect(ChapterEntry("/m/Books/book.m4b/chapter003") == ChapterEntry(file: "/m/Books/book.m4b", index: 2))
        #expect(ChapterEntry(file: "/m/b.flac", index: 11).entry == "/m/b.flac/chapter012")
        #expect(ChapterEntry(file: "b.flac", index: 998).entry == "b.flac/chapter999")
        for plain in ["/m/chapter1.flac", "/m/Books/chapter01", "chapter001", "/m/b/chapter000", "/m/b/chapterx12"] {
            #expect(ChapterEntry(plain) == nil)
        }
    }
}

/// Chapters read from real files and played through the real decoders.
@Suite struct ChapterFileTests {
    let fx = Fixtures.shared

    /// 6 s of music as a FLAC with three chapters, from a CUE sheet in its tags.
    func cueFlac(_ name: String) throws -> String {
        let path = fx.path(name)
        _ = try Tools.run("flac", ["-s", "-f", "-o", path, fx.path("music16.wav")])
        let sheet = "FILE \"\(name)\" WAVE\n TRACK 01 AUDIO\n  TITLE \"One\"\n  INDEX 01 00:00:00\n TRACK 02 AUDIO\n  TITLE \"Two\"\n  INDEX 01 00:02:00\n TRACK 03 AUDIO\n  TITLE \"Three\"\n  INDEX 01 00:04:30\n"
        _ = try Tools.run("metaflac", ["--set-tag=CUESHEET=\(sheet)", path])
        return path
    }

    func chapters(_ path: String) throws -> [Chapter] {
        let (metadata, info) = try AudioFile.describe(path)
        return AudioFile.chapters(of: path, metadata: metadata, info: info)
    }

    @Test func aFlacsCueSheetTagBesideFileAndBlock() throws {
        let tagged = try cueFlac("cue-tag.flac")
        #expect(try chapters(tagged) == [
            Chapter(title: "One", startFrame: 0, endFrame: 88_200),
            Chapter(title: "Two", startFrame: 88_200, endFrame: 4 * 44_100 + 30 * 588),
            Chapter(title: "Three", startFrame: 4 * 44_100 + 30 * 588, endFrame: 6 * 44_100),
        ])
        // The same sheet beside a plain copy.
        let folder = try fx.scratchFolder("cue-beside")
        _ = try Tools.run("flac", ["-s", "-f", "-o", "\(folder)/album.flac", fx.path("music16.wav")])
        try "FILE \"album.flac\" WAVE\nTRACK 01 AUDIO\nTITLE \"A\"\nINDEX 01 00:00:00\nTRACK 02 AUDIO\nTITLE \"B\"\nINDEX 01 00:03:00\n"
            .write(toFile: "\(folder)/album.cue", atomically: true, encoding: .utf8)
        #expect(try chapters("\(folder)/album.flac").map(\.title) == ["A", "B"])
        // flac's own CUESHEET block (a CD's: no titles).
        try "FILE \"x.wav\" WAVE\nTRACK 01 AUDIO\nINDEX 01 00:00:00\nTRACK 02 AUDIO\nINDEX 01 00:01:00\n"
            .write(toFile: "\(folder)/cd.cue", atomically: true, encoding: .utf8)
        _ = try Tools.run("flac", ["-s", "-f", "--cuesheet=\(folder)/cd.cue", "-o", "\(folder)/cd.flac", fx.path("music16.wav")])
        #expect(try chapters("\(folder)/cd.flac") == [
            Chapter(title: "Chapter 1", startFrame: 0, endFrame: 44_100),
            Chapter(title: "Chapter 2", startFrame: 44_100, endFrame: 6 * 44_100),
        ])
    }

    @Test func probeListsTheChapters() throws {
        let path = try cueFlac("cue-probe.flac")
        let out = String(decoding: try Tools.run(Tools.jukebox, ["probe", path]).stdout, as: UTF8.self)
        #expect(out.contains("chapters 001  0:00.000  One\n           002  0:02.000  Two\n           003  0:04.400  Three"))
        let json = try Tools.run(Tools.jukebox, ["probe", "--json", path]).stdout
        let chapters = try #require(((try JSONSerialization.jsonObject(with: json) as? [[String: Any]])?.first?["chapters"]) as? [[String: Any]])
        #expect(chapters.compactMap { $0["entry"] as? String } == (1...3).map { "\(path)/chapter00\($0)" })
        #expect(chapters.compactMap { $0["startSeconds"] as? Double } == [0, 2, 4.4])
    }

    @Test func anMP3sChapFrames() throws {
        var tag = ID3Builder(version: 3)
        tag.text("TIT2", "Podcast", .latin1)
        tag.chapter("ch1", start: 2000, end: 6000, title: "Second part")
        tag.chapter("ch0", start: 0, end: 2000, title: "Intro")
        let path = try fx.write("chap.mp3", tag.build() + fx.bytes("cbr.mp3"))
        let found = try chapters(path)
        #expect(found.map(\.title) == ["Intro", "Second part"])
        #expect(found.map(\.startFrame) == [0, 88_200])
        var v4 = ID3Builder(version: 4)
        v4.chapter("a", start: 0, end: 1000, title: "Eins")
        v4.chapter("b", start: 1000, end: 6000, title: "Zwei")
        #expect(try chapters(fx.write("chap4.mp3", v4.build() + fx.bytes("cbr.mp3"))).map(\.title) == ["Eins", "Zwei"])
    }

    @Test func aChapterPlaysItsRangeAndTheNextGoesOnWithoutReopening() throws {
        let path = try cueFlac("cue-play.flac")
        let whole = try fx.flacReference("cue-play.flac").withUnsafeBytes { Array($0.bindMemory(to: UInt8.self)) }
        let second = try AudioFile.open("\(path)/chapter002")
        #expect(second.info.totalFrames == 4 * 44_100 + 30 * 588 - 88_200)
        #expect(second.metadata.title == "Two" && second.metadata.trackNumber == 2 && second.metadata.trackTotal == 3)
        #expect(second.metadata.chapter == ChapterPlace(index: 1, count: 3, startFrame: 88_200, bookFrames: 6 * 44_100))
        #expect(try second.readAll() == Array(whole[88_200 * 4..<(4 * 44_100 + 30 * 588) * 4]))

        let first = try AudioFile.open("\(path)/chapter001")
        let next = try AudioFile.open(.file("\(path)/chapter002"), following: first)
        #expect((next as? ChapterDecoder)?.book === (first as? ChapterDecoder)?.book)
        let joined = try first.readAll() + next.readAll()
        #expect(joined == Array(whole[0..<(4 * 44_100 + 30 * 588) * 4]))
        // Seeking inside a chapter is in the chapter's own time.
        try next.seek(toFrame: 44_100)
        #expect(try next.readAll(maxFrames: 10) == Array(whole[(88_200 + 44_100) * 4..<(88_200 + 44_100 + 10) * 4]))
        #expect(throws: MediaError.self) { try AudioFile.open("\(path)/chapter004") }
    }

    /// What the library, the state file, covers and MPD's readpicture ask of a chapter's
    /// entry answers for the chapter, from its file.
    @Test func aChaptersEntryStandsForItsFile() throws {
        let path = try cueFlac("cue-entry.flac")
        let (tags, info) = try AudioFile.describe("\(path)/chapter003")
        #expect(tags.title == "Three" && tags.trackNumber == 3 && info.totalFrames == 6 * 44_100 - (4 * 44_100 + 30 * 588))
        #expect(FileIdentity(track: "\(path)/chapter003") == FileIdentity(path: path))
        #expect(FileIdentity(track: path) == FileIdentity(path: path))
        #expect(FileIdentity(track: "\(path)/chapter009") == FileIdentity(path: path))  // which chapters there are is the opener's
        #expect(ChapterEntry.file(holding: "\(path)/chapter002") == path)
        #expect(ChapterEntry.file(holding: fx.path("music16.flac")) == fx.path("music16.flac"))
        #expect(throws: MediaError.self) { try AudioFile.describe("\(path)/chapter009") }
    }

    /// Through the engine: chapter 1 then 2 play as the file does, to the sample.
    @Test func chaptersJoinGaplesslyThroughTheEngine() throws {
        let path = try cueFlac("cue-engine.flac")
        let whole = try fx.flacReference("cue-engine.flac")
        let log = EventLog()
        let recording = fx.path("rec-chapters.raw")
        try? FileManager.default.removeItem(atPath: recording)
        let engine = AudioEngine(output: ALSAOutput(.init(device: "file:FILE=\(recording),FORMAT=raw", allowConversion: false))) { log.append($0) }
        try engine.start()
        engine.play(TrackRef(token: 1, path: "\(path)/chapter001"), next: TrackRef(token: 2, path: "\(path)/chapter002"))
        #expect(log.wait { $0.isFinished })
        engine.shutdown()
        let recorded = try Data(contentsOf: URL(fileURLWithPath: recording))
        let end = (4 * 44_100 + 30 * 588) * 4
        #expect(recorded.count >= end && recorded.prefix(end) == whole.prefix(end))
    }
}

/// A file with chapters is a folder of tracks in the library, as MPD shows a CUE sheet.
@Suite struct ChapterLibraryTests {
    let fx = Fixtures.shared

    @Test func aBookIsListedAsItsChaptersAndKeptByTheIndex() throws {
        let root = try fx.scratchFolder("chapter-library")
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: "\(root)/Books", withIntermediateDirectories: true)
        _ = try Tools.run("flac", ["-s", "-f", "-T", "TITLE=The Book", "-T", "ARTIST=Reader", "-o", "\(root)/Books/book.flac", fx.path("music16.wav")])
        let sheet = "TRACK 01 AUDIO\nTITLE \"One\"\nINDEX 01 00:00:00\nTRACK 02 AUDIO\nTITLE \"Two\"\nINDEX 01 00:02:00\n"
        _ = try Tools.run("metaflac", ["--set-tag=CUESHEET=\(sheet)", "\(root)/Books/book.flac"])
        try FileManager.default.copyItem(atPath: fx.path("mono8k.flac"), toPath: "\(root)/Books/song.flac")

        let first = LibraryScanner.update(nil, musicDirectory: root, playlistsDirectory: nil)
        let tracks = first.index.scan.tracks
        // Sorted as a folder of its own, after the folder's files.
        #expect(tracks.map { String($0.path.dropFirst(root.count + 1)) } == ["Books/song.flac", "Books/book.flac/chapter001", "Books/book.flac/chapter002"])
        #expect(tracks[2].tags.title == "Two" && tracks[2].tags.album == "The Book" && tracks[2].tags.artist == "Reader")
        #expect(tracks[2].tags.track == 2 && tracks[2].tags.seconds == 4)

        let saved = "\(root)/../chapter-library.index"
        try first.index.save(saved)
        let loaded = try #require(try LibraryIndex.load(saved))
        #expect(loaded == first.index)
        let again = LibraryScanner.update(loaded, musicDirectory: root, playlistsDirectory: nil)
        #expect(again.reuse.foldersListed == 0)
        #expect(again.index.scan.tracks == tracks)
    }
}

@Suite struct ChapterScreenTests {
    @Test func theAlbumLineShowsTheBooksProgress() throws {
        let place = ChapterPlace(index: 2, count: 12, startFrame: 44_100 * 100, bookFrames: 44_100 * 1000)
        #expect(place.caption(book: "The Book", elapsed: 0, sampleRate: 44_100) == "3/12 · 10% · The Book")
        #expect(place.caption(book: nil, elapsed: 250, sampleRate: 44_100) == "3/12 · 35%")

        var status = PlayerStatus()
        status.state = .paused
        status.path = "/m/book.flac/chapter003"
        var tags = TrackMetadata()
        tags.title = "The Storm"
        tags.album = "The Book"
        tags.chapter = place
        status.metadata = tags
        status.info = StreamInfo(sampleRate: 44_100, channels: 2, sampleFormat: .s16, totalFrames: 44_100 * 300)
        status.duration = 300
        status.elapsed = 60
        var input = ScreenInput()
        input.status = status
        let renderer = ScreenRenderer(width: 320, height: 240, fonts: try ScreenFixtures.fonts())
        let content = renderer.content(for: input, at: 0).0
        #expect(content.title == "The Storm")
        #expect(content.album == "3/12 · 16% · The Book")
        #expect(content.elapsed == "1:00" && content.remaining == "-4:00")  // the chapter's own time
    }
}

/// The daemon with a book in its library: next moves by chapter, as an MPD client sees.
@Suite struct ChapterDaemonTests {
    let fx = Fixtures.shared

    @Test func nextMovesByChapter() throws {
        let root = try fx.scratchFolder("chapter-daemon")
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let book = "\(root)/book.flac"
        _ = try Tools.run("flac", ["-s", "-f", "-T", "TITLE=The Book", "-o", book, fx.path("music16.wav")])
        let sheet = "TRACK 01 AUDIO\nTITLE \"One\"\nINDEX 01 00:00:00\nTRACK 02 AUDIO\nTITLE \"Two\"\nINDEX 01 00:02:00\nTRACK 03 AUDIO\nTITLE \"Three\"\nINDEX 01 00:04:00\n"
        _ = try Tools.run("metaflac", ["--set-tag=CUESHEET=\(sheet)", book])
        let config = "\(root)/../chapter-daemon.toml"
        try "[playback]\nautoplay = false\nmode = \"once\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: "chapters", config: config, musicDirectory: root, device: NullOutput.deviceName)
        func current() -> String { daemon.ctl(["currentsong"]) ?? "" }
        #expect(daemon.wait(seconds: 30) { daemon.ctl(["play"]) != nil && current().contains("Title: One") }, "\(daemon.log)")
        #expect(current().contains("file: book.flac/chapter001\n"))
        _ = daemon.ctl(["next"])
        #expect(daemon.wait(seconds: 10) { current().contains("Title: Two") })
        #expect(current().contains("file: book.flac/chapter002\n") && current().contains("Album: The Book\n") && current().contains("Time: 2\n"))
        let listing = daemon.ctl(["lsinfo"]) ?? ""
        #expect(listing.contains("directory: book.flac\n"), "\(listing)")
    }
}

/// An M4B audiobook: its chapters (from libavformat) are tracks like any other file's.
@Suite struct BookChapterTests {
    let mp4 = MP4Fixtures.shared

    @Test func anM4BsChaptersJoinAsTheFileDoes() throws {
        let path = mp4.path("book.m4b")
        let whole = try AudioFile.open(path).readAll()
        var joined: [UInt8] = []
        var previous: (any AudioDecoder)?
        for number in 1...5 {
            let chapter = try AudioFile.open(.file("\(path)/chapter00\(number)"), following: previous)
            #expect(chapter.metadata.title == MP4Fixtures.chapterTitles[number - 1])
            if let previous { #expect((chapter as? ChapterDecoder)?.book === (previous as? ChapterDecoder)?.book) }
            joined += try chapter.readAll()
            previous = chapter
        }
        // One decoder read straight through: the same samples as the whole file.
        #expect(joined.count == whole.count)
        #expect(joined == whole)
        let starts = AudioFile.chapters(of: path, metadata: try AudioFile.describe(path).metadata, info: try AudioFile.describe(path).info).map(\.startFrame)
        #expect(starts == MP4Fixtures.chapterStarts.map { Int64($0) * 44_100 / 1000 })
    }

    @Test func theLibraryListsAnM4BAsItsChapters() throws {
        let root = try Fixtures.shared.scratchFolder("m4b-library")
        try? FileManager.default.removeItem(atPath: "\(root)/book.m4b")
        try FileManager.default.copyItem(atPath: mp4.path("book.m4b"), toPath: "\(root)/book.m4b")
        let scan = LibraryScanner.update(nil, musicDirectory: root, playlistsDirectory: nil).index.scan
        #expect(scan.tracks.map { String($0.path.dropFirst(root.count + 1)) } == (1...5).map { "book.m4b/chapter00\($0)" })
        #expect(scan.tracks.map { $0.tags.title } == MP4Fixtures.chapterTitles)
        #expect(scan.tracks.allSatisfy { $0.tags.album == "The Book" })
    }
}
