import Logging

/// The control socket (and TCP port, when on): clients such as mpc. Restarted with
/// back-off if its loop dies. Refuses to run the box when another jukebox already answers
/// on the socket: taking it over would leave that box playing but unreachable.
final class ControlService: Service, @unchecked Sendable {
    let name = "control socket"
    let policy = FailurePolicy.restarted()
    private let player: Player
    private let catalog: LibraryCatalog
    private let outputs: OutputSwitches
    private let logger: Logger
    private let settings: ConditionLocked<Current>
    /// What the screen says about the server (a busy TCP port); nil clears it.
    var onNotice: @Sendable (String?) -> Void = { _ in }
    /// Where the socket's virtual card reader reports (`card UID`).
    var onCard: @Sendable (CardSighting) -> Void = { _ in }
    private struct Current {
        var control: JukeboxConfig.Control
        var scope: ControlServer.Scope
        var server: ControlServer?
    }

    init(player: Player, catalog: LibraryCatalog, outputs: OutputSwitches, settings: JukeboxConfig.Control, scope: ControlServer.Scope,
         logger: Logger) {
        self.player = player
        self.catalog = catalog
        self.outputs = outputs
        self.logger = logger
        self.settings = ConditionLocked(Current(control: settings, scope: scope))
    }

    /// The folders clients reach and the sticker database, from a config.
    static func scope(_ config: JukeboxConfig) -> ControlServer.Scope {
        ControlServer.Scope(musicDirectory: config.library.musicDirectory, playlistsDirectory: config.library.playlistsDirectory,
                            stickerDatabase: config.state.stickerDatabase ?? "")
    }

    /// The settings the next start uses (a live reload restarts it through the group).
    var control: JukeboxConfig.Control {
        get { settings.current.control }
        set { settings.withLock { $0.control = newValue } }
    }

    /// The folders clients reach; also taken at the next start.
    var scope: ControlServer.Scope {
        get { settings.current.scope }
        set { settings.withLock { $0.scope = newValue } }
    }

    func start(died: @escaping @Sendable (any Error) -> Void) throws {
        let (control, scope) = settings.withLock { ($0.control, $0.scope) }
        let server = ControlServer(player: player, logger: logger, limits: control.limits, scope: scope, catalog: catalog, outputs: outputs,
                                   password: control.password)
        server.onDeath = { died($0) }
        server.onNotice = onNotice
        server.onCard = onCard
        do {
            try server.start(socketPath: control.socketPath, tcpPort: control.tcpPort, tcpAddress: control.tcpAddress)
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
        onNotice(nil)
    }
}
