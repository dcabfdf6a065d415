import Foundation
import Testing
@testable import JukeboxCore

/// A play starts clean, as in MPD: an earlier error, earlier failures and an earlier
/// stream's network state do not carry over into it.
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

    @Test func aPlayClearsTheLastError() throws {
        let server = try WebServer(serving: try Fixtures.shared.scratchFolder("fresh-play-web"))
        let daemon = try Self.daemon("fresh-play-error")
        func status() -> String { daemon.ctl(["status"]) ?? "" }
        _ = daemon.ctl(["add", server.url("gone.mp3")])
        _ = daemon.ctl(["play"])
        #expect(daemon.wait(seconds: 20) { status().contains("error: ") }, "\(daemon.log)")
        _ = daemon.ctl(["clear"])
        _ = daemon.ctl(["add", "sine.flac"])
        _ = daemon.ctl(["play"])
        var seen = ""
        #expect(daemon.wait(seconds: 20) {
            seen = status()
            return seen.contains("state: play") && !seen.contains("error: ")
        }, "\(seen)\n\(daemon.log)")
    }

    @Test func aTrackAfterARadioStartsWithNoneOfItsNetworkState() throws {
        let station = try RadioStation(playing: Fixtures.shared.path("cbr.mp3"))
        // A URL whose server answers, sends its first frames, then nothing more: it never
        // gets to play.
        let mp3 = try Fixtures.shared.bytes("cbr.mp3")
        let stalled = try CannedServer(head: "HTTP/1.1 200 OK\nContent-Type: audio/mpeg\nContent-Length: \(mp3.count)\n",
                                       body: Array(mp3.prefix(4096)))
        let daemon = try Self.daemon("fresh-play-radio")
        func status() -> String { daemon.ctl(["status"]) ?? "" }
        _ = daemon.ctl(["add", station.url])
        _ = daemon.ctl(["add", stalled.url("stalled.mp3")])
        _ = daemon.ctl(["play"])
        // The station plays with seconds of audio buffered.
        #expect(daemon.wait(seconds: 20) {
            let s = status()
            return s.contains("state: play") && Self.buffered(s) > 1.5
        }, "\(status())\n\(daemon.log)")
        _ = daemon.ctl(["next"])
        // The stalled URL has 4 KiB, a quarter of a second: never the station's seconds.
        var looks: [String] = []
        for _ in 0..<20 {
            let s = status()
            if s.contains("song: 1\n") { looks.append(s) }
            usleep(100_000)
        }
        #expect(!looks.isEmpty, "\(daemon.log)")
        #expect(looks.allSatisfy { Self.buffered($0) < 0.5 }, "\(looks)")
        // Its wait is the pre-buffer's, and the log says so: not a rate carried over
        // from the station.
        #expect(!daemon.log.contains("\(stalled.url("stalled.mp3")): buffering: the network brings the track slower than it plays"),
                "\(daemon.log)")
        #expect(daemon.wait(seconds: 10) {
            daemon.log.contains("\(stalled.url("stalled.mp3")): buffering: its first seconds are slow to arrive")
        }, "\(daemon.log)")
    }

    /// The status's `buffered:` seconds (0 without one).
    static func buffered(_ status: String) -> Double {
        status.split(separator: "\n").first { $0.hasPrefix("buffered: ") }.flatMap { Double($0.dropFirst(10)) } ?? 0
    }
}
