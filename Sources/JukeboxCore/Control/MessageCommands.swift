/// MPD's client-to-client messages: a client subscribes to channels by name, others send
/// to a channel, and each subscriber reads its messages when it likes (`idle message`
/// says when there are some). Every client may listen and read; sending needs the
/// "control" permission, as in MPD.
extension ControlSession {
    static let messageCommands: [MPDCommand] = [
        .init("subscribe", .read, 1...1) { s, request in
            try s.changeSubscriptions { (mailbox: inout Mailbox) throws(Mailbox.Refusal) in try mailbox.subscribe(request.arguments[0]) }
            return ""
        },
        .init("unsubscribe", .read, 1...1) { s, request in
            try s.changeSubscriptions { (mailbox: inout Mailbox) throws(Mailbox.Refusal) in try mailbox.unsubscribe(request.arguments[0]) }
            return ""
        },
        .init("channels", .read, 0...0) { s, _ in .text(s.board.channels.map { "channel: \($0)\n" }.joined()) },
        .init("readmessages", .read, 0...0) { s, _ in
            .text(s.mailbox.takeUnread().map { "channel: \($0.channel)\nmessage: \(MPDProtocol.value($0.text))\n" }.joined())
        },
        .init("sendmessage", .change, 2...2) { s, request in
            let message = Mailbox.Message(channel: request.arguments[0], text: request.arguments[1])
            guard Mailbox.isValidChannel(message.channel) else { throw Mailbox.Refusal.badName.ack }
            var sent = false
            for session in s.board.sessions {
                guard case .delivered(let first) = session.mailbox.deliver(message) else { continue }
                sent = true
                // The first unread message wakes a client waiting in idle (the sender's own
                // mailbox too: its next idle answers at once).
                if first, let answer = session.changed(.message) { session.wake(answer) }
            }
            guard sent else { throw MPDProtocol.Ack(code: .noExist, message: "nobody is subscribed to this channel") }
            return ""
        },
    ]

    /// A subscription made or ended: every idle client is told (`subscription`), this one too.
    private func changeSubscriptions(_ change: (inout Mailbox) throws(Mailbox.Refusal) -> Void) throws(MPDProtocol.Ack) {
        do {
            try change(&mailbox)
        } catch {
            throw error.ack
        }
        announce([.subscription])
    }
}
