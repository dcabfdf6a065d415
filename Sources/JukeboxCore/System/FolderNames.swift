#if canImport(Glibc)
import Glibc
#endif

/// The names a folder holds, in natural order: `.` and `..` left out, and hidden names
/// (a leading dot) unless asked for. Names that are not UTF-8 are kept byte for byte.
enum FolderNames {
    static func list(_ folder: String, hidden: Bool = false) throws(Errno) -> [String] {
        let dir = try systemCall { FilePath.withCString(folder) { opendir($0) } }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { FilePath.decode($0.prefix { $0 != 0 }) }
            if name == "." || name == ".." || (!hidden && name.hasPrefix(".")) { continue }
            names.append(name)
        }
        return names.sorted(by: NaturalOrder.less)
    }
}
