/// The box's own card commands, for a virtual reader named `socket`: `card UID` is a card
/// put on it (as a presence reader's `.present`), `card-removed` lifts it. Left out of
/// `commands`, so the box still lists what MPD lists (`jukebox ctl card 0A1B2C3D4E`).
extension ControlSession {
    static let cardCommands: [MPDCommand] = [
        .init("card", .change, 1...1, listed: false) { s, request in
            guard let card = CardID(request.arguments[0]) else {
                throw MPDProtocol.Ack(code: .argument, message: "Not a card number (1 to 32 letters and digits): \(request.arguments[0].prefix(40))")
            }
            s.cardReported(.present(card))
            return ""
        },
        .init("card-removed", .change, 0...0, listed: false) { s, _ in
            s.cardReported(.absent)
            return ""
        },
    ]
}
