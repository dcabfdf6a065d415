import Foundation
import Testing
@testable import JukeboxCore

/// Long replies from the real daemon: a library (and so a queue) whose listings run to
/// megabytes is listed whole by every listing command and by mpc, a client that does not
/// read holds up nobody, and a big stored playlist is read without stalling the others.
@Suite(.serialized) struct ControlListingTests {
    typealias Connection = ControlHardeningTests.Connection
    let fx = Fixtures.shared
    static let tracks = 20_000

    /// 20,000 tracks with long names (every `playlistinfo` entry about 300 bytes: 6 MB in
    /// all, past the 4 MiB that used to drop the client), each a tiny WAV (copies: the
    /// library takes hard links of one file for one track).
    func library() throws -> String {
        let root = try fx.scratchFolder("listing-library-\(Self.tracks)")
        guard !FileManager.default.fileExists(atPath: root + "/.done") else { return root }
        var wav = Array("RIFF".utf8) + [40, 0, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1F, 0, 0, 0x80, 0x3E, 0, 0, 2, 0, 16, 0]
        wav += Array("data".utf8) + [4, 0, 0, 0, 0, 0, 0, 0]
        let one = Data(wav)
        let long = String(repeating: "a rather long name ", count: 3)
        for folder in 0..<Self.tracks / 100 {
            let dir = "\(root)/Artist \(folder / 10) with \(long)/Album \(folder) with \(long)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for track in 0..<100 { try one.write(to: URL(fileURLWithPath: "\(dir)/Track \(track) with \(long).wav")) }
        }
        _ = FileManager.default.createFile(atPath: root + "/.done", contents: nil)
        return root
    }

    func daemon(_ name: String, music: String) throws -> RunningDaemon {
        let config = fx.path("\(name).toml")
        try "[playback]\nautoplay = false\n[display]\ndevice = \"none\"\n[control]\nkeyboard = false\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: name, config: config, musicDirectory: music)
        try #require(daemon.wait(seconds: 600) { daemon.log.contains("\(Self.tracks) tracks queued") }, "never ready: \(daemon.log.suffix(2000))")
        return daemon
    }

    /// The reply to `command`, read to its last line.
    func ask(_ c: Connection, _ command: String) -> String {
        c.send(command + "\n")
        return c.read(until: "\nOK\n")
    }

    func count(_ key: String, in reply: String) -> Int {
        reply.split(separator: "\n").filter { $0.hasPrefix(key) }.count
    }

    @Test func longListingsArriveWholeAndASlowReaderHoldsUpNobody() throws {
        let daemon = try daemon("listing", music: try library())
        let c = try Connection(unix: daemon.socket, timeout: 120)
        _ = c.read(until: "\n")
        let before = daemon.memory()
        for command in ["playlistinfo", "plchanges 0", "listallinfo", "find \"(file contains 'Track')\""] {
            let reply = ask(c, command)
            #expect(count("file: ", in: reply) == Self.tracks, "\(command): \(reply.suffix(200))")
            #expect(reply.hasSuffix("\nOK\n"))
        }
        #expect(count("Pos: ", in: ask(c, "playlistinfo")) == Self.tracks)
        // A client that asks for the whole queue and reads nothing: the others are served
        // meanwhile, and it still gets all of it once it reads.
        let slow = try Connection(unix: daemon.socket, timeout: 120)
        _ = slow.read(until: "\n")
        slow.send("playlistinfo\nping\n")
        usleep(300_000)
        for _ in 0..<5 { #expect(ask(c, "status").contains("playlistlength: \(Self.tracks)\n")) }
        let all = slow.read(until: "\nOK\nOK\n")
        #expect(count("file: ", in: all) == Self.tracks)
        let after = daemon.memory()
        print("listing \(Self.tracks) tracks, 6 MB a reply: RSS \(before.now >> 10) KiB before, peak \(after.peak >> 10) KiB")
        #expect(after.peak - before.now < 24 << 20, "peak RSS grew from \(before.now >> 20) to \(after.peak >> 20) MiB")
        let mpc = try Tools.run("mpc", ["--host", daemon.socket, "playlist"], check: false)
        #expect(mpc.status == 0, "\(mpc.stderr)")
        #expect(mpc.text.split(separator: "\n").count == Self.tracks)
    }

    /// An 89,000-line playlist (2.6 MB, under the 4 MiB a playlist file may be) is
    /// read on the file thread: listed whole and loaded, and the other clients are
    /// answered while it is read.
    @Test func aBigStoredPlaylistIsListedAndLoaded() throws {
        let music = try fx.scratchFolder("bigplaylist-music")
        _ = try? FileManager.default.copyItem(atPath: fx.path("music24.flac"), toPath: music + "/a.flac")
        // A playlist of the music folder, named by its file name (lists/big.m3u). Only its
        // last entry is in the library: load adds that one, listplaylist names all.
        try FileManager.default.createDirectory(atPath: music + "/lists", withIntermediateDirectories: true)
        let lines = (1..<89_000).map { "/music/gone/track \($0).flac\n" }.joined() + music + "/a.flac\n"
        try ("#EXTM3U\n" + lines).write(toFile: music + "/lists/big.m3u", atomically: true, encoding: .utf8)
        let config = fx.path("bigplaylist.toml")
        try "[playback]\nautoplay = false\n[display]\ndevice = \"none\"\n[control]\nkeyboard = false\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: "bigplaylist", config: config, musicDirectory: music)
        try #require(daemon.wait(seconds: 60) { daemon.log.contains("tracks queued") && daemon.statusReply() != nil }, "never ready: \(daemon.log)")
        let reader = try Connection(unix: daemon.socket, timeout: 120)
        let other = try Connection(unix: daemon.socket, timeout: 120)
        _ = reader.read(until: "\n")
        _ = other.read(until: "\n")
        reader.send("listplaylist lists/big.m3u\n")
        for _ in 0..<5 { #expect(ask(other, "status").contains("state: stop\n")) }
        let listed = reader.read(until: "\nOK\n")
        #expect(count("file: ", in: listed) == 89_000, "\(listed.prefix(300))")
        reader.send("clear\nload lists/big.m3u\n")
        #expect(reader.read(until: "OK\nOK\n") == "OK\nOK\n")
        #expect(ask(reader, "status").contains("playlistlength: 1\n"))
    }
}
