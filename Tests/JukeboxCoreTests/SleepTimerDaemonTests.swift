import Foundation
import Testing
@testable import JukeboxCore

/// The sleep timer in the real daemon, over its socket: set, asked, and the pause.
@Suite struct SleepTimerDaemonTests {
    func status(_ socket: String) -> [String: String] {
        guard let lines = try? ControlClient(socketPath: socket).send(["status"]) else { return [:] }
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    @Test func sleepOverTheSocketPausesAndLeavesTheVolumeAlone() throws {
        let fx = Fixtures.shared
        let music = try fx.sineFolder("sleep-daemon-music", seconds: 60).folder
        let folder = try fx.scratchFolder("sleep-daemon-config")
        let config = "\(folder)/jukebox.toml"
        let text = "[playback]\nautoplay = true\nmode = \"once\"\nstart_volume = 70\n[control]\nkeyboard = false\n"
            + "[audio]\ndevice = \"\(NullOutput.deviceName)\"\n[sleep]\nfade_seconds = 2\n"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: "sleep", config: config, musicDirectory: music, device: nil)
        #expect(daemon.wait(seconds: 30) { status(daemon.socket)["state"] == "play" }, "never played: \(daemon.log)")
        #expect(daemon.ctl(["sleep"]) == "sleep: off\n")
        #expect(daemon.ctl(["sleep", "soon"]) == nil)
        #expect(daemon.ctl(["sleep", "end-of-track"]) != nil)
        #expect(daemon.wait(seconds: 10) { daemon.ctl(["sleep"])?.hasPrefix("sleep: end-of-track\nleft: ") == true }, "\(daemon.log)")
        #expect(daemon.ctl(["sleep", "off"]) != nil)
        #expect(daemon.wait(seconds: 10) { daemon.ctl(["sleep"]) == "sleep: off\n" })
        // Six seconds, the last two fading: then paused, the volume as it was.
        #expect(daemon.ctl(["sleep", "0.1"]) != nil)
        #expect(daemon.wait(seconds: 10) { daemon.ctl(["sleep"])?.hasPrefix("sleep: 0.1\nleft: ") == true })
        #expect(daemon.wait(seconds: 60) { status(daemon.socket)["state"] == "pause" }, "never paused: \(daemon.log)")
        #expect(status(daemon.socket)["volume"] == "70")
        #expect(daemon.ctl(["sleep"]) == "sleep: off\n")
        #expect(daemon.log.contains("sleep timer: time's up; pausing"), "\(daemon.log)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30))
    }
}
