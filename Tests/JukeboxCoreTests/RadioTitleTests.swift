import Foundation
import Testing
@testable import JukeboxCore

/// A station's titles as clients see them from the daemon: each changes when the song it
/// names is heard, and replaces what the stream said of the song before it.
@Suite(.serialized) struct RadioTitleTests {
    typealias Connection = ControlHardeningTests.Connection

    /// A daemon playing `station`, and a connection to it past the greeting.
    static func playing(_ station: RadioStation, name: String) throws -> (RunningDaemon, Connection) {
        let config = Fixtures.shared.path("\(name).toml")
        try "[playback]\nautoplay = false\n[control]\nkeyboard = false\n[network]\ncache_dir = \"\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let (folder, _) = try Fixtures.shared.sineFolder(name, seconds: 2)
        let daemon = try RunningDaemon(name: name, config: config, musicDirectory: folder, device: "null-sink")
        #expect(daemon.wait(seconds: 20) { (daemon.ctl(["status"]) ?? "").contains("volume") })
        _ = daemon.ctl(["clear"])
        _ = daemon.ctl(["add", station.url])
        _ = daemon.ctl(["play"])
        let connection = try Connection(unix: daemon.socket)
        _ = connection.read(until: "\n")
        return (daemon, connection)
    }

    /// The current song's tags and the status, in one step.
    static func look(_ c: Connection) -> [String: String] {
        c.send("command_list_begin\ncurrentsong\nstatus\ncommand_list_end\n")
        var fields: [String: String] = [:]
        for line in c.read(until: "OK\n").split(separator: "\n") {
            guard let colon = line.firstRange(of: ": ") else { continue }
            fields[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
        }
        return fields
    }

    @Test func aTitleChangesWhenItsSongIsHeard() throws {
        // 128 kbit/s sent faster than it plays, after a burst, as stations send: song 2
        // starts 40 KiB (2.56 s) into the audio, and its title arrives seconds before
        // that audio is heard.
        let station = try RadioStation(playing: Fixtures.shared.path("cbr.mp3"), bytesPerSong: 40 << 10)
        let (daemon, c) = try Self.playing(station, name: "radio-timing")
        var looks: [(title: String, elapsed: Double)] = []
        #expect(daemon.wait(seconds: 20) {
            let fields = Self.look(c)
            if let title = fields["Title"], let elapsed = fields["elapsed"].flatMap(Double.init) { looks.append((title, elapsed)) }
            return looks.last?.title == RadioStation.title(2)
        }, "\(looks)\n\(daemon.log)")
        // Seen with song 2's title: never before its audio (the decoder hands titles on a
        // chunk at a time, 0.19 s here).
        let songStart = Double(40 << 10) / 16_000
        let first = looks.first { $0.title == RadioStation.title(2) }
        #expect((first?.elapsed ?? 0) > songStart - 0.4, "song 2 starts at \(songStart) s: \(looks)")
        #expect(looks.contains { $0.title == RadioStation.title(1) }, "\(looks)")
    }

    @Test func aTitleReplacesTheArtistTheStreamStartedWith() throws {
        // A stream that opens with an ID3 tag (some stations send one) names an artist
        // and a title; the station's first title is another song's.
        var tag = ID3Builder(version: 3)
        tag.text("TPE1", "Opening Artist", .latin1)
        tag.text("TIT2", "Opening Title", .latin1)
        tag.text("TALB", "Opening Album", .latin1)
        let station = try RadioStation(playing: Fixtures.shared.path("cbr.mp3"), bytesPerSong: 24 << 10, opening: tag.build())
        let (daemon, c) = try Self.playing(station, name: "radio-id3")
        var fields: [String: String] = [:]
        #expect(daemon.wait(seconds: 20) {
            fields = Self.look(c)
            return fields["Title"] == RadioStation.title(2)
        }, "\(fields)\n\(daemon.log)")
        #expect(fields["Artist"] == nil && fields["Album"] == nil, "\(fields)")
        #expect(fields["Name"] == station.name)
    }
}
