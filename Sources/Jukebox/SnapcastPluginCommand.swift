#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import JukeboxCore

/// `jukebox snapcast-plugin`: Snapcast's stream plugin (snapserver's `controlscript`), so
/// Snapcast's apps show what the box plays, with its cover, and control it. snapserver
/// 0.26 runs one path with no subcommand: a link to this binary whose name ends in
/// `snapcast-plugin` runs this too (see `JukeboxCommand.main`).
struct SnapcastPluginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapcast-plugin",
        abstract: "Snapcast's stream plugin: the box's metadata and control for snapserver (its controlscript).",
        discussion: """
            The socket is --socket, else $JUKEBOX_SOCKET, else the [control] socket of --config \
            (default /etc/jukebox/jukebox.toml when it exists), else /run/jukebox/control.
            """)

    /// What snapserver's environment may say when the plugin is started by a link.
    static let socketVariable = "JUKEBOX_SOCKET"

    @Option(help: "The jukebox's control socket.")
    var socket: String?

    @Option(help: "The configuration file whose [control] socket to use.")
    var config: String?

    @Option(help: "The Snapcast stream's id (given by snapserver; not needed).")
    var stream: String?

    @Option(name: .customLong("snapcast-port"), help: "snapserver's HTTP port (given by snapserver; not needed).")
    var snapcastPort: String?

    @Option(name: .customLong("snapcast-host"), help: "snapserver's host (not needed).")
    var snapcastHost: String?

    /// Newer snapservers pass more; none of it is needed, so none of it is refused.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var other: [String] = []

    func run() throws {
        // A closed stdout must end the plugin with a message, not a signal.
        signal(SIGPIPE, SIG_IGN)
        // snapserver stops its plugin with a signal, and may have started it with its own
        // signals blocked: a plugin that kept them could never be stopped.
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        let plugin = SnapcastPlugin(settings: .init(socketPath: socketPath()))
        throw ExitCode(plugin.run())
    }

    func socketPath() -> String {
        if let socket { return socket }
        if let value = getenv(Self.socketVariable), let socket = String(validatingCString: value), !socket.isEmpty { return socket }
        let file = config ?? CheckConfigCommand.installed
        guard config != nil || FileIdentity(path: file) != nil else { return JukeboxConfig().control.socketPath }
        do {
            return try ConfigLoader.load(path: file, environment: SystemdFolders.environment()).control.socketPath
        } catch {
            let fallback = JukeboxConfig().control.socketPath
            StandardError.print("jukebox snapcast-plugin: \(error); using \(fallback)")
            return fallback
        }
    }
}
