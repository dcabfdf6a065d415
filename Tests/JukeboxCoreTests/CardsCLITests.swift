import Foundation
import Testing
@testable import JukeboxCore

/// `jukebox cards`: what a parent types and reads, compared exactly.
@Suite struct CardsCLITests {
    let fx = Fixtures.shared

    private func jukebox(_ args: [String]) throws -> Tools.Output { try Tools.run(Tools.jukebox, ["cards"] + args, check: false) }

    @Test func linkListAndForgetEditTheFileKeepingComments() throws {
        let folder = try fx.scratchFolder("cards-cli")
        let file = "\(folder)/cards.toml"
        try "# Our cards\n\n# The stop card\n[card.5]\ndo = \"stop\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        let linked = try jukebox(["link", "--file", file, "0a1b", "Audiobooks/Dinosaurs", "--resume", "--name", "Dinosaurs"])
        #expect(linked.status == 0 && linked.text == "card 0A1B: plays Audiobooks/Dinosaurs (resumes)\n", "\(linked.stderr)")
        let radio = try jukebox(["link", "--file", file, "77", "https://radio.example/live"])
        #expect(radio.status == 0)
        let list = try jukebox(["list", "--file", file])
        #expect(list.text == """
            5     -          stop
            0A1B  Dinosaurs  plays Audiobooks/Dinosaurs (resumes)
            77    -          plays https://radio.example/live

            """)
        #expect(try jukebox(["forget", "--file", file, "5"]).text == "card 5 forgotten\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == """
            # Our cards

            [card.0A1B]
            name = "Dinosaurs"
            play = "Audiobooks/Dinosaurs"
            resume = true

            [card.77]
            play = "https://radio.example/live"

            """)
    }

    @Test func mistakesAreSaidAndExitOne() throws {
        let folder = try fx.scratchFolder("cards-cli-errors")
        let file = "\(folder)/cards.toml"
        try "[card.5]\nplya = \"x\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        let broken = try jukebox(["link", "--file", file, "6", "Songs"])
        #expect(broken.status == 1)
        #expect(broken.stderr.hasPrefix("\(file):2:1: unknown key \"plya\" in [card.5]; did you mean \"play\"?"))
        #expect(broken.stderr.hasSuffix("; fix the file first\n"))
        try "".write(toFile: file, atomically: true, encoding: .utf8)
        let absolute = try jukebox(["link", "--file", file, "6", "/etc"])
        #expect(absolute.status == 1)
        #expect(absolute.stderr == "play is \"/etc\"; name a folder or file inside the music folder, relative to it (such as \"Audiobooks/Dinosaurs\")\n")
        let missing = try jukebox(["forget", "--file", file, "6"])
        #expect(missing.status == 1 && missing.stderr == "card 6 is not in the cards file\n")
        let number = try jukebox(["link", "--file", file, "a b", "Songs"])
        #expect(number.status == 64)
        #expect(number.stderr.hasPrefix("Error: a b is not a card number: 1 to 32 letters and digits\n"))
    }

    @Test func helpSaysWhatEachDoes() throws {
        let help = try jukebox(["--help"])
        #expect(help.text.contains("""
            SUBCOMMANDS:
              list (default)          Each card: its number, its name and what it does.
              link                    Link a card to a folder or file under the music
                                      folder, a URL, or (--playlist) a stored playlist.
              forget                  Take a card out of the cards file.
            """))
    }
}
