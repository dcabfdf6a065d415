import Foundation
import Testing
@testable import JukeboxCore

@Suite struct MetadataTests {
    let fx = Fixtures.shared

    @Test func vorbisCommentsAndPicture() throws {
        let p = try MediaProbe.probe(fx.path("music16.flac"))
        let m = p.metadata
        #expect(m.title == "Plucked")
        #expect(m.artist == "Test Band")
        #expect(m.album == "Fixtures")
        #expect(m.albumArtist == "Various")
        #expect(m.trackNumber == 3 && m.trackTotal == 12)
        #expect(m.discNumber == 1 && m.discTotal == 2)
        #expect(m.date == "2026")
        #expect(m.genre == "Test")
        let cover = try #require(m.cover)
        #expect(cover.type == 3)
        #expect(cover.mimeType == "image/png")
        #expect(cover.data == (try fx.bytes("cover.png")))
        // Embedded LYRICS with time tags counts as synced.
        #expect(p.lyrics?.source == .embeddedSynced)
        #expect(p.lyrics?.lines.map(\.text) == ["one", "two"])
    }

    /// Prepends a built ID3v2 tag (and optionally appends ID3v1) to the lame output.
    func mp3(_ name: String, tag: ID3Builder?, v1: [UInt8] = []) throws -> String {
        try fx.write(name, (tag?.build() ?? []) + fx.bytes("cbr.mp3") + v1)
    }

    @Test(arguments: [(UInt8(2), ID3Builder.TextEncoding.latin1), (3, .latin1), (3, .utf16), (4, .utf8), (4, .utf16), (4, .utf16BE)])
    func id3v2VersionsAndEncodings(version: UInt8, encoding: ID3Builder.TextEncoding) throws {
        var tag = ID3Builder(version: version)
        let latin = encoding == .latin1
        let title = latin ? "Café Olé" : "标题 Ünïcode"
        let ids = version == 2 ? ["TT2", "TP1", "TAL", "TP2", "TRK", "TCO"] : ["TIT2", "TPE1", "TALB", "TPE2", "TRCK", "TCON"]
        tag.text(ids[0], title, encoding)
        tag.text(ids[1], "Artïst", encoding)
        tag.text(ids[2], "Album", encoding)
        tag.text(ids[3], "Band", encoding)
        tag.text(ids[4], "7/9", encoding)
        tag.text(ids[5], "(17)", encoding)
        tag.picture(mime: "image/png", bytes: [1, 2, 3, 4, 5])
        let path = try mp3("id3v2\(version)-\(encoding).mp3", tag: tag)
        let m = try MediaProbe.probe(path).metadata
        #expect(m.title == title)
        #expect(m.artist == "Artïst")
        #expect(m.album == "Album")
        #expect(m.albumArtist == "Band")
        #expect(m.trackNumber == 7 && m.trackTotal == 9)
        #expect(m.genre == "Rock")
        #expect(m.cover?.data == [1, 2, 3, 4, 5])
        #expect(m.cover?.type == 3)
    }

    @Test func id3v1AloneAndUnderV2() throws {
        let v1 = ID3Builder.v1(title: "Old Title", artist: "Old Artist", track: 4, genre: 8)
        let only = try MediaProbe.probe(mp3("v1only.mp3", tag: nil, v1: v1)).metadata
        #expect(only.title == "Old Title")
        #expect(only.artist == "Old Artist")
        #expect(only.trackNumber == 4)
        #expect(only.genre == "Jazz")
        var tag = ID3Builder(version: 3)
        tag.text("TIT2", "New Title", .utf16)
        let both = try MediaProbe.probe(mp3("v1v2.mp3", tag: tag, v1: v1)).metadata
        #expect(both.title == "New Title")
        #expect(both.artist == "Old Artist")
    }

    @Test func usltIsEmbeddedUnsynced() throws {
        var tag = ID3Builder(version: 3)
        tag.unsyncedLyrics("First line\nSecond line", .utf16)
        let p = try MediaProbe.probe(mp3("uslt.mp3", tag: tag))
        #expect(p.lyrics?.source == .embeddedUnsynced)
        #expect(p.lyrics?.synced == false)
        #expect(p.lyrics?.lines.map(\.text) == ["First line", "Second line"])
    }

    @Test(arguments: [UInt8(3), 4])
    func syltIsEmbeddedSynced(version: UInt8) throws {
        var tag = ID3Builder(version: version)
        tag.unsyncedLyrics("plain words", .latin1)
        tag.syncedLyrics([("\nHello", 1000), ("\nWorld", 2500)], version == 4 ? .utf8 : .utf16)
        let p = try MediaProbe.probe(mp3("sylt\(version).mp3", tag: tag))
        let lyrics = try #require(p.lyrics)
        #expect(lyrics.source == .embeddedSynced)
        #expect(lyrics.lines.map(\.text) == ["Hello", "World"])
        #expect(lyrics.lines.map(\.timeMs) == [1000, 2500])
    }

    @Test func sidecarWinsOverEmbedded() throws {
        let folder = try fx.scratchFolder("sidecar")
        let audio = "\(folder)/song.flac"
        try? FileManager.default.removeItem(atPath: audio)
        try FileManager.default.copyItem(atPath: fx.path("music16.flac"), toPath: audio)
        try "[00:00.50]from the sidecar\n".write(toFile: "\(folder)/song.lrc", atomically: true, encoding: .utf8)
        let p = try MediaProbe.probe(audio)
        #expect(p.lyrics?.source == .sidecar)
        #expect(p.lyrics?.lines.first?.text == "from the sidecar")

        // A broken sidecar is reported, and the embedded lyrics take over.
        try Data([0, 1, 2, 3, 0, 0xFF]).write(to: URL(fileURLWithPath: "\(folder)/song.lrc"))
        let fallback = try MediaProbe.probe(audio)
        #expect(fallback.lyrics?.source == .embeddedSynced)
        #expect(fallback.problems.contains { $0.contains("song.lrc") && $0.contains("binary") })
    }

    @Test func sidecarPathMatchesBaseName() throws {
        let folder = try fx.scratchFolder("names")
        try "x".write(toFile: "\(folder)/a.b.LRC", atomically: true, encoding: .utf8)
        #expect(LyricsLocator.sidecarPath(for: "\(folder)/a.b.mp3") == "\(folder)/a.b.LRC")
        #expect(LyricsLocator.sidecarPath(for: "\(folder)/a.mp3") == nil)
    }

    @Test func riffInfoTags() throws {
        let m = RIFFInfo.metadata(Array("INFO".utf8) + Array("INAM".utf8) + [5, 0, 0, 0] + Array("Hello".utf8) + [0]
            + Array("IART".utf8) + [2, 0, 0, 0] + Array("Me".utf8))
        #expect(m.title == "Hello")
        #expect(m.artist == "Me")
    }
}
