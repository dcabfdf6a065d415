#if canImport(Glibc)
import Glibc
#endif
import CJukeboxShim

/// The file an upload is written into until it is whole and checked: hidden (the library
/// scan passes over names with a leading dot), made fresh (never through a name already
/// there), and put in place under its final name without ever replacing a file.
enum UploadPartFile {
    static let prefix = ".upload-"
    static let suffix = ".part"
    static let mode: mode_t = 0o644

    /// A name no other upload uses: 64 random bits.
    static func freshName() -> String {
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return prefix + random.leftPadded(to: 16) + suffix
    }

    static func isPartName(_ name: String) -> Bool {
        name.hasPrefix(prefix) && name.hasSuffix(suffix) && name.utf8.count > prefix.utf8.count + suffix.utf8.count
    }

    /// Creates `name` in `folder` for writing; fails if anything, a link included, is there.
    static func create(_ name: String, in folder: Int32) throws(Errno) -> Int32 {
        try systemCall { openat(folder, name, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, mode) }
    }

    /// Gives `part` the name `final` in `folder`; throws EEXIST when `final` is taken.
    /// renameat2's RENAME_NOREPLACE where the kernel and the file system have it, else a
    /// hard link (which never replaces either) and the part's name removed.
    static func place(_ part: String, as final: String, in folder: Int32) throws(Errno) {
        do {
            try systemCall { jukebox_rename_noreplace(folder, part, folder, final) }
        } catch let error where error.rawValue == ENOSYS || error.rawValue == EINVAL {
            try systemCall { linkat(folder, part, folder, final, 0) }
            _ = unlinkat(folder, part, 0)
        }
    }
}
