/// One client's side of MPD's client-to-client messages: the channels it listens on and
/// the messages it has not read yet. Both are bounded as MPD bounds them (16 channels, 64
/// unread messages), so a client that subscribes and never reads holds at most 64 lines
/// of at most `ControlSession.maximumLineLength` bytes: a message to a full mailbox is
/// not delivered there.
struct Mailbox: Equatable {
    struct Message: Equatable {
        let channel: String
        let text: String
    }

    /// Why a subscription was refused, with MPD's ACK for each.
    enum Refusal: Error, Equatable {
        case badName, already, full, notSubscribed

        var ack: MPDProtocol.Ack {
            switch self {
            case .badName: MPDProtocol.Ack(code: .argument, message: "invalid channel name")
            case .already: MPDProtocol.Ack(code: .exist, message: "already subscribed to this channel")
            case .full: MPDProtocol.Ack(code: .exist, message: "subscription list is full")
            case .notSubscribed: MPDProtocol.Ack(code: .noExist, message: "not subscribed to this channel")
            }
        }
    }

    /// What a delivery did: `first` when the mailbox was empty before (MPD wakes an idle
    /// client for the first unread message only).
    enum Delivery: Equatable {
        case refused
        case delivered(first: Bool)
    }

    static let maximumSubscriptions = 16
    static let maximumUnread = 64

    private(set) var channels: Set<String> = []
    private(set) var unread: [Message] = []

    /// MPD's channel names: one or more ASCII letters, digits, `_`, `-`, `.` and `:`.
    static func isValidChannel(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"):
                true
            default:
                false
            }
        }
    }

    /// As MPD checks: the name, then room for one more, then whether it is new.
    mutating func subscribe(_ channel: String) throws(Refusal) {
        guard Self.isValidChannel(channel) else { throw .badName }
        guard channels.count < Self.maximumSubscriptions else { throw .full }
        guard channels.insert(channel).inserted else { throw .already }
    }

    mutating func unsubscribe(_ channel: String) throws(Refusal) {
        guard channels.remove(channel) != nil else { throw .notSubscribed }
    }

    /// Keeps `message` if this mailbox listens on its channel and has room for it.
    mutating func deliver(_ message: Message) -> Delivery {
        guard unread.count < Self.maximumUnread, channels.contains(message.channel) else { return .refused }
        unread.append(message)
        return .delivered(first: unread.count == 1)
    }

    /// The unread messages, oldest first; the mailbox is then empty.
    mutating func takeUnread() -> [Message] {
        defer { unread = [] }
        return unread
    }
}

/// Every connected client's session, for `sendmessage` and `channels`: the control
/// thread's alone, as the sessions are. A session joins when it is made and leaves when
/// its connection closes, so a client's subscriptions end with it (as in MPD, without a
/// `subscription` event). Held weakly: a session dropped without leaving is passed over.
public final class MessageBoard {
    private struct Member {
        weak var session: ControlSession?
    }

    private var members: [ObjectIdentifier: Member] = [:]

    public init() {}

    func join(_ session: ControlSession) { members[ObjectIdentifier(session)] = Member(session: session) }

    func leave(_ session: ControlSession) { members[ObjectIdentifier(session)] = nil }

    var sessions: [ControlSession] { members.values.compactMap(\.session) }

    /// `channels`: every channel someone listens on, once each, sorted by bytes as MPD sorts them.
    var channels: [String] {
        var all = Set<String>()
        for session in sessions { all.formUnion(session.mailbox.channels) }
        return all.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
