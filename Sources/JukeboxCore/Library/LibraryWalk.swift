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

    init(afterFolder: @escaping ([LibraryTrack]) -> Void) {
        self.afterFolder = afterFolder
    }

    /// Walks `root` and what it links to. A root already walked (the playlists folder is
    /// the music folder, or inside it) adds nothing.
    mutating func run(from root: String) {
        let id: FileID
        do {
            id = try FileID(of: root)
        } catch {
            problem(root, "cannot open folder: \(error)")
            return
        }
        guard enteredFolders.insert(id).inserted else { return }
        walk(root, id: id, ancestors: [], depth: 0)
        while linksFollowed < links.count {  // grows while linked folders are walked
            let link = links[linksFollowed]
            linksFollowed += 1
            follow(link)
        }
    }

    private mutating func walk(_ folder: String, id: FileID, ancestors: [FileID], depth: Int) {
        let names: [String]
        do {
            names = try entries(of: folder)
        } catch {
            problem(folder, "cannot open folder: \(error)")
            return
        }
        let lineage = ancestors + [id]
        var subfolders: [(path: String, id: FileID)] = []
        for name in names {
            let path = folder + "/" + name
            if name.contains("\n") {
                problem(path, "the name holds a newline, which no client could be sent; rename it to play it")
                continue
            }
            var st = stat()
            guard (try? systemCall { FilePath.withCString(path) { lstat($0, &st) } }) != nil else { continue }  // gone since
            switch st.st_mode & S_IFMT {
            case S_IFLNK:
                links.append(PendingLink(path: path, name: name, ancestors: lineage, depth: depth + 1))
            case S_IFDIR:
                if enteredFolders.insert(FileID(st)).inserted { subfolders.append((path, FileID(st))) }
            case S_IFREG:
                add(path, name: name, id: FileID(st))
            default:
                continue
            }
        }
        afterFolder(result.tracks)
        for sub in subfolders { enter(sub.path, id: sub.id, ancestors: lineage, depth: depth + 1) }
    }

    private mutating func enter(_ folder: String, id: FileID, ancestors: [FileID], depth: Int) {
        guard depth < Self.maximumDepth else {
            problem(folder, "folders nested more than \(Self.maximumDepth) deep; not scanned")
            return
        }
        walk(folder, id: id, ancestors: ancestors, depth: depth)
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
                enter(link.path, id: id, ancestors: link.ancestors, depth: link.depth)
            }
        case S_IFREG:
            add(link.path, name: link.name, id: id)
        default:
            return
        }
    }

    /// A regular file: a playlist, a track, or something else passed over quietly.
    private mutating func add(_ path: String, name: String, id: FileID) {
        guard listedFiles.insert(id).inserted else { return }  // already in, by another path
        let ext = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
        if LibraryScanner.playlistExtensions.contains(ext) {
            do { result.playlists.append(try M3UPlaylist.read(path)) } catch { report("\(error)") }
            return
        }
        if playlistsOnly { return }
        do {
            let metadata = try AudioFile.metadata(path)
            result.tracks.append(LibraryTrack(path: path, discNumber: metadata.discNumber, trackNumber: metadata.trackNumber))
        } catch let error as MediaError {
            switch error {
            case .unrecognised, .empty, .unsupported: if !LibraryScanner.audioExtensions.contains(ext) { return }
            default: break
            }
            report(error.description)
        } catch {
            problem(path, "\(error)")
        }
    }

    /// Visible names in natural order; `.`, `..` and hidden entries left out.
    private func entries(of folder: String) throws(Errno) -> [String] {
        let dir = try systemCall { FilePath.withCString(folder) { opendir($0) } }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { FilePath.decode($0.prefix { $0 != 0 }) }
            if name.hasPrefix(".") { continue }
            names.append(name)
        }
        return names.sorted(by: NaturalOrder.less)
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
struct FileID: Hashable {
    var device: UInt64
    var inode: UInt64

    init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }

    /// Of what `path` names, links followed.
    init(of path: String) throws(Errno) {
        var st = stat()
        try systemCall { FilePath.withCString(path) { stat($0, &st) } }
        self.init(st)
    }
}

private extension String {
    /// The path as is, or quoted with escapes when it holds control characters (a newline).
    var debugDescriptionIfNeeded: String {
        unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? FilePath.displayed(self).debugDescription : self
    }
}
