/// One MPD command, declared once by its area (`ControlSession.queueCommands`, ...): its
/// name, who may run it, how many arguments it takes and what answers it. The session
/// checks the permission and the argument count from here before the handler runs.
/// A class: a line's look-up then hands over one reference, not a copy of every field.
final class MPDCommand: Sendable {
    /// Who may run it, MPD's permissions as this box has them: `read` for every client;
    /// `change` (MPD's "control", "add" and "admin") once the client sent the password.
    enum Permission: Sendable {
        case read, change
    }

    /// Answers with text or a stream, alone or in a command list.
    typealias Handler = @Sendable (ControlSession, MPDProtocol.Request) throws -> Reply

    enum Run: Sendable {
        case reply(Handler)
        /// Answers in binary (a picture chunk): outside command lists only, as clients send it.
        case binary(@Sendable (ControlSession, MPDProtocol.Request) throws -> [UInt8])
        /// Changes the connection itself: `ControlSession.handle` takes it outside command
        /// lists only, and only with an argument count in range; anywhere else it is
        /// answered as an unknown command.
        case connection(ConnectionStep)
    }

    enum ConnectionStep: Sendable {
        case idle, noidle, close, listBegin, listOKBegin
        /// `command_list_end` ends a list where the list is read; outside one it ends nothing.
        case listEnd
    }

    let name: String
    let permission: Permission
    /// The argument counts taken; one that reads its own (a filter, a sub-command) takes
    /// from its minimum up (`1...`), and checks the rest itself.
    let arguments: ClosedRange<Int>
    /// Answered but left out of `commands`: an alias, or an MPD command refused with a reason.
    let listed: Bool
    /// Listed in `commands` only when there is a sticker database, as MPD lists `sticker`
    /// only with a `sticker_file` (the handler refuses it otherwise, as MPD does).
    let needsStickers: Bool
    let run: Run

    convenience init(_ name: String, _ permission: Permission, _ arguments: some ArgumentCount, listed: Bool = true,
                     needsStickers: Bool = false, _ handler: @escaping Handler) {
        self.init(name, permission, arguments, listed: listed, needsStickers: needsStickers, run: .reply(handler))
    }

    convenience init(_ name: String, _ permission: Permission, _ arguments: some ArgumentCount,
                     binary: @escaping @Sendable (ControlSession, MPDProtocol.Request) throws -> [UInt8]) {
        self.init(name, permission, arguments, run: .binary(binary))
    }

    /// MPD lists `idle` and `close` in `commands`, but not `noidle` or the command-list
    /// words, which are read before any command is looked up.
    convenience init(_ name: String, _ permission: Permission, _ arguments: some ArgumentCount, connection: ConnectionStep) {
        let listed = switch connection {
        case .idle, .close: true
        case .noidle, .listBegin, .listOKBegin, .listEnd: false
        }
        self.init(name, permission, arguments, listed: listed, run: .connection(connection))
    }

    private init(_ name: String, _ permission: Permission, _ arguments: some ArgumentCount, listed: Bool = true, needsStickers: Bool = false,
                 run: Run) {
        self.name = name
        self.permission = permission
        self.arguments = arguments.counts
        self.listed = listed
        self.needsStickers = needsStickers
        self.run = run
    }

    /// MPD's ACK when `count` arguments are outside the range; nil when they are in it.
    func refusal(arguments count: Int) -> MPDProtocol.Ack? {
        guard !arguments.contains(count) else { return nil }
        // As MPD words it: "wrong number" where only one count is taken, else too few or too many.
        let what = arguments.lowerBound == arguments.upperBound ? "wrong number of" : count < arguments.lowerBound ? "too few" : "too many"
        return MPDProtocol.Ack(code: .argument, message: "\(what) arguments for \"\(name)\"")
    }

    /// MPD's ACK for a client without the permission.
    var denied: MPDProtocol.Ack {
        MPDProtocol.Ack(code: .permission, message: "you don't have permission for \"\(name)\"")
    }
}

/// How an `MPDCommand` writes the argument counts it takes: `0...1`, or `1...` for no maximum.
protocol ArgumentCount {
    var counts: ClosedRange<Int> { get }
}

extension ClosedRange<Int>: ArgumentCount {
    var counts: ClosedRange<Int> { self }
}

extension PartialRangeFrom<Int>: ArgumentCount {
    var counts: ClosedRange<Int> { lowerBound...Int.max }
}
