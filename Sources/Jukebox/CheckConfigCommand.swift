import ArgumentParser
import JukeboxCore

/// `jukebox check-config [PATH]`: the whole check `run` makes, without running, so an admin
/// can check an edit before saving it over the live file.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a configuration file without running: exit 0 if it is valid, 1 with PATH:LINE:COLUMN: reason if not.")

    @Argument(help: "The file (default: /etc/jukebox/jukebox.toml if it exists, else config/jukebox.toml).")
    var path: String?

    func run() throws {
        let file = path ?? (FileIdentity(path: Self.installed) != nil ? Self.installed : "config/jukebox.toml")
        let config: JukeboxConfig
        do {
            config = try ConfigLoader.load(path: file, environment: SystemdFolders.environment())
        } catch {
            StandardError.print("\(error)")
            throw ExitCode(1)
        }
        let i = config.input
        let inputs = i.buttons.count + i.encoders.count + i.interruptions.count + i.keys.count + i.axes.count
        let mixer = switch config.audio.output.mixer {
        case .auto: "auto"
        case .software: "software"
        case .none: "none"
        case .control(let name): "'\(name)'"
        }
        print("\(file): ok")
        print("  music    \(config.library.musicDirectory)\(config.library.playlist.isEmpty ? "" : ", playlist \(config.library.playlist)")")
        print("  audio    \(config.audio.devices.joined(separator: ", ")), mixer \(mixer)")
        print("  state    \(config.state.file.isEmpty ? "none" : config.state.file), every \(config.state.interval) s while playing")
        print("  control  \(config.control.socketPath)\(config.control.tcpPort > 0 ? ", tcp 127.0.0.1:\(config.control.tcpPort)" : "")")
        print("  inputs   \(inputs)")
    }

    static let installed = "/etc/jukebox/jukebox.toml"
}
