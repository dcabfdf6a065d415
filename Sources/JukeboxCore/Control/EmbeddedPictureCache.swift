/// The last picture `readpicture` took out of an audio file, shared by every client: a
/// client fetches a picture in many chunks, and reading the tags again for each would
/// cost the whole picture per chunk. One picture (at most `TagLimits.maximumPictureBytes`)
/// is the whole cost, however many clients fetch however many pictures.
final class EmbeddedPictureCache: Sendable {
    struct Picture: Sendable {
        var bytes: [UInt8]
        var type: String?
    }

    private struct Entry {
        var path: String
        var identity: FileIdentity
        var picture: Picture?
    }

    static let shared = EmbeddedPictureCache()

    private let entry = ConditionLocked<Entry?>(nil)

    /// The cover embedded in the file at `path` (nil: none). The file is read outside the
    /// lock; a file changed since it was cached is read again.
    func picture(of path: String) throws -> Picture? {
        let identity = FileIdentity(track: path)
        if let identity, let cached = entry.withLock({ $0.wholeValue }), cached.path == path, cached.identity == identity {
            return cached.picture
        }
        let cover = try AudioFile.metadata(path).cover
        let picture = cover.flatMap { $0.data.isEmpty ? nil : Picture(bytes: $0.data, type: $0.mimeType.isEmpty ? nil : $0.mimeType) }
        if let identity { entry.withLock { $0.wholeValue = Entry(path: path, identity: identity, picture: picture) } }
        return picture
    }
}
