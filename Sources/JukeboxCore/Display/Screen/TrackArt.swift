#if canImport(Glibc)
import Glibc
#endif

/// What the screen shows beside the tags: a track's lyrics and cover, looked up on the
/// screen's thread (it reads files; the player never waits for it).
public enum TrackArt {
    /// The lyrics for `path`, found as `LyricsLocator` orders them, within the budget a
    /// track change may take; problems are returned for the log.
    public static func lyrics(for path: String, metadata: TrackMetadata?, problems: inout [String]) -> Lyrics? {
        LyricsLocator.lyrics(forAudioAt: path, metadata: metadata ?? TrackMetadata(), problems: &problems,
                             deadline: LyricsDeadline(budgetMs: LyricsDeadline.daemonBudgetMs))
    }

    /// Cover pictures in a track's folder, by preference (compared without case:
    /// `Folder.jpg` from a Windows ripper counts).
    static let folderNames = ["cover.jpg", "cover.jpeg", "cover.png", "folder.jpg", "folder.jpeg", "folder.png", "front.jpg", "front.png"]
    static let largestFile = TagLimits.maximumPictureBytes

    /// Where the cover would come from and its cache key, without decoding it: the
    /// embedded picture (its key is a hash of its bytes, so every track of an album
    /// carrying the same picture shares one), else a picture file in the folder.
    public static func coverSource(for path: String, metadata: TrackMetadata?) -> (key: String, bytes: () throws -> [UInt8])? {
        if let picture = metadata?.cover, !picture.data.isEmpty {
            let data = picture.data
            return ("embedded:\(String(FNV1a.hash(data), radix: 16))", { data })
        }
        let folder = AtomicFile.folder(of: ChapterEntry.file(holding: path))
        guard let file = folderPicture(in: folder) else { return nil }
        var st = stat()
        let stamp = FilePath.withCString(file) { stat($0, &st) } == 0 ? "\(st.st_size):\(st.st_mtim.tv_sec)" : ""
        return ("\(file):\(stamp)", { try FileReader.contents(of: file, limit: largestFile) })
    }

    /// The track's cover, decoded as the `side`-pixel square the panel draws; nil if it
    /// has none. A corrupt or huge picture is reported in `problems` and skipped.
    public static func cover(for path: String, metadata: TrackMetadata?, side: Int, problems: inout [String]) -> Cover? {
        guard let source = coverSource(for: path, metadata: metadata) else { return nil }
        return decode(source, limits: CoverLimits(side: side), problems: &problems)
    }

    static func decode(_ source: (key: String, bytes: () throws -> [UInt8]), limits: CoverLimits, problems: inout [String]) -> Cover? {
        let place = source.key.hasPrefix("embedded:") ? "embedded picture" : String(source.key.prefix { $0 != ":" })
        do {
            let bytes = try source.bytes()
            if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
                return Cover(key: source.key, image: try JPEGCodec.cover(bytes, limits: limits))
            }
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
                return Cover(key: source.key, image: try PNGCodec.cover(bytes, limits: limits))
            }
            problems.append("cover: \(place): not a JPEG or PNG picture; skipped")
        } catch {
            problems.append("cover: \(place): \(error); skipped")
        }
        return nil
    }

    /// The cover picture file in `folder`, by `folderNames`' preference.
    static func folderPicture(in folder: String) -> String? {
        guard let dir = FilePath.withCString(folder, { opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var best: (rank: Int, name: String)?
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.count <= 12, let rank = folderNames.firstIndex(of: name.lowercased()) else { continue }
            if best.map({ rank < $0.rank }) ?? true { best = (rank, name) }
        }
        return best.map { "\(folder)/\($0.name)" }
    }
}
