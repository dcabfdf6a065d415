/// The box's own `sleep` command (MPD has none): `sleep 30` (minutes, down to 0.1),
/// `sleep end-of-track`, `sleep end-of-chapter`, `sleep off`, and `sleep` alone answering
/// what is set and the seconds left. Left out of `commands`, and a read command for the
/// table (setting asks for the permission inside), so neither `commands` nor
/// `notcommands` differs from MPD's.
extension ControlSession {
    static let sleepCommands: [MPDCommand] = [
        .init("sleep", .read, 0...1, listed: false) { s, request in
            guard let timer = s.sleepTimer else { throw MPDProtocol.Ack(code: .system, message: "no sleep timer in this box") }
            guard let word = request.arguments.first else {
                let (set, left) = timer.state()
                var reply = "sleep: \(set.map(\.description) ?? "off")\n"
                if let left { reply += "left: \(Int(left.rounded(.up)))\n" }
                return "\(reply)"
            }
            guard s.mayChange else { throw MPDProtocol.Ack(code: .permission, message: "you don't have permission for \"sleep\"") }
            guard let wanted = SleepRequest(word) else {
                throw MPDProtocol.Ack(code: .argument, message: "sleep takes minutes (0.1 to 720), end-of-track, end-of-chapter or off, not \"\(word)\"")
            }
            timer.request(wanted, from: "the socket")
            return ""
        },
    ]
}
