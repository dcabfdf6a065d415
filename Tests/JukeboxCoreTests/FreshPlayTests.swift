import Foundation
import Testing
@testable import JukeboxCore

/// A play starts clean: earlier failures do not carry over into it.
@Suite(.serialized) struct FreshPlayTests {
    /// A daemon with nothing queued, its music folder holding `sine.flac`.
    static func daemon(_ name: String) throws -> RunningDaemon {
        let config = Fixtures.shared.path("\(name).toml")
        try "[playback]\nautoplay = false\n[control]\nkeyboard = false\n[network]\ncache_dir = \"\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let (folder, _) = try Fixtures.shared.sineFolder(name, seconds: 30)
        let daemon = try RunningDaemon(name: name, config: config, musicDirectory: folder, device: "null-sink")
        #expect(daemon.wait(seconds: 20) { (daemon.ctl(["status"]) ?? "").contains("volume") })
        _ = daemon.ctl(["clear"])
        return daemon
    }

    @Test func aNewQueueSkipsItsBadEntryWhateverFailedBefore() throws {
        let server = try WebServer(serving: try Fixtures.shared.scratchFolder("fresh-play-web"))
        let daemon = try Self.daemon("fresh-play-skip")
        func status() -> String { daemon.ctl(["status"]) ?? "" }
        // One dead URL alone: nothing else to play, so it stops with the error.
        _ = daemon.ctl(["add", server.url("gone.mp3")])
        _ = daemon.ctl(["play"])
        #expect(daemon.wait(seconds: 20) { status().contains("error: ") }, "\(daemon.log)")
        // A new queue: a dead URL, then a good file. The dead one is skipped.
        _ = daemon.ctl(["clear"])
        _ = daemon.ctl(["add", server.url("gone-too.mp3")])
        _ = daemon.ctl(["add", "sine.flac"])
        _ = daemon.ctl(["play"])
        var seen = ""
        #expect(daemon.wait(seconds: 20) {
            seen = status()
            return seen.contains("state: play") && seen.contains("song: 1\n")
        }, "\(seen)\n\(daemon.log)")
        #expect(daemon.log.contains("playing 2/2: sine"), "\(daemon.log)")
    }
}
