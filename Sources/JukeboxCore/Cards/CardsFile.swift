import TOMLKit

/// The cards file (`cards.toml` beside the config): which card does what. Read whole and
/// checked as the config is: a mistake is refused with `file:line:column: reason`, and the
/// box keeps the last good version. Each card is a table:
///
///     # Lena's dinosaur book
///     [card.0A1B2C3D4E]
///     name = "Dinosaurs"
///     play = "Audiobooks/Dinosaurs"
///     resume = true
public struct CardsFile: Sendable, Equatable {
    /// The cards in the order the file lists them.
    public let entries: [CardEntry]
    private let byID: [CardID: Int]

    /// Larger than any cards file a family writes (10,000 cards take about 1.5 MB), small
    /// enough that reading a wrong file (a music file named by mistake) costs little memory.
    public static let sizeLimit = 4 << 20

    public init(entries: [CardEntry] = []) {
        self.entries = entries
        var byID: [CardID: Int] = [:]
        for (i, entry) in entries.enumerated() { byID[entry.id] = i }
        self.byID = byID
    }

    public subscript(id: CardID) -> CardEntry? { byID[id].map { entries[$0] } }

    /// Reads `path`; a file that is not there is an empty cards file.
    public static func load(path: String, skipSeconds: Double = 10) throws -> CardsFile {
        guard let text = try read(path: path) else { return CardsFile() }
        return try parse(text, path: path, skipSeconds: skipSeconds)
    }

    /// The file's text, nil when it is not there.
    static func read(path: String) throws -> String? {
        let bytes: [UInt8]?
        do {
            bytes = try AtomicFile.contents(of: path, limit: sizeLimit)
        } catch {
            throw ConfigError(path: path, line: 0, column: 0, reason: error.reason)
        }
        guard let bytes else { return nil }
        return try ConfigText.decode(bytes, path: path)
    }

    /// `skipSeconds`: what `do = "skip-forward"` skips (the config's `skip_seconds`).
    public static func parse(_ text: String, path: String, skipSeconds: Double = 10) throws -> CardsFile {
        try ConfigText.refuseNUL(text, path: path)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(path: path, line: error.source.begin.line, column: error.source.begin.column, reason: error.description)
        }
        let layout = CardsFileText(text)
        let reader = CardEntryReader(path: path, layout: layout, skipSeconds: skipSeconds)
        for key in table.keys where key != "card" {
            throw ConfigError(path: path, line: 1, column: 1,
                              reason: "unknown key \"\(key)\" at the top level; each card is a [card.NUMBER] table")
        }
        guard let value = table["card"] else { return CardsFile() }
        guard let cards = value.table else {
            throw ConfigError(path: path, line: 1, column: 1, reason: "card must be tables, one [card.NUMBER] per card")
        }
        var headerLines: [String: Int] = [:]
        for block in layout.blocks { headerLines[block.key] = block.header + 1 }
        var entries: [CardEntry] = []
        entries.reserveCapacity(cards.count)
        var seen: [CardID: String] = [:]
        for key in cards.keys {
            let upper = key.uppercased()
            guard let id = CardID(key) else {
                throw reader.error(upper, nil, "\"\(key)\" is not a card number: 1 to 32 letters and digits, as `jukebox cards` or the screen shows it")
            }
            if let other = seen[id] {
                throw reader.error(upper, nil, "card \(id) is listed twice (as \(other) and \(key))")
            }
            seen[id] = key
            guard let card = cards[key]?.table else { throw reader.error(upper, nil, "card.\(key) must be a [card.\(key)] table") }
            var entry = try reader.entry(id, card)
            entry.line = headerLines[upper] ?? 0
            entries.append(entry)
        }
        // In the file's order, for `jukebox cards list` (the parser's own order is not it).
        entries.sort { $0.line < $1.line }
        return CardsFile(entries: entries)
    }
}

/// Checks one card's keys, as `ConfigLoader.Reader` does the config's.
struct CardEntryReader {
    let path: String
    let layout: CardsFileText
    let skipSeconds: Double

    static let keys: Set<String> = ["name", "play", "playlist", "resume", "shuffle", "repeat", "max_volume", "speed", "do", "volume", "sleep"]
    static let musicKeys: Set<String> = ["resume", "shuffle", "repeat", "max_volume", "speed"]
    static let kinds = ["play", "playlist", "do", "volume", "sleep"]

    func entry(_ id: CardID, _ t: TOMLTable) throws -> CardEntry {
        let card = id.text
        for key in t.keys.sorted() where !Self.keys.contains(key) {
            let suggestion = ConfigLoader.Reader.closest(key, in: Self.keys).map { "; did you mean \"\($0)\"?" } ?? ""
            throw error(card, key, "unknown key \"\(key)\" in [card.\(card)]\(suggestion) (known: \(Self.keys.sorted().joined(separator: ", ")))")
        }
        let given = Self.kinds.filter { t[$0] != nil }
        guard given.count == 1 else {
            if given.isEmpty { throw error(card, nil, "card \(card) does nothing: give it play = \"a folder\", playlist = \"a name\", do = \"an action\", volume = N or sleep = MINUTES") }
            throw error(card, given[1], "card \(card) has both \(given[0]) and \(given[1]); a card does one thing")
        }
        let name = try string(t, card, "name")
        if name?.isEmpty == true { throw error(card, "name", "name is empty; leave it out to show the card's number") }
        let kind = given[0]
        if kind == "play" || kind == "playlist" {
            return CardEntry(id: id, name: name, does: .play(try music(t, card, kind)))
        }
        for key in Self.musicKeys where t[key] != nil {
            throw error(card, key, "\(key) is for a card that plays music (play = or playlist =), not one with \(kind) =")
        }
        return CardEntry(id: id, name: name, does: .act(try action(t, card, kind)))
    }

    private func music(_ t: TOMLTable, _ card: String, _ kind: String) throws -> CardMusic {
        let text = try string(t, card, kind) ?? ""
        guard !text.isEmpty, !text.contains(where: { $0 == "\n" || $0 == "\r" }) else {
            throw error(card, kind, "\(kind) must name one \(kind == "play" ? "folder, file or URL" : "playlist")")
        }
        let target: CardMusic.Target
        if kind == "playlist" {
            target = .playlist(text)
        } else if case .url(let url) = TrackLocation(text) {
            guard NetworkPlayback.isQueueable(url) else { throw error(card, kind, "\(url) is not a URL the box can play") }
            target = .url(url)
        } else {
            guard !text.hasPrefix("/"), !text.split(separator: "/").contains("..") else {
                throw error(card, kind, "play is \"\(text)\"; name a folder or file inside the music folder, relative to it (such as \"Audiobooks/Dinosaurs\")")
            }
            target = .library(text.hasSuffix("/") ? String(text.dropLast()) : text)
        }
        var music = CardMusic(target: target)
        music.resume = try bool(t, card, "resume") ?? false
        music.shuffle = try bool(t, card, "shuffle")
        music.repeat = try bool(t, card, "repeat")
        music.maxVolume = try int(t, card, "max_volume", 0...100)
        if let v = t["speed"] {
            guard let speed = v.double ?? v.int.map(Double.init) else { throw error(card, "speed", "speed must be a number") }
            guard PlaybackSpeed.range.contains(speed) else {
                throw error(card, "speed", "speed is \(speed); it must be from \(PlaybackSpeed.range.lowerBound) to \(PlaybackSpeed.range.upperBound)")
            }
            music.speed = PlaybackSpeed.clamped(speed)
        }
        return music
    }

    private func action(_ t: TOMLTable, _ card: String, _ kind: String) throws -> CardAction {
        switch kind {
        case "volume":
            return .volume(try int(t, card, "volume", 0...100) ?? 0)
        case "sleep":
            let value = t["sleep"]
            let text = value?.string ?? value?.int.map(String.init) ?? value?.double.map { "\($0)" } ?? ""
            guard let request = SleepRequest(text) else {
                throw error(card, "sleep", "sleep must be minutes from 1 to 720, \"end-of-track\", \"end-of-chapter\" or \"off\"")
            }
            return .sleep(request)
        default:
            let name = try string(t, card, "do") ?? ""
            if name == "shutdown" { return .shutdown }
            guard let command = ButtonAction.command(named: name, skipSeconds: skipSeconds) else {
                let names = ButtonAction.names.map(\.name) + ["shutdown"]
                let suggestion = ConfigLoader.Reader.closest(name, in: Set(names)).map { "; did you mean \"\($0)\"?" } ?? ""
                throw error(card, "do", "do is \"\(name)\", which is no action\(suggestion) (known: \(names.joined(separator: ", ")))")
            }
            return .button(name: name, command: command)
        }
    }

    private func string(_ t: TOMLTable, _ card: String, _ key: String) throws -> String? {
        guard let v = t[key] else { return nil }
        guard let text = v.string else { throw error(card, key, "\(key) must be a string in quotes") }
        return text
    }

    private func bool(_ t: TOMLTable, _ card: String, _ key: String) throws -> Bool? {
        guard let v = t[key] else { return nil }
        guard let b = v.bool else { throw error(card, key, "\(key) must be true or false") }
        return b
    }

    private func int(_ t: TOMLTable, _ card: String, _ key: String, _ range: ClosedRange<Int>) throws -> Int? {
        guard let v = t[key] else { return nil }
        guard let n = v.int else { throw error(card, key, "\(key) must be a whole number") }
        guard range.contains(n) else { throw error(card, key, "\(key) is \(n); it must be from \(range.lowerBound) to \(range.upperBound)") }
        return n
    }

    func error(_ card: String, _ key: String?, _ reason: String) -> ConfigError {
        let (line, column) = layout.position(card: card, key: key)
        return ConfigError(path: path, line: line, column: column, reason: reason)
    }
}
