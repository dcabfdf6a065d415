/// What an edit of the config changed, part by part, so a reload touches only those
/// parts: a new volume step must not reopen the sound card or drop a client.
public struct ConfigChange: Sendable, Equatable {
    public enum Part: String, Sendable, CaseIterable {
        /// Volumes, step, mode, thresholds, scan, the folders that keep their place.
        case player
        case inputs
        /// The socket path, TCP port and connection limits.
        case control
        /// The page's address, port, password and uploads.
        case web
        /// The zeroconf name, whether it is on, and what follows from the TCP port.
        case zeroconf
        /// The devices, their settings and what a lost device does.
        case audio
        /// The music folder, the playlists folder, the playlist.
        case library
        case state
        /// The display, its rotation, the fonts.
        case display
        /// The download cache's folder and size, the network's timeout.
        case network
        /// The jingles' files and level.
        case jingles
        /// The cards file and how cards behave.
        case cards
        /// The sleep timer's fade and steps, quiet hours, the key lock's cards.
        case timers
        /// Read only at start: autoplay, resume, keyboard, the keys' skip step, the pre-buffer.
        case startOnly = "start-only settings"
    }

    public let parts: Set<Part>

    public init(from old: JukeboxConfig, to new: JukeboxConfig) {
        var parts: Set<Part> = []
        if Self.playerSettings(old) != Self.playerSettings(new) { parts.insert(.player) }
        if old.input != new.input { parts.insert(.inputs) }
        if old.control.socketPath != new.control.socketPath || old.control.tcpPort != new.control.tcpPort
            || old.control.tcpAddress != new.control.tcpAddress || old.control.password != new.control.password
            || old.control.limits != new.control.limits { parts.insert(.control) }
        if old.web != new.web { parts.insert(.web) }
        if old.zeroconf != new.zeroconf
            || ZeroconfService.announcements(old, webPort: WebService.announcedPort(old.web))
            != ZeroconfService.announcements(new, webPort: WebService.announcedPort(new.web)) { parts.insert(.zeroconf) }
        if old.audio != new.audio { parts.insert(.audio) }
        if old.library.musicDirectory != new.library.musicDirectory || old.library.playlistsDirectory != new.library.playlistsDirectory
            || old.library.playlist != new.library.playlist { parts.insert(.library) }
        if old.state != new.state { parts.insert(.state) }
        if old.timers != new.timers { parts.insert(.timers) }
        if old.display != new.display { parts.insert(.display) }
        if old.network.cache != new.network.cache || old.network.timeoutSeconds != new.network.timeoutSeconds { parts.insert(.network) }
        if old.jingles != new.jingles { parts.insert(.jingles) }
        if old.cards != new.cards { parts.insert(.cards) }
        if old.playback.autoplay != new.playback.autoplay || old.playback.resume != new.playback.resume
            || old.playback.skipSeconds != new.playback.skipSeconds || old.control.keyboard != new.control.keyboard
            || old.network.prebufferSeconds != new.network.prebufferSeconds {
            parts.insert(.startOnly)
        }
        self.parts = parts
    }

    public var isEmpty: Bool { parts.isEmpty }

    /// The parts changed, in a fixed order, for the log.
    public var listed: String { Part.allCases.filter(parts.contains).map(\.rawValue).joined(separator: ", ") }

    /// The player's settings as the config gives them, folders made absolute.
    public static func playerSettings(_ config: JukeboxConfig) -> Player.Settings {
        var settings = config.playback.player
        settings.rememberFolders = config.library.rememberedFolders
        return settings
    }
}
