#if canImport(Glibc)
import Glibc
#endif

/// One walk of a folder tree for `LibraryScanner`, safe against what a library can hold:
///
/// - Symbolic links are followed (as MPD does), but only after the real tree has been
///   walked, so a file reachable both ways keeps its real path.
/// - Each folder is entered once and each file is listed once, by device and inode: a link
///   to a file or folder already in the library adds nothing, and a link back to a folder
///   above it (`loop -> .`) is reported once and not followed. So the walk ends, and its
///   memory is bounded by the size of the tree, whatever links it holds.
/// - Nesting deeper than `maximumDepth` is reported and not walked.
/// - Names that are not UTF-8 are kept byte for byte (`FilePath`); names holding a newline
///   are skipped, as MPD's database does, since no protocol reply could carry them.
/// - A folder whose modification time matches the last walk's record (`previous`) is not
///   listed again, and its files are not opened: what the record says they were stands.
///   In a folder that changed, only files whose size or time changed are read.
struct LibraryWalk {
    static let maximumDepth = 32

    private(set) var result = LibraryScan()
    /// Set for a playlists folder outside the music: its audio files are not tracks.
    var playlistsOnly = false
    /// Called after each folder with the tracks found so far.
    private let afterFolder: ([LibraryTrack]) -> Void
    private var enteredFolders: Set<FileID> = []
    private var listedFiles: Set<FileID> = []
    /// Links met so far, followed once the real tree is done.
    private var links: [PendingLink] = []
    private var linksFollowed = 0
    /// The last walk's folders, by path, and this walk's, for the next.
    private let previous: [String: FolderRecord]
    private(set) var folders: [String: FolderRecord] = [:]
    /// Folders taken from `previous` unlisted, and folders listed.
    private(set) var foldersReused = 0
    private(set) var foldersListed = 0

    /// The last walk's tracks, found by path: a track found again as it was is taken from
    /// there, so the two lists share their paths and tags instead of holding two copies.
    private let previousTracks: [LibraryTrack]
    private let previousPaths: PathIndex
    /// Tracks taken from `previousTracks` unchanged.
    private(set) var tracksKept = 0

    init(previous: [String: FolderRecord] = [:], previousTracks: [LibraryTrack] = [], afterFolder: @escaping ([LibraryTrack]) -> Void) {
        self.previous = previous
        self.previousTracks = previousTracks
        previousPaths = PathIndex(previousTracks)
        self.afterFolder = afterFolder
        // Sized once for a library like the last: a set growing by doubling holds its old
        // and new tables at once (some 6 MB for 100,000 files).
        result.tracks.reserveCapacity(previousTracks.count)
        listedFiles.reserveCapacity(previousTracks.count)
    }

    /// Walks `root` and what it links to. A root already walked (the playlists folder is
    /// the music folder, or inside it) adds nothing.
    mutating func run(from root: String) {
        var st = stat()
        do {
            try systemCall { FilePath.withCString(root) { stat($0, &st) } }
        } catch {
            problem(root, "cannot open folder: \(error)")
            return
        }
        let id = FileID(st)
        guard enteredFolders.insert(id).inserted else { return }
        walk(root, id: id, modified: FileIdentity(st).modified, ancestors: [], depth: 0)
        while linksFollowed < links.count {  // grows while linked folders are walked
            let link = links[linksFollowed]
            linksFollowed += 1
            follow(link)
        }
    }

    private mutating func walk(_ folder: String, id: FileID, modified: Int64, ancestors: [FileID], depth: Int) {
        let entries: [FolderEntry]
        if let known = previous[folder], known.id == id, known.modified == modified {
            entries = known.entries
            foldersReused += 1
        } else {
            do {
                entries = try list(folder, known: previous[folder])
            } catch {
                problem(folder, "cannot open folder: \(error)")
                return
            }
            foldersListed += 1
        }
        folders[folder] = FolderRecord(id: id, modified: modified, entries: entries)
        result.folderTimes[folder] = Int(modified / 1_000_000_000)
        let lineage = ancestors + [id]
        var subfolders: [(path: String, id: FileID, modified: Int64)] = []
        for entry in entries {
            let path = folder + "/" + entry.name
            switch entry.kind {
            case .link:
                links.append(PendingLink(path: path, name: entry.name, ancestors: lineage, depth: depth + 1))
            case .folder:
                var st = stat()
                guard (try? systemCall { FilePath.withCString(path) { lstat($0, &st) } }) != nil,
                      st.st_mode & S_IFMT == S_IFDIR else { continue }  // gone since
                if enteredFolders.insert(FileID(st)).inserted { subfolders.append((path, FileID(st), FileIdentity(st).modified)) }
            case .file(let id, _, let outcome):
                add(path, id: id, outcome: outcome)
            }
        }
        afterFolder(result.tracks)
        for sub in subfolders { enter(sub.path, id: sub.id, modified: sub.modified, ancestors: lineage, depth: depth + 1) }
    }

    /// Lists a folder that changed since `known` (or is new): each name's kind, and for
    /// each file what reading it gives (from `known` when the file itself is unchanged).
    private mutating func list(_ folder: String, known: FolderRecord?) throws(Errno) -> [FolderEntry] {
        var knownFiles: [String: (FileID, FileIdentity, FileOutcome)] = [:]
        for entry in known?.entries ?? [] {
            if case .file(let id, let identity, let outcome) = entry.kind { knownFiles[entry.name] = (id, identity, outcome) }
        }
        let names = try FolderNames.list(folder)
        var entries: [FolderEntry] = []
        entries.reserveCapacity(names.count)  // kept with the index: no room to spare
        for name in names {
            let path = folder + "/" + name
            if name.contains("\n" as Character) {
                problem(path, "the name holds a newline, which no client could be sent; rename it to play it")
                continue
            }
            var st = stat()
            guard (try? systemCall { FilePath.withCString(path) { lstat($0, &st) } }) != nil else { continue }  // gone since
            switch st.st_mode & S_IFMT {
            case S_IFLNK:
                entries.append(FolderEntry(name: name, kind: .link))
            case S_IFDIR:
                entries.append(FolderEntry(name: name, kind: .folder))
            case S_IFREG:
                let id = FileID(st), identity = FileIdentity(st)
                let outcome: FileOutcome
                if let (knownID, knownIdentity, knownOutcome) = knownFiles[name], knownID == id, knownIdentity == identity {
                    outcome = knownOutcome
                } else {
                    outcome = firstSeen(read(path, name: name, modified: identity), at: path, known: knownFiles[name]?.2)
                }
                entries.append(FolderEntry(name: name, kind: .file(id, identity, outcome)))
            default:
                continue
            }
        }
        return entries
    }

    private mutating func enter(_ folder: String, id: FileID, modified: Int64, ancestors: [FileID], depth: Int) {
        guard depth < Self.maximumDepth else {
            problem(folder, "folders nested more than \(Self.maximumDepth) deep; not scanned")
            return
        }
        walk(folder, id: id, modified: modified, ancestors: ancestors, depth: depth)
    }

    private mutating func follow(_ link: PendingLink) {
        var st = stat()
        do {
            try systemCall { FilePath.withCString(link.path) { stat($0, &st) } }
        } catch {
            problem(link.path, "symbolic link to nothing (\(error))")
            return
        }
        let id = FileID(st)
        switch st.st_mode & S_IFMT {
        case S_IFDIR:
            if link.ancestors.contains(id) {
                problem(link.path, "symbolic link loops back to a folder above it; not followed")
            } else if enteredFolders.insert(id).inserted {
                enter(link.path, id: id, modified: FileIdentity(st).modified, ancestors: link.ancestors, depth: link.depth)
            }
        case S_IFREG:
            guard !listedFiles.contains(id) else { return }
            add(link.path, id: id, outcome: firstSeen(read(link.path, name: link.name, modified: FileIdentity(st)), at: link.path, known: nil))
        default:
            return
        }
    }

    /// A regular file, once, by what reading it gave.
    private mutating func add(_ path: String, id: FileID, outcome: FileOutcome) {
        guard listedFiles.insert(id).inserted else { return }  // already in, by another path
        switch outcome {
        case .playlist:
            result.playlists.append(LibraryPlaylist(path: path))  // read when it is used
        case .track(let tags):
            guard !playlistsOnly else { break }
            keep(LibraryTrack(path: path, tags: tags))
        case .chapters(let chapters):
            guard !playlistsOnly else { break }
            for (i, tags) in chapters.enumerated() { keep(LibraryTrack(path: ChapterEntry(file: path, index: i).entry, tags: tags)) }
        case .passedOver:
            break
        case .problem(let reason):
            if !playlistsOnly { report(reason) }
        }
    }

    /// Adds `track`, as the last scan had it when nothing changed (one copy of its tags).
    private mutating func keep(_ track: LibraryTrack) {
        if let at = previousPaths.position(of: track.path, in: previousTracks), previousTracks[at].tags == track.tags {
            result.tracks.append(previousTracks[at])
            tracksKept += 1
        } else {
            result.tracks.append(track)
        }
    }

    /// A track read afresh, with the time the library first found it (MPD 0.24's `Added`):
    /// the last walk's for a file it knew at this path, changed or not (nil too, for one
    /// found before the index kept it, as MPD leaves a song of an older database), and
    /// now for a new one. Chapters have none, as MPD's container songs have none.
    private func firstSeen(_ outcome: FileOutcome, at path: String, known: FileOutcome?) -> FileOutcome {
        guard case .track(var tags) = outcome else { return outcome }
        if case .track(let old) = known {
            tags.added = old.added
        } else if let at = previousPaths.position(of: path, in: previousTracks) {
            tags.added = previousTracks[at].tags.added
        } else {
            tags.added = Int(time(nil))
        }
        return .track(tags)
    }

    /// What a file is: a playlist, a track, something else passed over quietly, or audio
    /// that cannot be read (with the reason).
    private func read(_ path: String, name: String, modified identity: FileIdentity) -> FileOutcome {
        let modified = Int(identity.modified / 1_000_000_000)
        let ext = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
        if LibraryScanner.playlistExtensions.contains(ext) { return .playlist }
        if playlistsOnly { return .passedOver }
        do {
            let (metadata, info) = try AudioFile.describe(path)
            let chapters = AudioFile.chapters(of: path, metadata: metadata, info: info)
            guard chapters.isEmpty else {
                return .chapters(chapters.indices.map { i in
                    let (tags, chapterInfo) = ChapterDecoder.describe(chapters, i, of: metadata, info)
                    return SongTags(tags, info: chapterInfo, modified: modified)
                })
            }
            return .track(SongTags(metadata, info: info, modified: modified))
        } catch let error as MediaError {
            switch error {
            case .unrecognised, .empty, .unsupported: if !LibraryScanner.audioExtensions.contains(ext) { return .passedOver }
            default: break
            }
            return .problem(FilePath.displayed(error.description))
        } catch {
            return .problem(FilePath.displayed("\(path.debugDescriptionIfNeeded): \(error)"))
        }
    }

    private mutating func problem(_ path: String, _ reason: String) {
        report("\(path.debugDescriptionIfNeeded): \(reason)")
    }

    private mutating func report(_ text: String) {
        result.skipped.append(FilePath.displayed(text))
    }
}

/// A link found in a folder, to follow after the real tree.
private struct PendingLink {
    var path: String
    var name: String
    var ancestors: [FileID]
    var depth: Int
}

/// A file's identity, whatever path reaches it.
struct FileID: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    init(_ st: stat) {
        self.init(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }
}

private extension String {
    /// The path as is, or quoted with escapes when it holds control characters (a newline).
    var debugDescriptionIfNeeded: String {
        unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? FilePath.displayed(self).debugDescription : self
    }
}
