import Foundation
import Testing
@testable import JukeboxCore

/// A `music_dir` that is missing or empty when the box starts, and gets music later: a USB
/// stick mounted after boot, a folder filled over the network.
@Suite(.serialized) struct MusicFolderWatchTests {
    let fx = Fixtures.shared

    private func config(_ name: String) throws -> String {
        let config = fx.path("\(name).toml")
        try "[control]\nkeyboard = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        return config
    }

    /// A folder holding one track, made beside `path` and moved into place in one step.
    private func makeFolderWithMusic(at path: String) throws {
        let staging = path + ".staging"
        try? FileManager.default.removeItem(atPath: staging)
        try FileManager.default.createDirectory(atPath: "\(staging)/Album", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fx.path("mono8k.flac"), toPath: "\(staging)/Album/song.flac")
        try FileManager.default.moveItem(atPath: staging, toPath: path)
    }

    @Test func aMusicFolderThatAppearsLaterIsScannedAndPlayed() throws {
        let music = fx.path("appears-later")
        try? FileManager.default.removeItem(atPath: music)
        let daemon = try RunningDaemon(name: "appears-later", config: try config("appears-later"), musicDirectory: music)
        #expect(daemon.wait(seconds: 30) { daemon.statusReply() != nil }, "never answered: \(daemon.log)")
        #expect(daemon.wait(seconds: 30) { daemon.log.contains("music_dir \(music) does not exist yet; waiting for it") }, "\(daemon.log)")
        try makeFolderWithMusic(at: music)
        #expect(daemon.wait(seconds: 60) { daemon.ctl(["status"])?.contains("playlistlength: 1") == true }, "\(daemon.log)")
        #expect(daemon.log.contains("library: 1 tracks"))
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30))
    }

    @Test func anEmptyMusicFolderIsScannedAgainWhenMusicArrives() throws {
        let music = try fx.scratchFolder("empty-at-start")
        try? FileManager.default.removeItem(atPath: music)
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let daemon = try RunningDaemon(name: "empty-at-start", config: try config("empty-at-start"), musicDirectory: music)
        #expect(daemon.wait(seconds: 30) { daemon.log.contains("library: 0 tracks") }, "\(daemon.log)")
        try makeFolderWithMusic(at: "\(music)/Artist")
        #expect(daemon.wait(seconds: 60) { daemon.ctl(["status"])?.contains("playlistlength: 1") == true }, "\(daemon.log)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30))
    }

    @Test func theSignatureChangesWithTheTreeOnly() throws {
        let root = try fx.scratchFolder("signature")
        try? FileManager.default.removeItem(atPath: root)
        #expect(FolderSignature(of: root) == nil)
        try FileManager.default.createDirectory(atPath: "\(root)/a/b", withIntermediateDirectories: true)
        let empty = try #require(FolderSignature(of: root))
        #expect(FolderSignature(of: root) == empty)
        try Data([1]).write(to: URL(fileURLWithPath: "\(root)/a/b/deep.flac"))
        let one = try #require(FolderSignature(of: root))
        #expect(one != empty)
        try Data([1, 2]).write(to: URL(fileURLWithPath: "\(root)/a/b/deep.flac"))  // grew
        #expect(FolderSignature(of: root) != one)
    }
}
