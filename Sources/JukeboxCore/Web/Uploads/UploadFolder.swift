#if canImport(Glibc)
import Glibc
#endif

/// The folder of the music library that files uploaded from the box's web page go into,
/// and the rules they pass: a name that stays inside it, a size within the limits, room
/// on the disk, a free slot, and bytes the library can play. The web route calls `begin`
/// with the name from the URL and the Content-Length, then writes the body's chunks to
/// what it returns as they arrive, then `finish`.
public final class UploadFolder: @unchecked Sendable {
    public let musicDirectory: String
    public let limits: UploadLimits
    /// The upload folder's parts under the music folder; empty for the music folder itself.
    private let folderParts: [String]
    /// Why the `folder` setting cannot be used (every upload is then refused with it).
    private let folderProblem: UploadRefusal?
    private let slots: UploadSlots

    /// `folder` is relative to the music folder ("Uploads", or "" for the music folder).
    public init(musicDirectory: String, folder: String, limits: UploadLimits) {
        self.musicDirectory = musicDirectory
        self.limits = limits
        self.slots = UploadSlots(limit: limits.maxAtOnce)
        let trimmed = folder.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
        do throws(UploadRefusal) {
            for part in trimmed { try UploadName.check(component: part, of: folder) }
            guard !folder.hasPrefix("/") else { throw UploadRefusal.badRequest("it is absolute") }
            folderParts = trimmed
            folderProblem = nil
        } catch {
            folderParts = []
            folderProblem = UploadRefusal(status: 500, reason: "the upload folder setting \(folder) is not a folder under the music folder: \(error.reason)")
        }
    }

    /// Uploads in flight.
    public var uploadsInProgress: Int { slots.count }

    /// Checks everything that can be checked before a byte is written (the name, the
    /// length, a free slot, the folders on the way, room on the disk, no file of the
    /// name), then creates the part file and reserves a slot until `finish` or `abandon`.
    public func begin(relativePath: String, declaredBytes: Int64?) throws(UploadRefusal) -> UploadInProgress {
        if let folderProblem { throw folderProblem }
        let name = try UploadName(relativePath)
        let size = try UploadSize(declared: declaredBytes, limit: limits.maxBytes)
        let partName = UploadPartFile.freshName()
        try slots.take(partName)
        var chain: UploadFolderChain
        do {
            chain = try UploadFolderChain(musicDirectory: musicDirectory)
        } catch {
            slots.free(partName)
            throw error
        }
        do throws(UploadRefusal) {
            for part in folderParts { try chain.enter(part, removable: false) }
            try checkRoom(on: chain.innermost, for: size.declared)
            for part in name.folders { try chain.enter(part) }
            let libraryPath = chain.shown(name.fileName)
            if Self.exists(name.fileName, in: chain.innermost) { throw UploadRefusal.alreadyThere(libraryPath) }
            let fd: Int32
            do {
                fd = try UploadPartFile.create(partName, in: chain.innermost)
            } catch {
                throw UploadRefusal.writeFailed("create \(chain.shown(partName))", error)
            }
            return UploadInProgress(chain: chain, fd: fd, partName: partName, name: name, size: size,
                                    slots: slots, libraryPath: libraryPath, musicDirectory: musicDirectory)
        } catch {
            chain.removeMadeFolders()
            chain.close()
            slots.free(partName)
            throw error
        }
    }

    private func checkRoom(on folder: Int32, for declared: Int64) throws(UploadRefusal) {
        let free: Int64
        do {
            free = try UploadDiskRoom.freeBytes(onFileSystemOf: folder)
        } catch {
            throw .failed("measure the free space under \(musicDirectory)", error)
        }
        try UploadDiskRoom.check(freeBytes: free, declared: declared, reserve: limits.reserveBytes)
    }

    /// The upload folder, opened as an upload opens it but never made; nil when missing.
    func openUploadFolder() -> Int32? {
        guard folderProblem == nil else { return nil }
        var fd = FilePath.withCString(musicDirectory) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        for part in folderParts {
            let inner = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            close(fd)
            guard inner >= 0 else { return nil }
            fd = inner
        }
        return fd
    }

    /// Whether `partName` belongs to an upload in progress.
    func isUploading(_ partName: String) -> Bool { slots.isActive(partName) }

    /// Whether anything (a file, a folder, a link) has `name` in `folder`.
    static func exists(_ name: String, in folder: Int32) -> Bool {
        var st = stat()
        return fstatat(folder, name, &st, AT_SYMLINK_NOFOLLOW) == 0
    }
}
