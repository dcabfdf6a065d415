import ArgumentParser
import JukeboxCore

struct DemoLibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-library",
        abstract: "Write a few short demo songs, with tags and synced lyrics, into a folder.")

    @Argument(help: "The folder to write into (created if missing).")
    var folder: String

    func run() throws {
        do {
            for path in try DemoLibrary.write(to: folder) { print(path) }
        } catch {
            StandardError.print("jukebox: \(error)")
            throw ExitCode(1)
        }
    }
}
