import Foundation
import Testing
@testable import JukeboxCore

/// The library index: written and read back unchanged, damage noticed, and a scan that
/// keeps every folder whose time did not change.
@Suite struct LibraryIndexTests {
    let fx = Fixtures.shared

    /// A fresh library: `songs` are copies of a small FLAC, plus a playlist, a cover and a
    /// file that claims to be audio and is not.
    private func library(_ name: String, songs: [String]) throws -> String {
        let root = try fx.scratchFolder("index-" + name)
        try? FileManager.default.removeItem(atPath: root)
        for song in songs {
            let path = "\(root)/\(song)"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: fx.path("mono8k.flac"), toPath: path)
        }
        try "A/1.flac\nB b/\ttab.flac\n".write(toFile: "\(root)/Mix.m3u", atomically: true, encoding: .utf8)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: "\(root)/A/cover.jpg"))
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: "\(root)/A/broken.mp3"))
        return root
    }

    private let songs = ["A/1.flac", "A/2.flac", "B b/\ttab.flac", "B b/C/3 three.flac", "D/4.flac"]

    private func update(_ previous: LibraryIndex?, _ root: String) -> (index: LibraryIndex, reuse: LibraryScanner.Reuse) {
        LibraryScanner.update(previous, musicDirectory: root, playlistsDirectory: nil)
    }

    @Test func anIndexReadsBackAsItWasWritten() throws {
        let root = try library("round-trip", songs: songs)
        let index = update(nil, root).index
        #expect(index.scan.tracks.count == songs.count)
        #expect(index.scan.playlists.map(\.name) == ["Mix"])
        #expect(index.scan.skipped.count == 1, "\(index.scan.skipped)")
        let path = "\(root)/../round-trip.index"
        try index.save(path)
        let loaded = try #require(try LibraryIndex.load(path))
        #expect(loaded == index)
    }

    @Test func aScanWithNothingChangedListsNoFolder() throws {
        let root = try library("unchanged", songs: songs)
        let first = update(nil, root)
        #expect(first.reuse.foldersKept == 0)
        let second = update(first.index, root)
        #expect(second.reuse == .init(foldersKept: first.reuse.foldersListed, foldersListed: 0))
        #expect(second.index == first.index)
    }

    @Test func aScanListsOnlyTheFoldersThatChanged() throws {
        let root = try library("changed", songs: songs)
        let first = update(nil, root).index
        try FileManager.default.copyItem(atPath: fx.path("mono8k.flac"), toPath: "\(root)/D/5.flac")
        try FileManager.default.removeItem(atPath: "\(root)/A/2.flac")
        let second = update(first, root)
        #expect(second.reuse.foldersListed == 2)
        #expect(second.index.scan.tracks.map { String($0.path.dropFirst(root.count + 1)) }
                == ["A/1.flac", "B b/\ttab.flac", "B b/C/3 three.flac", "D/4.flac", "D/5.flac"])
    }

    @Test func aFileReplacedInAChangedFolderIsReadAgain() throws {
        let root = try library("replaced", songs: songs)
        let first = update(nil, root).index
        try Data("garbage that is not FLAC at all".utf8).write(to: URL(fileURLWithPath: "\(root)/D/4.flac"))
        try FileManager.default.copyItem(atPath: fx.path("mono8k.flac"), toPath: "\(root)/D/6.flac")
        let second = update(first, root).index
        #expect(!second.scan.tracks.contains { $0.path.hasSuffix("D/4.flac") })
        #expect(second.scan.skipped.contains { $0.contains("D/4.flac") }, "\(second.scan.skipped)")
    }

    @Test func anIndexForOtherFoldersIsNotUsed() throws {
        let root = try library("moved", songs: songs)
        let other = try library("moved-other", songs: ["A/1.flac", "X/1.flac"])
        let first = update(nil, other).index
        let second = update(first, root)
        #expect(second.reuse.foldersKept == 0)
        #expect(second.index.scan.tracks.count == songs.count)
    }

    @Test func aDamagedIndexIsRefusedWithTheReason() throws {
        let root = try library("damaged", songs: songs)
        let path = "\(root)/../damaged.index"
        try update(nil, root).index.save(path)
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("cut short", Array(good.prefix(good.count / 2))),
            ("one byte changed", { var b = good; b[b.count / 3] ^= 0x20; return b }()),
            ("foreign", Array("[something]\nelse = 1\n".utf8)),
        ]
        for (name, bytes) in cases {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(throws: LibraryIndex.Problem.self, "\(name)") { try LibraryIndex.load(path) }
        }
        try FileManager.default.removeItem(atPath: path)
        #expect(try LibraryIndex.load(path) == nil)
    }

    /// `jukebox run` three times on one library: the first scans and writes the index, the
    /// second plays from it with every folder unchanged, the third lists only the folder a
    /// track was added to, and queues it.
    @Test func theBoxPlaysFromTheIndexAndScansOnlyWhatChanged() throws {
        let root = try library("daemon", songs: songs)
        let folder = try fx.scratchFolder("index-daemon-state")
        let state = folder + "/state", index = folder + "/library.index"
        try? FileManager.default.removeItem(atPath: index)
        let config = fx.path("index-daemon.toml")
        try "[control]\nkeyboard = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        func run(_ round: Int, until line: String) throws -> String {
            let daemon = try RunningDaemon(name: "index-daemon-\(round)", config: config, musicDirectory: root, stateFile: state)
            #expect(daemon.wait(seconds: 30) { daemon.log.contains(line) }, "round \(round): \(daemon.log)")
            #expect(daemon.wait(seconds: 30) { daemon.log.contains("playing 1/") }, "round \(round): \(daemon.log)")
            daemon.send(SIGTERM)
            #expect(daemon.waitForExit(seconds: 30))
            return daemon.log
        }
        let first = try run(1, until: "library: scanned in")
        #expect(!first.contains("from the index"))
        #expect(FileManager.default.fileExists(atPath: index))
        let second = try run(2, until: "library: scanned in")
        #expect(second.contains("library: 5 tracks from the index"), "\(second)")
        #expect(second.contains("folders unchanged, 0 listed"), "\(second)")
        try FileManager.default.copyItem(atPath: fx.path("mono8k.flac"), toPath: "\(root)/D/5.flac")
        let third = try run(3, until: "library: 6 tracks")
        #expect(third.contains("library: 5 tracks from the index"), "\(third)")
        #expect(third.contains(" 1 listed"), "\(third)")
    }
}
