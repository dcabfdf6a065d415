#if canImport(Glibc)
import Glibc
#endif

/// The folders from the music folder down to where an upload goes, each opened relative
/// to the one before with O_NOFOLLOW, so no link (planted before or during the upload)
/// can lead a write out of the upload folder. Missing folders are made on the way; those
/// this upload made are removed again if it is abandoned, once empty.
///
/// The music folder itself is the box's setting and may be a link (to a USB disk, say);
/// everything below it may not.
struct UploadFolderChain {
    private struct Step {
        var fd: Int32
        var name: String
        var made: Bool
        var removable = false
    }

    private var steps: [Step] = []
    /// The path from the music folder, for messages and for the library.
    private(set) var shownPath = ""

    /// The folder the chain ends in.
    var innermost: Int32 { steps[steps.count - 1].fd }

    static let folderMode: mode_t = 0o755

    /// Opens the music folder; the chain then grows with `enter`.
    init(musicDirectory: String) throws(UploadRefusal) {
        let fd: Int32
        do {
            fd = try systemCall { FilePath.withCString(musicDirectory) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } }
        } catch {
            throw .failed("open the music folder \(musicDirectory)", error)
        }
        steps = [Step(fd: fd, name: "", made: false)]
    }

    /// Opens `name` in the innermost folder, making it when it is missing. A folder made
    /// and `removable` goes again with `removeMadeFolders` (the upload folder itself stays).
    mutating func enter(_ name: String, removable: Bool = true) throws(UploadRefusal) {
        let parent = innermost
        let shown = shownPath.isEmpty ? name : "\(shownPath)/\(name)"
        var made = false
        // A folder made or removed by another upload between two calls is tried again.
        for _ in 0..<4 {
            do {
                let fd = try systemCall { openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
                steps.append(Step(fd: fd, name: name, made: made, removable: removable))
                shownPath = shown
                return
            } catch .noEntry {
                do {
                    try systemCall { mkdirat(parent, name, Self.folderMode) }
                    made = true
                } catch .exists {
                    continue
                } catch {
                    throw .failed("make the folder \(shown)", error)
                }
            } catch let error where error.rawValue == ELOOP || error.rawValue == ENOTDIR {
                throw Self.isLink(name, in: parent) ? .symbolicLink(shown) : .notAFolder(shown)
            } catch {
                throw .failed("open the folder \(shown)", error)
            }
        }
        throw .failed("open the folder \(shown)", Errno(ENOENT))
    }

    /// Whether `name` in `folder` is a symbolic link itself (not followed).
    static func isLink(_ name: String, in folder: Int32) -> Bool {
        var st = stat()
        guard fstatat(folder, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        return (st.st_mode & S_IFMT) == S_IFLNK
    }

    /// The path of `name` in the innermost folder, from the music folder.
    func shown(_ name: String) -> String { shownPath.isEmpty ? name : "\(shownPath)/\(name)" }

    /// Removes the folders this chain made, innermost first, where they are still empty
    /// (another upload may have put a file in one meanwhile).
    func removeMadeFolders() {
        for i in steps.indices.dropFirst().reversed() where steps[i].made && steps[i].removable {
            if unlinkat(steps[i - 1].fd, steps[i].name, AT_REMOVEDIR) != 0 { return }
        }
    }

    /// Flushes the innermost folder (a new name in it) and the folder above each folder
    /// this chain made. Errors are left: some file systems cannot flush a folder.
    func syncFolders() {
        _ = fsync(innermost)
        for i in steps.indices.dropFirst() where steps[i].made { _ = fsync(steps[i - 1].fd) }
    }

    /// Closes every folder; the chain is not used after.
    mutating func close() {
        for step in steps { _ = Glibc.close(step.fd) }
        steps = []
    }
}
