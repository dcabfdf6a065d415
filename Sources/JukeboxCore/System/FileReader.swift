#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Read-only access to a file by offset. Reads are bounded by the caller, so a hostile
/// size field in a header can never make us allocate more than we asked for.
final class FileReader {
    let path: String
    private let fd: Int32
    let size: Int64

    init(path: String) throws {
        self.path = path
        let fd = FilePath.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw MediaError.unreadable(path, Errno.current.description) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let err = Errno.current
            close(fd)
            throw MediaError.unreadable(path, err.description)
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw MediaError.unreadable(path, "not a regular file")
        }
        self.fd = fd
        self.size = Int64(st.st_size)
    }

    deinit { close(fd) }

    /// Up to `count` bytes at `offset`; fewer only at the end of the file.
    func read(at offset: Int64, count: Int) throws -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let wanted = Int(min(Int64(count), size - offset))
        var bytes = [UInt8](repeating: 0, count: wanted)
        let got = try bytes.withUnsafeMutableBytes { try read(into: $0, at: offset) }
        if got < wanted { bytes.removeLast(wanted - got) }
        return bytes
    }

    /// Fills as much of `buffer` as the file allows; returns the byte count.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw MediaError.unreadable(path, Errno.current.description)
            }
            done += n
        }
        return done
    }

    /// The whole file, refusing files larger than `limit` so a stray multi-gigabyte file
    /// named `.lrc` cannot exhaust memory.
    static func contents(of path: String, limit: Int) throws -> [UInt8] {
        let reader = try FileReader(path: path)
        guard reader.size <= Int64(limit) else {
            throw MediaError.unsupported(path, "file is \(reader.size) bytes, larger than the \(limit)-byte limit")
        }
        return try reader.read(at: 0, count: Int(reader.size))
    }
}
