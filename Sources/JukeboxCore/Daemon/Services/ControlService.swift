import Logging

/// The control socket (and TCP port, when on): clients such as mpc. Restarted with
/// back-off if its loop dies. Refuses to run the box when another jukebox already answers
/// on the socket: taking it over would leave that box playing but unreachable.
final class ControlService: Service, @unchecked Sendable {
    let name = "control socket"
    let policy = FailurePolicy.restarted()
    private let player: Player
    private let catalog: LibraryCatalog
    private let logger: Logger
    private let settings: ConditionLocked<Current>
    private struct Current {
        var control: JukeboxConfig.Control
        var musicDirectory: String
        /// The audio devices in priority order, as clients list them (`outputs`).
        var outputs: [String]
        var server: ControlServer?
    }

    init(player: Player, catalog: LibraryCatalog, settings: JukeboxConfig.Control, musicDirectory: String, outputs: [String],
         logger: Logger) {
        self.player = player
        self.catalog = catalog
        self.logger = logger
        self.settings = ConditionLocked(Current(control: settings, musicDirectory: musicDirectory, outputs: outputs))
    }

    /// The settings the next start uses (a live reload restarts it through the group).
    var control: JukeboxConfig.Control {
        get { settings.current.control }
        set { settings.withLock { $0.control = newValue } }
    }

    /// The folder files are named relative to; also taken at the next start.
    var musicDirectory: String {
        get { settings.current.musicDirectory }
        set { settings.withLock { $0.musicDirectory = newValue } }
    }

    /// The devices `outputs` lists; also taken at the next start.
    var outputs: [String] {
        get { settings.current.outputs }
        set { settings.withLock { $0.outputs = newValue } }
    }

    func start(died: @escaping @Sendable (any Error) -> Void) throws {
        let (control, musicDirectory, outputs) = settings.withLock { ($0.control, $0.musicDirectory, $0.outputs) }
        let server = ControlServer(player: player, logger: logger, limits: control.limits, musicDirectory: musicDirectory,
                                   catalog: catalog, outputs: outputs)
        server.onDeath = { died($0) }
        do {
            try server.start(socketPath: control.socketPath, tcpPort: control.tcpPort)
        } catch {
            if case .alreadyServed = error { throw BoxMustNotRun(error) }
            throw error
        }
        settings.withLock { $0.server = server }
    }

    func stop() {
        let server = settings.withLock { access -> ControlServer? in
            defer { access.server = nil }
            return access.server
        }
        server?.stop()
    }
}
