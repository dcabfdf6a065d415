import ArgumentParser
import JukeboxCore
import Logging

#if canImport(Glibc)
import Glibc
#endif

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the jukebox: scan the library, play, and listen for controls.")

    @Option(help: "The configuration file.")
    var config = "config/jukebox.toml"

    @Option(help: "Play this folder instead of the configured music_dir (playlists stay in playlists_dir when the file sets it, else live here too).")
    var musicDir: String?

    @Option(help: "Control socket path, instead of the configured one.")
    var socket: String?

    @Option(help: "ALSA device or Snapcast stream (snapcast:/run/snapserver/jukebox), instead of the configured one (or list).")
    var device: String?

    @Option(help: "Where the screen is drawn, instead of the configured display: auto, none, /dev/dri/cardN, /dev/fbN or png:PATH.")
    var display: String?

    @Option(help: "The state file (where playback was, kept across restarts), instead of the configured one; \"\" keeps none.")
    var state: String?

    @Flag(help: "Exit when the queue has played out (for tests and benchmarks).")
    var exitWhenDone = false

    @Flag(help: "Log debug detail too, such as how long each command took to reach the output.")
    var verbose = false

    func validate() throws {
        if let display, DisplayChoice(display) == nil {
            throw ValidationError("--display \(display): use auto, none, /dev/dri/cardN, /dev/fbN or png:PATH")
        }
        if let device, SnapcastTarget.names(device) {
            do {
                _ = try SnapcastTarget(device: device)
            } catch {
                throw ValidationError("--device \(device): \(error)")
            }
        }
    }

    func run() throws {
        // The signals the daemon handles are held already (`JukeboxCommand.main`).
        let startedAt = MonotonicClock.now()
        // Alongside reading the box's own config: on a slow board each takes tens of ms.
        ALSAOutput.readConfigurationAhead()
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            var handler = StderrLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "jukebox")
        let source = ConfigSource(path: config, environment: SystemdFolders.environment(), musicDirectory: musicDir,
                                  socket: socket, stateFile: state, device: device,
                                  display: display.flatMap(DisplayChoice.init))
        let settings: JukeboxConfig
        do {
            settings = try source.load()
        } catch {
            StandardError.print("\(error)")
            throw ExitCode(2)
        }
        switch Daemon(config: settings, source: source, logger: logger, exitWhenDone: exitWhenDone, startedAt: startedAt).run() {
        case .stopped: return
        case .failed: throw ExitCode(1)
        // A thread stuck in a kernel call must not keep the box from restarting; _exit
        // skips atexit handlers that could wait on it.
        case .stuck: _exit(1)
        }
    }
}
