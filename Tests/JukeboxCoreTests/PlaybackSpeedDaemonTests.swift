import Foundation
import Testing
@testable import JukeboxCore

/// The speed in the real daemon: from its config, over its socket, and through a reload.
@Suite struct PlaybackSpeedDaemonTests {
    func status(_ socket: String) -> [String: String] {
        guard let lines = try? ControlClient(socketPath: socket).send(["status"]) else { return [:] }
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    @Test func theDaemonPlaysAtItsConfiguredSpeedAndTakesNewOnes() throws {
        let fx = Fixtures.shared
        let music = try fx.sineFolder("speed-daemon-music", seconds: 60).folder
        let folder = try fx.scratchFolder("speed-daemon-config")
        let config = "\(folder)/jukebox.toml"
        func save(speed: String) throws {
            let text = "[playback]\nautoplay = true\nmode = \"once\"\nspeed = \(speed)\n[control]\nkeyboard = false\n"
                + "[audio]\ndevice = \"\(NullOutput.deviceName)\"\n"
            try text.write(toFile: config + ".new", atomically: false, encoding: .utf8)
            #expect(rename(config + ".new", config) == 0)
        }
        try save(speed: "1.25")
        let daemon = try RunningDaemon(name: "speed", config: config, musicDirectory: music, device: nil)
        #expect(daemon.wait(seconds: 30) { (Double(status(daemon.socket)["elapsed"] ?? "") ?? 0) > 0.5 }, "never played: \(daemon.log)")
        #expect(status(daemon.socket)["speed"] == "1.25")
        #expect(daemon.ctl(["speed"]) == "speed: 1.25\n")
        #expect(daemon.ctl(["speed", "1.5"]) != nil)
        #expect(status(daemon.socket)["speed"] == "1.5")
        #expect(status(daemon.socket)["state"] == "play")
        // A reload applies the configured speed: no book is playing at its own.
        try save(speed: "0.75")
        #expect(daemon.wait(seconds: 30) { status(daemon.socket)["speed"] == "0.75" }, "\(daemon.log)")
        // A typo is named with its line, and the speed stays.
        try save(speed: "1.33")
        #expect(daemon.wait(seconds: 30) { daemon.log.contains("speed is 1.33; it goes in steps of 0.05, such as 1.35") }, "\(daemon.log)")
        #expect(status(daemon.socket)["speed"] == "0.75")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30))
    }
}
