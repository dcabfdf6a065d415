import Foundation

/// The box feeding snapserver: `jukebox run --device snapcast:FIFO` (or its tcp source), at volume 100 with no
/// replay gain (so tracks already in the stream's format go out bit for bit), playing the
/// queue once, with `[snapcast] latency_ms` equal to the server's buffer.
final class SnapcastBox {
    let daemon: RunningDaemon

    init(name: String, server: SnapServer, musicDirectory: String) throws {
        let config = Fixtures.shared.path("snapcast-\(name).toml")
        try """
            [playback]
            autoplay = false
            mode = "once"
            start_volume = 100
            replay_gain = "off"
            [control]
            keyboard = false
            [snapcast]
            format = "\(server.sampleFormat)"
            latency_ms = \(server.bufferMs)
            """.write(toFile: config, atomically: true, encoding: .utf8)
        daemon = try RunningDaemon(name: "snapcast-\(name)", config: config, musicDirectory: musicDirectory, device: server.device)
        guard daemon.wait(seconds: 20, until: { self.status().contains("volume: 100") }) else {
            throw Tools.ToolFailure(description: "the box did not answer at volume 100: \(status())\n\(daemon.log)")
        }
    }

    func status() -> String { daemon.ctl(["status"]) ?? "" }

    /// Queues `tracks` (paths inside the music folder) and plays them.
    func play(_ tracks: [String]) {
        _ = daemon.ctl(["clear"])
        for track in tracks { _ = daemon.ctl(["add", track]) }
        _ = daemon.ctl(["play"])
    }

    /// The command sent, and when it was sent (CLOCK_MONOTONIC, just before).
    @discardableResult
    func send(_ command: [String]) -> Double {
        let sent = monotonicSeconds()
        _ = daemon.ctl(command)
        return sent
    }
}
