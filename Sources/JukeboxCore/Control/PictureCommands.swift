/// MPD's `albumart` (the picture file in a song's folder) and `readpicture` (the picture
/// embedded in the file), sent in binary chunks of at most `binarylimit` bytes from an
/// offset, as MPD does. Only songs of the library can be named, so no other file is read.
///
/// No client keeps a picture between its chunks: `albumart` reads just the chunk asked
/// for from the file, and `readpicture` takes it from `EmbeddedPictureCache`, one picture
/// shared by every client. A crowd fetching big covers costs one picture, not one each.
extension ControlSession {
    static let pictureCommands: [MPDCommand] = [
        .init("albumart", .read, 2...2, binary: { s, request in try s.picture(request, embedded: false) }),
        .init("readpicture", .read, 2...2, binary: { s, request in try s.picture(request, embedded: true) }),
        .init("binarylimit", .read, 1...1) { s, request in
            let limit = try ControlSession.integer(request.arguments[0], request.name)
            guard limit >= 64 else { throw MPDProtocol.Ack(code: .argument, message: "Value too small") }
            s.binaryLimit = min(limit, ControlServer.Limits().maximumCommandListBytes)
            return ""
        },
    ]

    /// The chunk of the song's picture file (or `embedded` picture) the request asks for,
    /// with MPD's head and `OK`.
    private func picture(_ request: MPDProtocol.Request, embedded: Bool) throws -> [UInt8] {
        let arguments = request.arguments
        guard let offset = Int(arguments[1]), offset >= 0 else { throw MPDProtocol.Ack(code: .argument, message: "Integer expected: \(arguments[1].prefix(64))") }
        guard let path = library.path(for: arguments[0]), catalog.snapshot.positions[path] != nil else {
            // As MPD words it: albumart looks for a file, readpicture for a song.
            throw MPDProtocol.Ack(code: .noExist, message: embedded ? "No such song" : "No file exists")
        }
        let found = try embedded ? embeddedPicture(of: path, offset: offset) : folderPicture(of: path, offset: offset)
        guard let (size, type, chunk) = found else {
            // MPD: no embedded picture is an empty answer; no picture file is an error.
            if embedded { return Array("OK\n".utf8) }
            throw MPDProtocol.Ack(code: .noExist, message: "No file exists")
        }
        var head = "size: \(size)\n"
        if let type { head += "type: \(MPDProtocol.value(type))\n" }
        head += "binary: \(chunk.count)\n"
        return Array(head.utf8) + chunk + Array("\nOK\n".utf8)
    }

    /// The picture file's size and the chunk at `offset`, read from the file for this
    /// request alone.
    private func folderPicture(of path: String, offset: Int) throws -> (Int, String?, [UInt8])? {
        guard let file = TrackArt.folderPicture(in: AtomicFile.folder(of: ChapterEntry.file(holding: path))) else { return nil }
        do {
            let reader = try FileReader(path: file)
            guard offset <= reader.size else { throw MPDProtocol.Ack(code: .argument, message: "Offset too large") }
            return (Int(reader.size), nil, try reader.read(at: Int64(offset), count: binaryLimit))
        } catch let ack as MPDProtocol.Ack {
            throw ack
        } catch {
            throw MPDProtocol.Ack(code: .system, message: "\(library.uri(file)): \(error)")
        }
    }

    private func embeddedPicture(of path: String, offset: Int) throws -> (Int, String?, [UInt8])? {
        let picture: EmbeddedPictureCache.Picture?
        do {
            picture = try EmbeddedPictureCache.shared.picture(of: path)
        } catch {
            throw MPDProtocol.Ack(code: .system, message: "\(library.uri(path)): \(error)")
        }
        guard let picture else { return nil }
        guard offset <= picture.bytes.count else { throw MPDProtocol.Ack(code: .argument, message: "Offset too large") }
        return (picture.bytes.count, picture.type, Array(picture.bytes[offset..<min(picture.bytes.count, offset + binaryLimit)]))
    }
}
