/// MPD's storage and neighbor commands, answered as an MPD built without remote storage
/// or neighbor plugins answers them: the music folder is the one mount, at the root, and
/// nothing else can be mounted (the box plays what is on its own disk, and URLs).
extension ControlSession {
    static let storageCommands: [MPDCommand] = [
        .init("listmounts", .read, 0...0) { s, _ in
            "mount: \nstorage: \(MPDProtocol.value(String(s.library.root.dropLast())))\n"
        },
        .init("mount", .change, 2...2) { _, _ in throw MPDProtocol.Ack(code: .argument, message: "Unrecognized storage URI") },
        .init("unmount", .change, 1...1) { _, request in
            throw MPDProtocol.Ack(code: .argument, message: request.arguments[0].isEmpty ? "Bad mount point" : "Not a mount point")
        },
        // MPD without neighbor plugins answers it but leaves it out of `commands`.
        .init("listneighbors", .read, 0...0, listed: false) { _, _ in throw MPDProtocol.Ack(code: .unknown, message: "No neighbor plugin configured") },
    ]
}
