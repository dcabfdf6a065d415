import Testing
@testable import JukeboxCore

private func card(_ text: String) -> CardID { CardID(text)! }
private let ms: UInt64 = 1_000_000

/// Sightings into placements: one placement while a card lies there, a lift at once, gone
/// only after the grace period, per reader.
@Suite struct CardPresenceTests {
    @Test func aCardSeenOverAndOverIsOnePlacement() {
        var p = CardPresence(graceMilliseconds: 1000)
        #expect(p.report(.present(card("AB")), at: 0) == [.placed(card("AB"))])
        for t in 1...50 { #expect(p.report(.present(card("AB")), at: UInt64(t) * 100 * ms) == []) }
        #expect(p.deadline == nil)
    }

    @Test func aFlickerWithinTheGraceIsAReturn() {
        var p = CardPresence(graceMilliseconds: 1000)
        _ = p.report(.present(card("AB")), at: 0)
        #expect(p.report(.absent, at: 100 * ms) == [.lifted(card("AB"))])
        #expect(p.deadline == 1100 * ms)
        #expect(p.report(.absent, at: 200 * ms) == [])
        #expect(p.report(.present(card("AB")), at: 900 * ms) == [.returned(card("AB"))])
        #expect(p.deadline == nil)
        #expect(p.advance(to: 5000 * ms) == [])
    }

    @Test func liftedPastTheGraceIsGoneAndBackIsANewPlacement() {
        var p = CardPresence(graceMilliseconds: 1000)
        _ = p.report(.present(card("AB")), at: 0)
        _ = p.report(.absent, at: 100 * ms)
        #expect(p.advance(to: 1099 * ms) == [])
        #expect(p.advance(to: 1100 * ms) == [.gone(card("AB"))])
        #expect(p.card == nil)
        #expect(p.report(.present(card("AB")), at: 3000 * ms) == [.placed(card("AB"))])
    }

    @Test func aSightingAfterTheDeadlineEndsTheGraceFirst() {
        var p = CardPresence(graceMilliseconds: 1000)
        _ = p.report(.present(card("AB")), at: 0)
        _ = p.report(.absent, at: 0)
        #expect(p.report(.present(card("AB")), at: 2000 * ms) == [.gone(card("AB")), .placed(card("AB"))])
    }

    @Test func anotherCardIsAPlacement() {
        var p = CardPresence(graceMilliseconds: 1000)
        _ = p.report(.present(card("AB")), at: 0)
        #expect(p.report(.present(card("CD")), at: 10 * ms) == [.placed(card("CD"))])
        _ = p.report(.absent, at: 20 * ms)
        #expect(p.report(.present(card("AB")), at: 30 * ms) == [.placed(card("AB"))])
    }

    @Test func aReaderThatOnlyReadsRetypesWithinTheGrace() {
        var p = CardPresence(graceMilliseconds: 1000)
        #expect(p.report(.read(card("12")), at: 0) == [.placed(card("12"))])
        #expect(p.report(.read(card("12")), at: 500 * ms) == [])
        // Re-typed while it lies there: each read extends the placement.
        #expect(p.report(.read(card("12")), at: 1400 * ms) == [])
        #expect(p.report(.read(card("12")), at: 2500 * ms) == [.placed(card("12"))])
        #expect(p.report(.read(card("34")), at: 2600 * ms) == [.placed(card("34"))])
        #expect(p.deadline == nil)
    }

    @Test func twoReadersAreApart() {
        var a = CardPresence(graceMilliseconds: 1000), b = CardPresence(graceMilliseconds: 1000)
        #expect(a.report(.present(card("AB")), at: 0) == [.placed(card("AB"))])
        #expect(b.report(.present(card("AB")), at: 0) == [.placed(card("AB"))])
        #expect(b.report(.absent, at: 10 * ms) == [.lifted(card("AB"))])
        #expect(a.report(.present(card("AB")), at: 20 * ms) == [])
    }
}

/// What card events ask of the box, in each mode.
@Suite struct CardRulesTests {
    let book = card("B00C"), songs = card("50C5"), volume = card("F0"), stranger = card("FFFF")

    @Test func placeModeLiftPausesBackResumesAnotherSwitches() {
        var r = CardRules(mode: .place)
        #expect(r.decide(.placed(book), kind: .music, presence: true) == .start(book))
        #expect(r.decide(.lifted(book), kind: .music, presence: true) == .pause(book))
        #expect(r.decide(.returned(book), kind: .music, presence: true) == .resume(book))
        #expect(r.decide(.lifted(book), kind: .music, presence: true) == .pause(book))
        #expect(r.decide(.gone(book), kind: .music, presence: true) == nil)
        // Back after the grace: the queue is still the book's, so it plays on.
        #expect(r.decide(.placed(book), kind: .music, presence: true) == .resume(book))
        #expect(r.decide(.placed(songs), kind: .music, presence: true) == .start(songs))
        #expect(r.playing == songs)
    }

    @Test func swipeModeAgainPausesOrRestarts() {
        var r = CardRules(mode: .swipe, again: .pause)
        #expect(r.decide(.placed(book), kind: .music, presence: true) == .start(book))
        #expect(r.decide(.lifted(book), kind: .music, presence: true) == nil)
        #expect(r.decide(.returned(book), kind: .music, presence: true) == nil)
        #expect(r.decide(.placed(book), kind: .music, presence: true) == .toggle(book))
        r.again = .restart
        #expect(r.decide(.placed(book), kind: .music, presence: true) == .restart(book))
    }

    @Test func aReaderThatOnlyReadsAlwaysSwipes() {
        var r = CardRules(mode: .place)
        #expect(r.decide(.placed(book), kind: .music, presence: false) == .start(book))
        #expect(r.decide(.placed(book), kind: .music, presence: false) == .toggle(book))
    }

    @Test func actionCardsLeaveTheMusicsCard() {
        var r = CardRules(mode: .place)
        _ = r.decide(.placed(book), kind: .music, presence: true)
        #expect(r.decide(.placed(volume), kind: .action, presence: true) == .act(volume))
        #expect(r.decide(.lifted(volume), kind: .action, presence: true) == nil)
        #expect(r.playing == book)
    }

    @Test func unknownCardsAreOfferedForLinking() {
        var r = CardRules()
        #expect(r.decide(.placed(stranger), kind: .unknown, presence: true) == .unknown(stranger))
        #expect(r.decide(.lifted(stranger), kind: .unknown, presence: true) == nil)
        #expect(r.decide(.gone(stranger), kind: .unknown, presence: true) == .forgetUnknown(stranger))
    }

    @Test func aQueueTakenOverStartsTheCardAgain() {
        var r = CardRules(mode: .place)
        _ = r.decide(.placed(book), kind: .music, presence: true)
        r.queueTakenOver()
        #expect(r.decide(.returned(book), kind: .music, presence: true) == nil)
        #expect(r.decide(.placed(book), kind: .music, presence: true) == .start(book))
    }
}

/// The cards file: read and checked with lines, and edited as text.
@Suite struct CardsFileTests {
    static let text = """
        # Lena's dinosaur book
        [card.0a1b2c3d4e]
        name = "Dinosaurs"            # on the screen
        play = "Audiobooks/Dinosaurs"
        resume = true
        max_volume = 60
        speed = 0.9

        # Turns it up
        [card.12345678]
        do = "volume-up"

        [card.55]
        sleep = "end-of-track"
        [card.56]
        volume = 40
        [card.57]
        playlist = "Bedtime"
        shuffle = true
        [card.58]
        play = "https://radio.example/live"

        """

    @Test func cardsAreReadInTheFilesOrder() throws {
        let file = try CardsFile.parse(Self.text, path: "cards.toml")
        #expect(file.entries.map(\.id.text) == ["0A1B2C3D4E", "12345678", "55", "56", "57", "58"])
        let book = try #require(file[card("0A1B2C3D4E")])
        #expect(book.name == "Dinosaurs" && book.line == 2)
        #expect(book.does == .play(CardMusic(target: .library("Audiobooks/Dinosaurs"), resume: true, maxVolume: 60, speed: 0.9)))
        #expect(file[card("12345678")]?.does == .act(.button(name: "volume-up", command: .player(.volumeStep(1)))))
        #expect(file[card("55")]?.does == .act(.sleep(.endOfTrack)))
        #expect(file[card("56")]?.does == .act(.volume(40)))
        #expect(file[card("57")]?.does == .play(CardMusic(target: .playlist("Bedtime"), shuffle: true)))
        #expect(file[card("58")]?.does == .play(CardMusic(target: .url("https://radio.example/live"))))
        #expect(book.description == "plays Audiobooks/Dinosaurs (resumes, volume at most 60, speed 0.9)")
    }

    @Test func mistakesAreNamedWithTheirLine() {
        func failure(_ text: String) -> String {
            do { _ = try CardsFile.parse(text, path: "cards.toml"); return "no error" } catch { return "\(error)" }
        }
        #expect(failure("[card.12]\nplya = \"x\"\n").hasPrefix("cards.toml:2:1: unknown key \"plya\" in [card.12]; did you mean \"play\"?"))
        #expect(failure("[card.12]\nname = \"x\"\n") .hasPrefix("cards.toml:1:1: card 12 does nothing"))
        #expect(failure("[card.12]\nplay = \"a\"\n  do = \"stop\"\n") == "cards.toml:3:3: card 12 has both play and do; a card does one thing")
        #expect(failure("[card.12]\ndo = \"volume-upp\"\n").hasPrefix("cards.toml:2:1: do is \"volume-upp\", which is no action; did you mean \"volume-up\"?"))
        #expect(failure("[card.12]\nplay = \"/etc\"\n").hasPrefix("cards.toml:2:1: play is \"/etc\"; name a folder or file inside the music folder"))
        #expect(failure("[card.12]\nplay = \"a\"\nmax_volume = 101\n") == "cards.toml:3:1: max_volume is 101; it must be from 0 to 100")
        #expect(failure("[card.12]\nsleep = 0\n").hasPrefix("cards.toml:2:1: sleep must be minutes from 1 to 720"))
        #expect(failure("[card.12]\ndo = \"stop\"\nresume = true\n").hasPrefix("cards.toml:3:1: resume is for a card that plays music"))
        #expect(failure("[card.a-b]\ndo = \"stop\"\n").hasPrefix("cards.toml:1:1: \"a-b\" is not a card number"))
        #expect(failure("[card.ab]\ndo = \"stop\"\n[card.AB]\ndo = \"stop\"\n").contains("is listed twice"))
        #expect(failure("volume = 3\n").hasPrefix("cards.toml:1:1: unknown key \"volume\" at the top level"))
        #expect(failure("[card.12\n").hasPrefix("cards.toml:1:"))
    }

    @Test func aHugeFileIsRefusedNotRead() throws {
        let path = try Fixtures.shared.write("huge-cards.toml", [UInt8](repeating: UInt8(ascii: "#"), count: CardsFile.sizeLimit + 1))
        #expect(throws: ConfigError.self) { try CardsFile.load(path: path) }
        #expect(try CardsFile.load(path: path + ".missing").entries.isEmpty)
    }

    @Test func linkingAppendsAndKeepsCommentsAndOrder() throws {
        let entry = CardEntry(id: card("ABC"), name: "Songs \"best\"", does: .play(CardMusic(target: .library("Songs"), resume: true)))
        let linked = try CardsFileEdit.link(entry, in: Self.text, path: "cards.toml")
        #expect(linked == Self.text + "\n[card.ABC]\nname = \"Songs \\\"best\\\"\"\nplay = \"Songs\"\nresume = true\n")
        #expect(try CardsFile.parse(linked, path: "cards.toml")[card("ABC")]?.name == "Songs \"best\"")
        // Into an empty file, and one without a final newline.
        #expect(try CardsFileEdit.link(entry, in: "", path: "c") == CardsFileEdit.block(for: entry))
        #expect(try CardsFileEdit.link(entry, in: "# mine", path: "c") == "# mine\n\n" + CardsFileEdit.block(for: entry))
    }

    @Test func linkingAgainReplacesOnlyThatBlock() throws {
        let entry = CardEntry(id: card("12345678"), does: .act(.volume(20)))
        let linked = try CardsFileEdit.link(entry, in: Self.text, path: "cards.toml")
        let expected = Self.text.replacingFirst("[card.12345678]\ndo = \"volume-up\"\n", with: "[card.12345678]\nvolume = 20\n")
        #expect(linked == expected)
    }

    @Test func forgettingTakesTheBlockAndItsCommentOut() throws {
        let forgotten = try CardsFileEdit.forget(card("12345678"), in: Self.text, path: "cards.toml")
        #expect(forgotten == Self.text.replacingFirst("# Turns it up\n[card.12345678]\ndo = \"volume-up\"\n\n", with: ""))
        let first = try CardsFileEdit.forget(card("0A1B2C3D4E"), in: Self.text, path: "cards.toml")
        #expect(first.hasPrefix("# Turns it up\n[card.12345678]"))
        #expect(throws: CardsFileEdit.Failure.notListed(card("99"))) { try CardsFileEdit.forget(card("99"), in: Self.text, path: "cards.toml") }
    }

    @Test func aBrokenFileIsNotEdited() {
        #expect(throws: CardsFileEdit.Failure.self) {
            try CardsFileEdit.link(CardEntry(id: card("1"), does: .act(.volume(1))), in: "[card.2]\nplya = 1\n", path: "c")
        }
    }

    @Test func placesAreBoundedAndTheLiveOneWins() {
        var places = CardPlaces()
        for i in 0..<(CardPlaces.limit + 5) { places.set(.init(card: "\(i)", path: "/m/\(i)", frame: Int64(i))) }
        #expect(places.saved().count == CardPlaces.limit)
        #expect(places[card("0")] == nil && places[card("5")] != nil)
        let live = CardPlaces.Place(card: "5", path: "/m/x", frame: 9)
        #expect(places.saved(with: live).last == live)
    }
}

private extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}

/// What the link-card button links an unknown card to.
@Suite struct CardLinkTests {
    let stranger = CardID("FFFF")!

    private func link(_ path: String, playlist: String? = nil, remembered: [String] = []) -> Result<CardEntry, CardLink.Refusal> {
        CardLink.entry(stranger, playing: path, playlist: playlist, title: "Radio One", musicDirectory: "/srv/music", rememberedFolders: remembered)
    }

    @Test func thePlayingTracksFolderABookResumes() {
        #expect(link("/srv/music/Songs/Best/3.flac") == .success(CardEntry(id: stranger, name: "Best", does: .play(CardMusic(target: .library("Songs/Best"))))))
        #expect(link("/srv/music/Audiobooks/Dinosaurs/2.mp3", remembered: ["/srv/music/Audiobooks"])
            == .success(CardEntry(id: stranger, name: "Dinosaurs", does: .play(CardMusic(target: .library("Audiobooks/Dinosaurs"), resume: true)))))
        #expect(link("/srv/music/top.flac") == .success(CardEntry(id: stranger, name: "top.flac", does: .play(CardMusic(target: .library("top.flac"))))))
    }

    @Test func aURLOrAPlaylistAsItIs() {
        #expect(link("http://radio.example/live") == .success(CardEntry(id: stranger, name: "Radio One", does: .play(CardMusic(target: .url("http://radio.example/live"))))))
        #expect(link("/srv/music/a/1.flac", playlist: "Bedtime") == .success(CardEntry(id: stranger, name: "Bedtime", does: .play(CardMusic(target: .playlist("Bedtime"))))))
    }

    @Test func outsideTheMusicFolderIsRefused() {
        #expect(link("/home/x/1.flac") == .failure(CardLink.Refusal(reason: "/home/x/1.flac is not in the music folder /srv/music")))
    }
}
