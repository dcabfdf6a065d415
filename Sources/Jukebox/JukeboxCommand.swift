import ArgumentParser
import CJukeboxStart
import JukeboxCore

@main
struct JukeboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jukebox",
        abstract: "A music appliance for Raspberry-class boards.",
        version: JukeboxVersion.string,
        subcommands: [RunCommand.self, CtlCommand.self, StatusCommand.self, ProbeCommand.self, DecodeCommand.self,
                      LyricsCommand.self, ScreenshotCommand.self, MixerCommand.self, CheckConfigCommand.self, CardsCommand.self, DemoLibraryCommand.self, SnapcastPluginCommand.self,
                      VersionCommand.self]
    )

    static func main() {
        // `jukebox run` held the signals it handles before the libraries started
        // (CJukeboxStart/start.c); held again here should a loader skip that step.
        if CommandLine.arguments.dropFirst().first == "run", jukebox_start_held_signals() == 0 { Daemon.holdSignals() }
        // snapserver 0.26 runs its controlscript with no subcommand: a link named
        // …snapcast-plugin to this binary is the plugin.
        let name = CommandLine.arguments.first?.split(separator: "/").last ?? ""
        if name.hasSuffix("snapcast-plugin") {
            main([SnapcastPluginCommand.configuration.commandName ?? ""] + CommandLine.arguments.dropFirst())
        }
        main(nil)
    }
}

enum JukeboxVersion {
    static let string = "0.1.0"
}

struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version", abstract: "Print the jukebox version and the C libraries it runs with.")

    func run() {
        print("jukebox \(JukeboxVersion.string)")
        for lib in LibraryVersions.all { print("\(lib.name) \(lib.version)") }
    }
}
