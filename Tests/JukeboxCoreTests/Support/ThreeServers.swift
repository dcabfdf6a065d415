import Foundation
import Testing

/// The real clients' three servers on one `DifferentialLibrary`: MPD 0.24.2 (the release
/// the box follows), MPD 0.23.12 and the box, each with its own copy of the stored
/// playlists and stickers.
final class ThreeServers {
    enum Server: String, CaseIterable {
        case mpd24 = "MPD 0.24.2"
        case mpd23 = "MPD 0.23.12"
        case box = "box"
    }

    let library: DifferentialLibrary
    private let mpd23: MPDPeer
    private let mpd24: MPDPeer
    private let box: RunningDaemon

    init(name: String) throws {
        library = try DifferentialLibrary(name: name)
        let (mpds, served) = try library.serve()
        func peer(_ release: MPDPeer.Release) throws -> MPDPeer {
            try #require(mpds.first { $0.release == release }, "no MPD \(release.rawValue) among the oracles")
        }
        (mpd23, mpd24, box) = (try peer(.bookworm), try peer(.backports), served)
    }

    deinit { library.remove() }

    func socket(_ server: Server) -> String {
        switch server {
        case .mpd24: return mpd24.socket
        case .mpd23: return mpd23.socket
        case .box: return box.socket
        }
    }

    /// Every server as MPD starts: stopped, the queue empty, every mode off, full volume,
    /// the output on; then `lines`, the scenario's own start, and once the song they
    /// play is open (its duration known), `opened`: the box drops a seek that comes
    /// sooner (MPD's waits for its decoder), which a loaded machine would show.
    func reset(_ server: Server, then lines: [String] = [], opened: [String] = []) {
        guard let connection = try? RawMPDConnection(socket: socket(server)) else { return }
        // ReplayGain off as MPD starts: the box applies it unless told not to.
        for line in ["stop", "clear", "clearerror", "repeat 0", "random 0", "single 0", "consume 0", "setvol 100",
                     "enableoutput 0", "replay_gain_mode off"] + lines {
            _ = connection.reply(to: line)
        }
        guard !opened.isEmpty else { return }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !connection.reply(to: "status").contains(where: { $0.hasPrefix("duration: ") }) {
            usleep(50_000)
        }
        for line in opened { _ = connection.reply(to: line) }
    }
}
