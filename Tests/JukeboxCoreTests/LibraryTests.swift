import Foundation
import Testing
@testable import JukeboxCore

@Suite struct LibraryTests {
    let fx = Fixtures.shared

    @Test func naturalOrder() {
        let names = ["Track 10.flac", "track 2.flac", "Track 1.flac", "a.flac", "Track 02b.flac", "B.flac"]
        #expect(names.sorted(by: NaturalOrder.less) == ["a.flac", "B.flac", "Track 1.flac", "track 2.flac", "Track 02b.flac", "Track 10.flac"])
    }

    /// Accents and case count only between names otherwise equal, as in MPD's collation.
    @Test func namesSortWithoutAccentsAsMPDCollates() {
        let names = ["Untagged", "Ünïcødé", "Emile", "Zebra", "Éclair", "émile", "Track 10", "Track 2", "Łódź", "Lodz"]
        #expect(names.sorted(by: NaturalOrder.less) == ["Éclair", "Emile", "émile", "Lodz", "Łódź", "Track 2", "Track 10", "Ünïcødé", "Untagged", "Zebra"])
        #expect(NaturalOrder.compare("Ünïcødé", "Ünïcødé") == 0)
        #expect(NaturalOrder.compare("Unicode", "Ünïcødé") != 0)
    }

    @Test func scanFindsMusicByContentInNaturalOrderAndReportsBadFiles() throws {
        let root = try fx.scratchFolder("library")
        let fm = FileManager.default
        try? fm.removeItem(atPath: root)
        for dir in ["Album 10", "Album 2/CD1", "playlists"] { try fm.createDirectory(atPath: "\(root)/\(dir)", withIntermediateDirectories: true) }
        // Track numbers in tags win over names inside a folder.
        try Tools.run("flac", ["-s", "-f", "-T", "TRACKNUMBER=2", "-o", "\(root)/Album 2/CD1/a.flac", fx.path("mono8k.wav")])
        try Tools.run("flac", ["-s", "-f", "-T", "TRACKNUMBER=1", "-o", "\(root)/Album 2/CD1/b.flac", fx.path("mono8k.wav")])
        try fm.copyItem(atPath: fx.path("cbr.mp3"), toPath: "\(root)/Album 10/track 10.dat")  // by content
        try fm.copyItem(atPath: fx.path("cbr.mp3"), toPath: "\(root)/Album 10/track 9.mp3")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: "\(root)/Album 10/broken.flac"))
        try Data("not music".utf8).write(to: URL(fileURLWithPath: "\(root)/Album 10/notes.txt"))
        try Data(count: 0).write(to: URL(fileURLWithPath: "\(root)/Album 10/cover.jpg"))
        try "#EXTM3U\n#EXTINF:3,B\n../Album 2/CD1/b.flac\n\nhttp://radio/stream\nrtsp://camera/feed\n".write(
            toFile: "\(root)/playlists/Kids.m3u8", atomically: true, encoding: .utf8)

        var early: [LibraryTrack]?
        let scan = LibraryScanner.scan(musicDirectory: root, playlistsDirectory: nil) { early = $0 }
        let names = scan.tracks.map { String($0.path.dropFirst(root.count + 1)) }
        #expect(names == ["Album 2/CD1/b.flac", "Album 2/CD1/a.flac", "Album 10/track 9.mp3", "Album 10/track 10.dat"])
        #expect(early?.isEmpty == false)
        #expect(scan.skipped.count == 1, "\(scan.skipped)")
        #expect(scan.skipped.first?.contains("broken.flac") == true)
        #expect(scan.playlists.map(\.name) == ["Kids"])
        // A URL is an entry as it is (downloaded when it plays); other schemes are left out.
        #expect(try scan.playlists.first.map { try M3UPlaylist.read($0.path).entries } == [.file("\(root)/playlists/../Album 2/CD1/b.flac"), .url("http://radio/stream")])
    }

    @Test func missingFolderIsReported() {
        let scan = LibraryScanner.scan(musicDirectory: "/nonexistent/music", playlistsDirectory: nil)
        #expect(scan.tracks.isEmpty)
        #expect(scan.skipped.first?.contains("cannot open folder") == true)
    }
}

@Suite struct PathTests {
    @Test func canonicalPaths() {
        #expect(LibraryScanner.canonical("/music/playlists/../Album/./a.flac") == "/music/Album/a.flac")
        #expect(LibraryScanner.canonical("a//b/../c") == "a/c")
    }
}
