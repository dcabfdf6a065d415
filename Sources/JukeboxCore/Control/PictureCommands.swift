/// MPD's `albumart` (the picture file in a song's folder) and `readpicture` (the picture
/// embedded in the file), sent in binary chunks of at most `binarylimit` bytes from an
/// offset, as MPD does. Only songs of the library can be named, so no other file is read.
extension ControlSession {
    static let pictureCommands = ["albumart", "binarylimit", "readpicture"]

    /// A picture a client is fetching chunk by chunk: read once, not once per chunk.
    struct PictureHold {
        var key: String
        var bytes: [UInt8]
        var type: String?
    }

    /// The reply to `albumart` or `readpicture` (binary), or nil for any other command.
    func pictureReply(_ request: MPDProtocol.Request) throws -> [UInt8]? {
        let (name, arguments) = (request.name, request.arguments)
        guard name == "albumart" || name == "readpicture" else { return nil }
        guard arguments.count == 2 else { throw MPDProtocol.Ack(code: .argument, message: "wrong number of arguments for \"\(name)\"") }
        guard let offset = Int(arguments[1]), offset >= 0 else { throw MPDProtocol.Ack(code: .argument, message: "Integer expected: \(arguments[1].prefix(64))") }
        guard let path = library.path(for: arguments[0]), catalog.snapshot.positions[path] != nil else {
            throw MPDProtocol.Ack(code: .noExist, message: "No such song")
        }
        let picture = try name == "albumart" ? folderPicture(of: path) : embeddedPicture(of: path)
        guard let picture else {
            // MPD: no embedded picture is an empty answer; no picture file is an error.
            if name == "readpicture" { return Array("OK\n".utf8) }
            throw MPDProtocol.Ack(code: .noExist, message: "No file exists")
        }
        guard offset <= picture.bytes.count else { throw MPDProtocol.Ack(code: .argument, message: "Offset too large") }
        let chunk = picture.bytes[offset..<min(picture.bytes.count, offset + binaryLimit)]
        // Held only while a client is part way through: a hundred clients must not each keep one.
        if chunk.endIndex == picture.bytes.count { heldPicture = nil }
        var head = "size: \(picture.bytes.count)\n"
        if let type = picture.type { head += "type: \(MPDProtocol.value(type))\n" }
        head += "binary: \(chunk.count)\n"
        return Array(head.utf8) + chunk + Array("\nOK\n".utf8)
    }

    private func folderPicture(of path: String) throws -> PictureHold? {
        guard let file = TrackArt.folderPicture(in: AtomicFile.folder(of: path)) else { return nil }
        if let held = heldPicture, held.key == "file:" + file { return held }
        let bytes: [UInt8]
        do {
            bytes = try FileReader.contents(of: file, limit: TagLimits.maximumPictureBytes)
        } catch {
            throw MPDProtocol.Ack(code: .system, message: "\(library.uri(file)): \(error)")
        }
        heldPicture = PictureHold(key: "file:" + file, bytes: bytes, type: nil)
        return heldPicture
    }

    private func embeddedPicture(of path: String) throws -> PictureHold? {
        if let held = heldPicture, held.key == "embedded:" + path { return held }
        let metadata: TrackMetadata
        do {
            metadata = try AudioFile.metadata(path)
        } catch {
            throw MPDProtocol.Ack(code: .system, message: "\(library.uri(path)): \(error)")
        }
        guard let cover = metadata.cover, !cover.data.isEmpty else { return nil }
        heldPicture = PictureHold(key: "embedded:" + path, bytes: cover.data, type: cover.mimeType.isEmpty ? nil : cover.mimeType)
        return heldPicture
    }
}
