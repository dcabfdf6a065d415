/// The box's own card commands, for a virtual reader named `socket`: `card UID` is a card
/// put on it (as a presence reader's `.present`), `cardremoved` lifts it (one word, as
/// MPD's command names are). Left out of `commands`, and read commands for the table that
/// ask for the permission inside (as `sleep` does), so neither `commands` nor
/// `notcommands` differs from MPD's (`jukebox ctl card 0A1B2C3D4E`).
extension ControlSession {
    static let cardCommands: [MPDCommand] = [
        .init("card", .read, 1...1, listed: false) { s, request in
            guard s.mayChange else { throw MPDProtocol.Ack(code: .permission, message: "you don't have permission for \"card\"") }
            guard let card = CardID(request.arguments[0]) else {
                throw MPDProtocol.Ack(code: .argument, message: "Not a card number (1 to 32 letters and digits): \(request.arguments[0].prefix(40))")
            }
            s.cardReported(.present(card))
            return ""
        },
        .init("cardremoved", .read, 0...0, listed: false) { s, _ in
            guard s.mayChange else { throw MPDProtocol.Ack(code: .permission, message: "you don't have permission for \"cardremoved\"") }
            s.cardReported(.absent)
            return ""
        },
    ]
}
