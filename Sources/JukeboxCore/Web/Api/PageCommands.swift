import Dispatch

/// The page speaks MPD's protocol, one command per request, through the same command
/// table, filters and catalog as the control socket (`ControlSession`): what the page
/// can search for, add or change is what an MPD client can, with the same words.
///
/// Only the commands in `allowed` pass (no `config`, no `kill`, no stickers or file
/// reads by URI). Two sessions answer: one that may only read, and one that may change,
/// used for a request with the right (`WebAccess`). They run one command at a time on a
/// queue of their own, off the server's event loop.
final class PageCommands: @unchecked Sendable {
    /// The commands the page may send, and nothing else.
    static let allowed: Set<String> = [
        // Reads.
        "status", "currentsong", "lsinfo", "list", "find", "search", "count", "playlistinfo", "listplaylists", "sleep", "speed",
        // Changes (the session refuses them without the right).
        "play", "playid", "pause", "stop", "next", "previous", "seekcur", "setvol", "volume", "repeat", "random", "single", "consume",
        "add", "addid", "clear", "delete", "deleteid", "moveid", "findadd", "searchadd", "load", "update",
    ]
    /// The page's own: the key lock, which MPD has no word for.
    static let keyLock = "keylock"
    /// A longer reply is refused rather than held: a search should be narrowed or windowed.
    static let largestReply = 4 << 20

    enum Answer: Equatable {
        case pairs([(String, String)])
        case refused(String)

        static func == (a: Answer, b: Answer) -> Bool {
            switch (a, b) {
            case (.refused(let x), .refused(let y)): x == y
            case (.pairs(let x), .pairs(let y)): x.elementsEqual(y) { $0 == $1 }
            default: false
            }
        }
    }

    /// Used on `queue` only (and by a test, alone).
    private var reader: ControlSession
    private var changer: ControlSession
    private let queue = DispatchQueue(label: "jukebox.page.commands")
    /// Makes both sessions for the folders of a scope.
    private let makeSessions: @Sendable (ControlServer.Scope) -> (reader: ControlSession, changer: ControlSession)
    /// Sets the key lock; says whether it is locked now.
    private let setKeyLock: @Sendable (Bool) -> Void

    init(player: Player, scope: ControlServer.Scope, catalog: LibraryCatalog, outputs: OutputSwitches, sleepTimer: SleepTimerService?,
         setKeyLock: @escaping @Sendable (Bool) -> Void) {
        makeSessions = { scope in
            let board = MessageBoard()
            // Never local (no `config`); the reader's password is one no one can send.
            let reader = ControlSession(player: player, scope: scope, catalog: catalog, outputs: outputs, local: false,
                                        password: WebSessions.token(), board: board)
            let changer = ControlSession(player: player, scope: scope, catalog: catalog, outputs: outputs, local: false, password: "",
                                         board: board)
            reader.sleepTimer = sleepTimer
            changer.sleepTimer = sleepTimer
            return (reader, changer)
        }
        (reader, changer) = makeSessions(scope)
        self.setKeyLock = setKeyLock
    }

    /// A reload moved the music or playlists folder: the commands after this one see it.
    func follow(_ scope: ControlServer.Scope) {
        queue.async { [self] in (reader, changer) = makeSessions(scope) }
    }

    /// Runs `line` with or without the right to change, off the caller's thread.
    func run(_ line: String, mayChange: Bool) async -> Answer {
        await withCheckedContinuation { done in
            queue.async { [self] in done.resume(returning: runNow(line, mayChange: mayChange)) }
        }
    }

    func runNow(_ line: String, mayChange: Bool) -> Answer {
        guard !line.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) else { return .refused("one command, on one line") }
        let name = ControlSession.commandName(line)
        if name == Self.keyLock { return keyLock(line, mayChange: mayChange) }
        guard Self.allowed.contains(name) else { return .refused("the page cannot send \"\(name.prefix(40))\"") }
        let session = mayChange ? changer : reader
        switch session.handle(line: line) {
        case .reply(let text), .replyAndClose(let text):
            guard text.utf8.count <= Self.largestReply else { return .refused("the answer is too long; narrow the search") }
            return Self.parse(text)
        case .replyBytes, .stream, .close, .none:
            return .refused("the page cannot send \"\(name.prefix(40))\"")
        }
    }

    private func keyLock(_ line: String, mayChange: Bool) -> Answer {
        let words = line.split(separator: " ")
        guard words.count == 2, words[1] == "0" || words[1] == "1" else { return .refused("keylock takes 0 or 1") }
        guard mayChange else { return .refused("you don't have permission for \"keylock\"") }
        setKeyLock(words[1] == "1")
        return .pairs([])
    }

    /// MPD's reply as pairs; an ACK as its message.
    static func parse(_ text: String) -> Answer {
        var pairs: [(String, String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line == "OK" || line == "list_OK" { continue }
            if line.hasPrefix("ACK ") {
                // "ACK [code@index] {command} message"
                let message = line.firstIndex(of: "}").map { line[line.index(after: $0)...].drop { $0 == " " } } ?? line.dropFirst(4)
                return .refused(String(message))
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            pairs.append((String(line[..<colon]), String(value)))
        }
        return .pairs(pairs)
    }
}
