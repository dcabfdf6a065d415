/// Every command the server answers, found by name with one hashed lookup per line, and
/// the `commands` and `notcommands` replies made from them once.
struct CommandTable: Sendable {
    /// As declared, area by area.
    let all: [MPDCommand]
    private let byName: [String: MPDCommand]
    /// The listed commands in the order MPD lists its own: by their names' bytes.
    let listed: [MPDCommand]
    /// `commands` for a client that may change things or only read, with and without a
    /// sticker database.
    private let commandsForAll: (stickers: String, none: String), commandsForReaders: (stickers: String, none: String)
    private let notCommandsForReaders: String

    init(_ commands: [MPDCommand]) {
        all = commands
        // A name declared twice keeps its first entry; the table's test says so loudly.
        byName = Dictionary(commands.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        listed = commands.filter(\.listed).sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        func lines(_ commands: [MPDCommand]) -> String { commands.map { "command: \($0.name)\n" }.joined() }
        let withoutStickers = listed.filter { !$0.needsStickers }
        commandsForAll = (lines(listed), lines(withoutStickers))
        commandsForReaders = (lines(listed.filter { $0.permission == .read }), lines(withoutStickers.filter { $0.permission == .read }))
        // As MPD's: what the permission forbids, whether there is a sticker database or not,
        // and whether `commands` lists it or not (`mount`).
        notCommandsForReaders = lines(commands.filter { $0.permission == .change }.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) })
    }

    subscript(name: String) -> MPDCommand? { byName[name] }

    /// `commands`: the listed commands a client may run (`mayChange`: all of them), the
    /// sticker commands only with a sticker database.
    func commands(mayChange: Bool, stickers: Bool) -> String {
        let choice = mayChange ? commandsForAll : commandsForReaders
        return stickers ? choice.stickers : choice.none
    }

    /// `notcommands`: the listed commands a client may not run until it sends the password.
    func notCommands(mayChange: Bool) -> String { mayChange ? "" : notCommandsForReaders }
}
