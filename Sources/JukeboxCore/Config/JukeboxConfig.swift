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
        /// Folders (relative to `musicDirectory`, or absolute) that keep their own place.
        public var rememberPosition: [String] = []

        /// `rememberPosition` as absolute folders.
        public var rememberedFolders: [String] {
            rememberPosition.map { $0.hasPrefix("/") ? $0 : "\(musicDirectory)/\($0)" }
        }
    }

    public struct Playback: Sendable, Equatable {
        public var autoplay = true
        /// Whether a box that comes back after a restart plays on (with autoplay).
        public var resume = ResumePolicy.playing
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
        /// `[snapcast]`: the stream a `snapcast:` device feeds.
        public var snapcast = SnapcastOutput.Settings()
    }

    /// Where the place in the music is kept across restarts and power cuts.
    public struct State: Sendable, Equatable {
        /// The state file; empty keeps no state.
        public var file = "/var/lib/jukebox/state"
        /// Seconds between saves while playing: what a power cut can lose, at most.
        public var interval = 10.0

        /// The library index, beside the state file; nil when no state is kept.
        public var libraryIndex: String? {
            file.isEmpty ? nil : AtomicFile.folder(of: file) + "/library.index"
        }

        /// MPD's sticker database, beside the state file; nil when no state is kept.
        public var stickerDatabase: String? {
            file.isEmpty ? nil : AtomicFile.folder(of: file) + "/stickers.sqlite"
        }
    }

    public struct Control: Sendable, Equatable {
        public var socketPath = "/run/jukebox/control"
        /// 0 keeps TCP off; otherwise the port on `tcpAddress`.
        public var tcpPort = 0
        /// The address TCP listens on: this machine only unless the admin opens it.
        public var tcpAddress = "127.0.0.1"
        /// Empty: no password. Otherwise TCP clients may only read until they send it.
        public var password = ""
        public var keyboard = true
        /// connection_timeout, max_connections, max_command_list_size.
        public var limits = ControlServer.Limits()
    }

    /// `[web]`: the page on the phone, served by the box itself.
    public struct Web: Sendable, Equatable {
        public var enabled = true
        /// This machine only, unless the admin opens it.
        public var address = "127.0.0.1"
        /// nil: 80 when the box may bind it (its own service, with the capability), else 8080.
        public var port: Int?
        /// Empty: `[control] password`, if that is set.
        public var password = ""
        /// Where uploads go, relative to the music folder.
        public var uploadFolder = "Uploads"
        public var maxUploadBytes: Int64 = 1024 << 20
        public var uploadsAtOnce = 2
        /// An upload that would leave less free than this on the disk is refused.
        public var keepFreeBytes: Int64 = 200 << 20

        public init() {}
    }

    /// `[zeroconf]`: the box announced on the network through avahi-daemon.
    public struct Zeroconf: Sendable, Equatable {
        public var enabled = true
        /// What phones and browsers show (MPD's zeroconf_name); a plain name, no `%h`.
        public var name = "Jukebox"

        public init() {}
    }

    /// The screen: where it is drawn, how the panel is turned, the fonts.
    public struct Display: Sendable, Equatable {
        public var device = DisplayChoice.auto
        public var rotate = Rotation.none
        /// Tried in order for each character (per-glyph fallback).
        public var fonts = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"]
        /// The size of a `png:` display (a real display has its own).
        public var pngWidth = 320
        public var pngHeight = 240
        /// Frames a second while the karaoke fill moves (at most `ScreenRenderer.fastestFill`).
        public var fillRate = ScreenRenderer.defaultFillRate

        public init() {}
    }

    /// Tracks on web servers: where downloads are kept.
    public struct Network: Sendable, Equatable {
        /// Played tracks are kept here to play again offline; empty: nothing is kept.
        public var cacheDirectory = "/var/cache/jukebox"
        public var cacheBytes: Int64 = 512 << 20
        /// Seconds of a network track downloaded before it starts (read at start).
        public var prebufferSeconds = 2.0
        /// A connection not made, or a transfer with no byte, for this long is retried.
        public var timeoutSeconds = 10

        public init() {}

        public var cache: DownloadCache.Settings? {
            cacheDirectory.isEmpty ? nil : DownloadCache.Settings(folder: cacheDirectory, capacity: cacheBytes)
        }

        public var limits: HTTPTransfer.Limits { HTTPTransfer.Limits(connectSeconds: timeoutSeconds, stallSeconds: timeoutSeconds) }
    }

    /// `[jingles]`: short sounds over the music when a card is read.
    public struct Jingles: Sendable, Equatable {
        /// The sound file for each, absolute (relative ones are taken from the config's
        /// folder); none: silent.
        public var sounds: [Jingle: String] = [:]
        /// Their level on the volume's scale (0–100); never louder than the music's volume.
        public var volume = 40
    }

    /// Cards on a reader (`[cards]`): where the cards file is, and how a card behaves.
    public struct Cards: Sendable, Equatable {
        /// The cards file, as `[cards] file` gives it: empty is `cards.toml` beside the
        /// config file (`ConfigSource` resolves it), and no cards without a config file.
        public var file = ""
        public var mode = CardRules.Mode.place
        public var again = CardRules.Again.pause
        /// A lifted card counts as gone after this long; back sooner, it is the same placement.
        public var removalGraceMilliseconds = 1000
        /// Whether a card may switch the box off (`do = "shutdown"`).
        public var allowShutdown = false

        public init() {}
    }

    public var library = Library()
    public var cards = Cards()
    public var playback = Playback()
    public var audio = Audio()
    public var control = Control()
    public var web = Web()
    public var zeroconf = Zeroconf()
    public var state = State()
    public var input = InputConfig()
    public var display = Display()
    public var network = Network()
    public var jingles = Jingles()
    /// The sleep timer (`[sleep]`), quiet hours (`[quiet_hours]`, nil: none) and the key
    /// lock (`[key_lock]`).
    public var timers = TimersConfig()

    public init() {}

    /// The defaults under systemd: a unit with `StateDirectory=` and `RuntimeDirectory=`
    /// names those folders in `$STATE_DIRECTORY` and `$RUNTIME_DIRECTORY` (the first of a
    /// colon-separated list is used).
    public init(environment: [String: String]) {
        self.init()
        if let folder = Self.firstFolder(environment["STATE_DIRECTORY"]) { state.file = "\(folder)/state" }
        if let folder = Self.firstFolder(environment["RUNTIME_DIRECTORY"]) { control.socketPath = "\(folder)/control" }
        if let folder = Self.firstFolder(environment["CACHE_DIRECTORY"]) { network.cacheDirectory = folder }
    }

    private static func firstFolder(_ value: String?) -> String? {
        guard let first = value?.split(separator: ":").first, !first.isEmpty else { return nil }
        return String(first)
    }
}
