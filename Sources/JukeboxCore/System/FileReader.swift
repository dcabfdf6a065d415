#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Read-only access to a file by offset. Reads are bounded by the caller, so a hostile
/// size field in a header can never make us allocate more than we asked for.
///
/// Every media and lyrics file is opened here, once: the decoders read through this
/// descriptor rather than opening the path again, so the type check below covers them.
final class FileReader: MediaSource {
    let path: String
    /// The checked descriptor: a regular file, blocking reads. Owned by this reader.
    let fd: Int32
    let size: Int64
    /// A local read never waits long enough to need it.
    var interruption: DecodeInterruption?

    init(path: String) throws {
        self.path = path
        // O_NONBLOCK so a FIFO (or a device) cannot block the open itself; the type is
        // checked before anything reads, and blocking mode restored for regular files.
        let fd: Int32
        do {
            fd = try systemCall { FilePath.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } }
        } catch {
            throw MediaError.unreadable(path, error.description)
        }
        do {
            var st = stat()
            try systemCall { fstat(fd, &st) }
            guard (st.st_mode & S_IFMT) == S_IFREG else {
                close(fd)
                throw MediaError.unreadable(path, "not a regular file (\(Self.kind(of: st.st_mode)))")
            }
            let flags = try systemCall { fcntl(fd, F_GETFL) }
            try systemCall { fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
            self.fd = fd
            self.size = Int64(st.st_size)
        } catch let error as Errno {
            close(fd)
            throw MediaError.unreadable(path, error.description)
        }
    }

    deinit { close(fd) }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }

    /// Fills as much of `buffer` as the file allows; returns the byte count.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        var done = 0
        while done < buffer.count {
            let n: Int
            do {
                n = try systemCall { pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done)) }
            } catch {
                throw MediaError.unreadable(path, error.description)
            }
            if n == 0 { break }
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
