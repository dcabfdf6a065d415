/// Links and forgets cards by editing the cards file's text: a new card's block goes at
/// the end, a card linked again has its block's lines replaced, a forgotten card's block
/// (with the comments right above it) is taken out. Everything else, comments and order
/// included, stays as written. The result is read back before it is written, so an edit
/// never leaves a file the box refuses.
public enum CardsFileEdit {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file as it is cannot be read (the edit would hide the mistake).
        case unreadable(ConfigError)
        case notListed(CardID)
        /// The card is written in a form this cannot edit (dotted keys outside a table).
        case notEditable(CardID)
        case unwritable(String)

        public var description: String {
            switch self {
            case .unreadable(let error): "\(error); fix the file first"
            case .notListed(let card): "card \(card) is not in the cards file"
            case .notEditable(let card): "card \(card) is not written as a [card.\(card)] table; edit it by hand"
            case .unwritable(let reason): reason
            }
        }
    }

    /// The text of `entry` as a block, in the file's words.
    public static func block(for entry: CardEntry) -> String {
        var lines = ["[card.\(entry.id.text)]"]
        if let name = entry.name { lines.append("name = \(TOMLTextEncoder.string(name))") }
        switch entry.does {
        case .play(let music):
            switch music.target {
            case .library(let path): lines.append("play = \(TOMLTextEncoder.string(path))")
            case .url(let url): lines.append("play = \(TOMLTextEncoder.string(url))")
            case .playlist(let name): lines.append("playlist = \(TOMLTextEncoder.string(name))")
            }
            if music.resume { lines.append("resume = true") }
            if let shuffle = music.shuffle { lines.append("shuffle = \(shuffle)") }
            if let again = music.repeat { lines.append("repeat = \(again)") }
            if let cap = music.maxVolume { lines.append("max_volume = \(cap)") }
            if let speed = music.speed { lines.append("speed = \(PlaybackSpeed.text(speed))") }
        case .act(let action):
            switch action {
            case .button(let name, _): lines.append("do = \(TOMLTextEncoder.string(name))")
            case .shutdown: lines.append("do = \"shutdown\"")
            case .volume(let level): lines.append("volume = \(level)")
            case .sleep(let request):
                if case .minutes = request { lines.append("sleep = \(request)") } else { lines.append("sleep = \(TOMLTextEncoder.string(request.description))") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with `entry` linked: its block replaced where the card is listed, else
    /// appended at the end.
    public static func link(_ entry: CardEntry, in text: String, path: String) throws(Failure) -> String {
        let current = try check(text, path: path)
        let layout = CardsFileText(text)
        let new = block(for: entry)
        let result: String
        if let block = layout.blocks.first(where: { $0.key == entry.id.text }) {
            result = joined(layout.lines[..<block.header]) + new + joined(layout.lines[block.end...], last: true)
        } else {
            guard current[entry.id] == nil else { throw .notEditable(entry.id) }
            var head = text
            if !head.isEmpty, !head.hasSuffix("\n") { head += "\n" }
            if !head.isEmpty, !head.hasSuffix("\n\n") { head += "\n" }
            result = head + new
        }
        _ = try check(result, path: path)
        return result
    }

    /// `text` without `card`'s block and the comments right above it.
    public static func forget(_ card: CardID, in text: String, path: String) throws(Failure) -> String {
        let current = try check(text, path: path)
        guard current[card] != nil else { throw .notListed(card) }
        let layout = CardsFileText(text)
        guard let block = layout.blocks.first(where: { $0.key == card.text }) else { throw .notEditable(card) }
        // The blank line that set it apart goes too, so forgetting leaves no growing gap.
        var end = block.end
        while end < layout.lines.count, layout.lines[end].allSatisfy({ $0 == " " || $0 == "\t" }), end < layout.lines.count - 1 { end += 1 }
        let result = joined(layout.lines[..<block.start]) + joined(layout.lines[end...], last: true)
        _ = try check(result, path: path)
        return result
    }

    /// Links or forgets in the file itself, written whole or not at all (temporary file,
    /// flush, rename). The running box reads the new file when its watcher sees it.
    public static func edit(path: String, _ change: (String) throws(Failure) -> String) throws(Failure) {
        let text: String
        do {
            text = try CardsFile.read(path: path) ?? ""
        } catch let error as ConfigError {
            throw .unreadable(error)
        } catch {
            throw .unwritable("\(path): \(error)")
        }
        let result = try change(text)
        do {
            try AtomicFile.replace(path, with: Array(result.utf8))
        } catch {
            throw .unwritable("\(error.path): cannot \(error.step) it: \(error.errno)")
        }
    }

    private static func check(_ text: String, path: String) throws(Failure) -> CardsFile {
        do {
            return try CardsFile.parse(text, path: path)
        } catch let error as ConfigError {
            throw .unreadable(error)
        } catch {
            throw .unwritable("\(error)")
        }
    }

    /// Lines joined with newlines; a slice that ends the file keeps its own ending.
    private static func joined(_ lines: ArraySlice<Substring>, last: Bool = false) -> String {
        guard !lines.isEmpty else { return "" }
        if last { return lines.joined(separator: "\n") }
        return lines.map { $0 + "\n" }.joined()
    }
}
