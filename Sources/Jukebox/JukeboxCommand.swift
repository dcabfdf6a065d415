import ArgumentParser
import JukeboxCore

@main
struct JukeboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jukebox",
        abstract: "A music appliance for Raspberry-class boards.",
        version: JukeboxVersion.string,
        subcommands: [RunCommand.self, CtlCommand.self, StatusCommand.self, ProbeCommand.self, DecodeCommand.self,
                      LyricsCommand.self, ScreenshotCommand.self, MixerCommand.self, CheckConfigCommand.self, DemoLibraryCommand.self, VersionCommand.self]
    )
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
