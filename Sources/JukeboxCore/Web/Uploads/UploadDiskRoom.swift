#if canImport(Glibc)
import Glibc
#endif

/// Whether the disk has room for an upload and still keeps the reserve free, judged from
/// the upload folder's file system before anything is written.
enum UploadDiskRoom {
    static func check(freeBytes: Int64, declared: Int64, reserve: Int64) throws(UploadRefusal) {
        guard freeBytes - declared >= reserve else { throw .diskNearlyFull(free: freeBytes, kept: reserve) }
    }

    /// Bytes an unprivileged writer may still use on the file system holding `folder`
    /// (`f_bavail`: root's reserved blocks are not ours).
    static func freeBytes(onFileSystemOf folder: Int32) throws(Errno) -> Int64 {
        var info = statvfs()
        try systemCall { fstatvfs(folder, &info) }
        let (product, overflow) = Int64(clamping: info.f_bavail).multipliedReportingOverflow(by: Int64(clamping: info.f_frsize))
        return overflow ? .max : product
    }
}
