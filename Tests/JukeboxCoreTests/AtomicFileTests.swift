import Foundation
import Testing
@testable import JukeboxCore

/// Every file the box replaces goes through `AtomicFile`: a temporary file made fresh
/// (never through a link planted under its name), removed when the write fails, and
/// swept at the next start when a kill left it. The full disk is a real one: a small
/// tmpfs the test mounts (as root; skipped otherwise).
@Suite(.serialized) struct AtomicFileTests {
    let fx = Fixtures.shared

    /// A tmpfs of `bytes` at a scratch folder, unmounted by `deinit`.
    final class SmallDisk {
        let folder: String

        init(_ name: String, bytes: Int) throws {
            folder = try Fixtures.shared.scratchFolder(name)
            _ = try? Tools.run("umount", [folder], check: false)
            try Tools.run("mount", ["-t", "tmpfs", "-o", "size=\(bytes),mode=0755", "tmpfs", folder])
        }

        deinit { _ = try? Tools.run("umount", ["-l", folder], check: false) }

        var available: Int {
            var st = statvfs()
            guard statvfs(folder, &st) == 0 else { return -1 }
            return Int(st.f_bavail) * Int(st.f_frsize)
        }

        /// Fills the disk until `leaving` bytes are free.
        func fill(leaving: Int) throws {
            let filler = [UInt8](repeating: 0x55, count: max(0, available - leaving))
            try Data(filler).write(to: URL(fileURLWithPath: "\(folder)/filler"))
        }

        var names: [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] }
    }

    static let isRoot = geteuid() == 0

    /// Issue 33 #6: a link under the name is removed, never written through.
    @Test func aFreshFileIsNeverOpenedThroughALink() throws {
        let folder = try fx.scratchFolder("fresh-file")
        let victim = "\(folder)/victim"
        let path = "\(folder)/.x.new"
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
        let fd = try AtomicFile.createFresh(path)
        #expect(write(fd, "new", 3) == 3)
        close(fd)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
    }

    /// Issue 33 #7: a write the disk cannot take leaves nothing behind, and the space is free again.
    @Test(.enabled(if: isRoot, "mounting a tmpfs needs root"))
    func aWriteTheDiskRefusesRemovesItsTemporaryFile() throws {
        let disk = try SmallDisk("refused-write", bytes: 256 << 10)
        let before = disk.available
        #expect(throws: AtomicFile.Failure.self) {
            try AtomicFile.replace("\(disk.folder)/big", with: [UInt8](repeating: 1, count: 512 << 10))
        }
        #expect(disk.names.isEmpty, "\(disk.names)")
        #expect(disk.available == before)
        // The small file still fits.
        try AtomicFile.replace("\(disk.folder)/small", with: Array("fits\n".utf8))
        #expect(disk.names == ["small"])
    }

    /// Issue 33 #7: leftovers of cut writes go; a write under way and others' files stay.
    @Test func leftoversGoButWritesUnderWayAndOtherFilesStay() throws {
        let folder = try fx.scratchFolder("leftovers")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) { try FileManager.default.removeItem(atPath: "\(folder)/\(name)") }
        for name in [".jukebox-4242-7.new", ".state.new", ".notes.new", "state", "x.new"] {
            try "x".write(toFile: "\(folder)/\(name)", atomically: false, encoding: .utf8)
        }
        let removed = AtomicFile.removeLeftovers(in: folder) { $0 == "state" }
        #expect(removed.sorted() == [".jukebox-4242-7.new", ".state.new"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [".notes.new", "state", "x.new"])
    }

    /// Issue 33 #7, the whole box: the state folder on a nearly full disk, a library whose
    /// index does not fit. The place is saved (before the index is tried), the failed
    /// index leaves no temporary file, and what a killed run left is swept at the start.
    @Test(.enabled(if: isRoot, "mounting a tmpfs needs root"))
    func aFullDiskStillKeepsThePlace() throws {
        let music = try fx.scratchFolder("full-disk-music")
        let track = fx.path("full-disk-track.wav")
        if !FileManager.default.fileExists(atPath: track) {
            try Tools.run("sox", ["-n", "-r", "8000", "-c", "1", "-b", "16", track, "synth", "0.05", "sine", "440"])
        }
        // 600 tracks (copies: the scan counts a hard link once) with long names: an index of about 360 KB.
        let padding = String(repeating: "x", count: 150)
        for album in 0..<20 {
            let folder = "\(music)/Album \(album) \(padding)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for song in 0..<30 where !FileManager.default.fileExists(atPath: "\(folder)/\(song) \(padding).wav") {
                try FileManager.default.copyItem(atPath: track, toPath: "\(folder)/\(song) \(padding).wav")
            }
        }
        let disk = try SmallDisk("full-disk-state", bytes: 1 << 20)
        let playlists = try fx.scratchFolder("full-disk-playlists")
        // What killed runs left: an old version's index and one of ours, and in the playlists folder.
        for name in [".library.index.new", ".jukebox-1-1.new", ".notes.new"] {
            try "left".write(toFile: "\(disk.folder)/\(name)", atomically: false, encoding: .utf8)
        }
        for name in [".mix.m3u.new", ".jukebox-1-2.new"] {
            try "left".write(toFile: "\(playlists)/\(name)", atomically: false, encoding: .utf8)
        }
        try disk.fill(leaving: 64 << 10)
        let config = fx.path("full-disk.toml")
        try "[library]\nplaylists_dir = \"\(playlists)\"\n[playback]\nautoplay = false\n[control]\nkeyboard = false\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let stateFile = "\(disk.folder)/state"
        let daemon = try RunningDaemon(name: "full-disk", config: config, musicDirectory: music, device: NullOutput.deviceName, stateFile: stateFile)
        #expect(daemon.wait(seconds: 60) { daemon.log.contains("library index:") }, "\(daemon.log)")
        #expect(daemon.log.contains("No space left on device"), "\(daemon.log)")
        #expect(daemon.log.contains("removed \(disk.folder)/.library.index.new"), "\(daemon.log)")
        #expect(FileManager.default.fileExists(atPath: stateFile), "\(disk.names)")
        #expect(disk.names.filter { $0 != "state.prev" }.sorted() == [".notes.new", "filler", "state"], "\(disk.names)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: playlists).isEmpty)
        #expect(disk.available > 32 << 10, "the failed index still holds the space: \(disk.available) bytes free")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30))
        #expect(StateFile(path: stateFile).load().state != nil)
        #expect(disk.names.filter { $0 != "state.prev" }.sorted() == [".notes.new", "filler", "state"], "\(disk.names)")
    }
}
