/// Everything `config/jukebox.toml` can set, with the defaults a box ships with.
/// `config/jukebox.toml` is the documented reference for every key.
public struct JukeboxConfig: Sendable, Equatable {
    public struct Library: Sendable, Equatable {
        /// Scanned recursively for music, by content.
        public var musicDirectory = "/srv/music"
        /// Extra M3U/M3U8 playlists, besides those inside the music folder.
        public var playlistsDirectory = "/srv/music/playlists"
        /// Play this playlist (by name, without extension) instead of the whole library.
        public var playlist = ""
    }

    public struct Playback: Sendable, Equatable {
        public var autoplay = true
        public var player = Player.Settings()
        /// The step of the ← / → keys.
        public var skipSeconds = 10.0
    }

    public struct Audio: Sendable, Equatable {
        /// Settings every device is opened with; `device` is the first choice.
        public var output = ALSAOutput.Settings()
        /// The devices to play to, most preferred first.
        public var devices = ["default"]
        public var onOutputLost = OutputLossPolicy.pause
    }

    public struct Control: Sendable, Equatable {
        public var socketPath = "/run/jukebox/control"
        /// 0 keeps TCP off; otherwise the port on 127.0.0.1.
        public var tcpPort = 0
        public var keyboard = true
        /// connection_timeout, max_connections, max_command_list_size.
        public var limits = ControlServer.Limits()
    }

    public var library = Library()
    public var playback = Playback()
    public var audio = Audio()
    public var control = Control()
    public var input = InputConfig()

    public init() {}
}
