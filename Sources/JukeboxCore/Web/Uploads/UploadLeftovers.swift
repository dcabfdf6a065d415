#if canImport(Glibc)
import Glibc
#endif

extension UploadFolder {
    /// Removes the part files (`.upload-*.part`) a crash or a power cut left in the upload
    /// folder and the folders below it; those of uploads in progress stay. Links are not
    /// followed. Returns how many were removed. Called when the box starts.
    @discardableResult
    public func sweepLeftovers() -> Int {
        guard let top = openUploadFolder() else { return 0 }
        return UploadLeftovers.sweep(top, depth: 0) { !isUploading($0) }
    }
}

enum UploadLeftovers {
    /// Sweeps `folder` (closing it) and the folders below, down to the deepest an upload
    /// can make.
    static func sweep(_ folder: Int32, depth: Int, removable: (String) -> Bool) -> Int {
        var removed = 0
        for (name, isFolder) in entries(of: folder) {
            if isFolder {
                guard depth + 1 < UploadName.maxLevels else { continue }
                let inner = FilePath.withCString(name) { openat(folder, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
                if inner >= 0 { removed += sweep(inner, depth: depth + 1, removable: removable) }
            } else if UploadPartFile.isPartName(name), removable(name),
                      FilePath.withCString(name, { unlinkat(folder, $0, 0) }) == 0 {
                removed += 1
            }
        }
        close(folder)
        return removed
    }

    /// The folders and the regular files in `folder` (links, devices and sockets left out),
    /// read through a copy of its descriptor so `folder` stays open.
    private static func entries(of folder: Int32) -> [(name: String, isFolder: Bool)] {
        let copy = dup(folder)
        guard copy >= 0 else { return [] }
        guard let dir = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(dir) }
        var found: [(String, Bool)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { FilePath.decode($0.prefix { $0 != 0 }) }
            if name == "." || name == ".." { continue }
            var st = stat()
            guard FilePath.withCString(name, { fstatat(folder, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFDIR: found.append((name, true))
            case S_IFREG: found.append((name, false))
            default: continue
            }
        }
        return found
    }
}
