/// MPD's storage and neighbor commands, answered as an MPD built without remote storage
/// or neighbor plugins answers them: the music folder is the one mount, at the root, and
/// nothing else can be mounted (the box plays what is on its own disk, and URLs).
extension ControlSession {
    static let storageCommands: [MPDCommand] = [
        .init("listmounts", .read, 0...0) { s, _ in
            "mount: \nstorage: \(MPDProtocol.value(String(s.library.root.dropLast())))\n"
        },
        // Answered, and left out of `commands`, as MPD 0.24 leaves them out where nothing can
        // be mounted (a database without a cache folder).
        .init("mount", .change, 2...2, listed: false) { _, _ in throw MPDProtocol.Ack(code: .argument, message: "Unrecognized storage URI") },
        .init("unmount", .change, 1...1, listed: false) { _, request in
            throw MPDProtocol.Ack(code: .argument, message: request.arguments[0].isEmpty ? "Bad mount point" : "Not a mount point")
        },
        // MPD without neighbor plugins answers it but leaves it out of `commands`.
        .init("listneighbors", .read, 0...0, listed: false) { _, _ in throw MPDProtocol.Ack(code: .unknown, message: "No neighbor plugin configured") },
    ]
}
