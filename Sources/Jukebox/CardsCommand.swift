import ArgumentParser
import JukeboxCore

#if canImport(Glibc)
import Glibc
#endif

/// `jukebox cards`: lists, links and forgets cards in the cards file, editing its text in
/// place (atomically, comments and order kept). The running box reads the file again by
/// itself when it is saved.
struct CardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cards",
        abstract: "List, link and forget the cards a child puts on the box.",
        subcommands: [List.self, Link.self, Forget.self],
        defaultSubcommand: List.self)

    struct Where: ParsableArguments {
        @Option(help: "The config file, whose [cards] file is used (default: /etc/jukebox/jukebox.toml if it exists, else config/jukebox.toml).")
        var config: String?

        @Option(help: "The cards file itself, instead of the one the config names.")
        var file: String?

        /// The cards file, and the config's music folder (nil with `--file`).
        func resolve() throws -> (file: String, music: String?) {
            if let file { return (file, nil) }
            let path = config ?? (access(CheckConfigCommand.installed, F_OK) == 0 ? CheckConfigCommand.installed : "config/jukebox.toml")
            do {
                let loaded = try ConfigSource(path: path, environment: SystemdFolders.environment()).load()
                guard !loaded.cards.file.isEmpty else {
                    StandardError.print("\(path): [cards] file is \"none\": this box keeps no cards")
                    throw ExitCode(1)
                }
                return (loaded.cards.file, loaded.library.musicDirectory)
            } catch let error as ConfigError {
                StandardError.print("\(error)")
                throw ExitCode(1)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Each card: its number, its name and what it does.")
        @OptionGroup var place: Where

        func run() throws {
            let file = try place.resolve().file
            let cards: CardsFile
            do {
                cards = try CardsFile.load(path: file)
            } catch {
                StandardError.print("\(error)")
                throw ExitCode(1)
            }
            let width = cards.entries.map(\.id.text.count).max() ?? 0
            let names = cards.entries.map { $0.name ?? "-" }
            let nameWidth = names.map(\.count).max() ?? 0
            for (entry, name) in zip(cards.entries, names) {
                print(pad(entry.id.text, width) + "  " + pad(name, nameWidth) + "  " + entry.description)
            }
            if cards.entries.isEmpty { StandardError.print("\(file): no cards yet (jukebox cards link NUMBER FOLDER)") }
        }

        private func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
    }

    struct Link: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Link a card to a folder or file under the music folder, a URL, or (--playlist) a stored playlist.")
        @OptionGroup var place: Where

        @Argument(help: "The card's number, as the screen or the log shows it.")
        var card: String

        @Argument(help: "A folder or file relative to the music folder, an http(s) URL, or a playlist's name with --playlist.")
        var target: String

        @Flag(help: "TARGET is a stored playlist's name.")
        var playlist = false

        @Flag(help: "The card continues where it was left (an audiobook).")
        var resume = false

        @Option(help: "The name the screen and the list show.")
        var name: String?

        func validate() throws {
            guard CardID(card) != nil else { throw ValidationError("\(card) is not a card number: 1 to 32 letters and digits") }
            if name?.isEmpty == true { throw ValidationError("--name is empty; leave it out to show the card's number") }
        }

        func run() throws {
            let (file, music) = try place.resolve()
            let id = CardID(card)!
            let target: CardMusic.Target
            if playlist {
                target = .playlist(self.target)
            } else if case .url(let url) = TrackLocation(self.target) {
                target = .url(url)
            } else {
                target = .library(self.target.hasSuffix("/") ? String(self.target.dropLast()) : self.target)
            }
            let entry = CardEntry(id: id, name: name, does: .play(CardMusic(target: target, resume: resume)))
            // The new card alone first: a wrong target is named as such, not as a broken file.
            do {
                _ = try CardsFile.parse(CardsFileEdit.block(for: entry), path: file)
            } catch let error as ConfigError {
                StandardError.print("\(error.reason)")
                throw ExitCode(1)
            }
            try edit(file) { text throws(CardsFileEdit.Failure) in try CardsFileEdit.link(entry, in: text, path: file) }
            print("card \(id): \(entry.description)")
            if case .library(let path) = target, let music, access(music + "/" + path, F_OK) != 0 {
                StandardError.print("note: \(music)/\(path) is not there (yet); the card is refused until it is")
            }
        }
    }

    struct Forget: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take a card out of the cards file.")
        @OptionGroup var place: Where

        @Argument(help: "The card's number.")
        var card: String

        func validate() throws {
            guard CardID(card) != nil else { throw ValidationError("\(card) is not a card number: 1 to 32 letters and digits") }
        }

        func run() throws {
            let file = try place.resolve().file
            let id = CardID(card)!
            try edit(file) { text throws(CardsFileEdit.Failure) in try CardsFileEdit.forget(id, in: text, path: file) }
            print("card \(id) forgotten")
        }
    }

    static func edit(_ file: String, _ change: (String) throws(CardsFileEdit.Failure) -> String) throws {
        do {
            try CardsFileEdit.edit(path: file, change)
        } catch {
            StandardError.print("\(error)")
            throw ExitCode(1)
        }
    }
}

private func edit(_ file: String, _ change: (String) throws(CardsFileEdit.Failure) -> String) throws {
    try CardsCommand.edit(file, change)
}
