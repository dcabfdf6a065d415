#if canImport(Glibc)
import Glibc
#endif

/// What one walk saw in one folder, kept in the library index so the next walk can skip
/// a folder whose modification time has not changed: no listing and no file opened.
struct FolderRecord: Sendable, Equatable {
    var id: FileID
    /// Nanoseconds since the epoch: changes whenever a name is added, removed or renamed.
    var modified: Int64
    var entries: [FolderEntry]
}

struct FolderEntry: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case folder
        /// Followed afresh on every walk: its target may have changed without this folder.
        case link
        case file(FileID, FileIdentity, FileOutcome)
    }

    var name: String
    var kind: Kind
}

/// What reading a file gave, reused while its size and modification time stay the same.
enum FileOutcome: Sendable, Equatable {
    case track(SongTags)
    /// A file with chapters: a track each (`file/chapter001`...).
    case chapters([SongTags])
    case playlist
    /// Not audio, and not named as audio (a cover, lyrics, a text file).
    case passedOver
    /// Should have been audio and is not: the reason, ready to log.
    case problem(String)
}

extension FileIdentity {
    init(_ st: stat) {
        self.init(size: Int64(st.st_size), modified: Int64(st.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(st.st_mtim.tv_nsec))
    }

    /// Of the folder at `path`, links followed; nil when there is no folder there.
    init?(folder path: String) {
        var st = stat()
        guard (try? systemCall({ FilePath.withCString(path) { stat($0, &st) } })) != nil, st.st_mode & S_IFMT == S_IFDIR else { return nil }
        self.init(st)
    }
}
