/// Where the running config comes from: the file, the command line's overrides and
/// systemd's folders. A live reload reads it again the same way, so an override given at
/// start (`--device`, `--socket`) stays in force across edits.
public struct ConfigSource: Sendable {
    public var path: String
    public var environment: [String: String]
    public var musicDirectory: String?
    public var socket: String?
    public var stateFile: String?
    public var device: String?
    public var display: DisplayChoice?

    public init(path: String, environment: [String: String] = [:], musicDirectory: String? = nil,
                socket: String? = nil, stateFile: String? = nil, device: String? = nil, display: DisplayChoice? = nil) {
        self.path = path
        self.environment = environment
        self.musicDirectory = musicDirectory
        self.socket = socket
        self.stateFile = stateFile
        self.device = device
        self.display = display
    }

    /// Reads and checks the whole file; throws `ConfigError` (PATH:LINE:COLUMN: reason).
    public func load() throws -> JukeboxConfig {
        var config = try ConfigLoader.load(path: path, environment: environment, musicDirectory: musicDirectory)
        if let socket { config.control.socketPath = socket }
        if let stateFile { config.state.file = stateFile }
        if let device {
            config.audio.output.device = device
            config.audio.devices = [device]
        }
        if let display { config.display.device = display }
        config.cards.file = ConfigLoader.cardsFile(config.cards.file, besideConfig: path)
        return config
    }
}
