#if canImport(Glibc)
import Glibc
#endif
import CJukeboxShim

/// The write end of snapserver's `pipe` source, a FIFO that snapserver makes and reads
/// every 20 ms by its own clock. While no program holds the pipe open for writing,
/// snapserver reads the end of it, closes it and opens it again every 100 ms, so a writer
/// that waits for a reader before opening (O_WRONLY alone) rarely finds one. This one
/// opens its end through a read-write open, which needs no reader, and keeps it: snapserver
/// then stays on the pipe, and the write end tells whether it does (POLLERR: no reader; a
/// write then fails with EPIPE). snapserver not running is a device absent, snapserver
/// stopping a device lost.
final class SnapcastPipe: SnapcastLink {
    let path: String
    private var fd: Int32 = -1
    /// How long an open waits for snapserver to come back to the pipe after the box
    /// first holds it: snapserver looks every 100 ms.
    private static let readerWaitMilliseconds = 250

    init(path: String) { self.path = path }
    deinit { close() }

    var isOpen: Bool { fd >= 0 }

    func open(bufferBytes: Int) throws(OutputError) {
        let attachedNow = fd < 0
        try attach()
        var waited = 0
        while !hasReader() {
            guard attachedNow, waited < Self.readerWaitMilliseconds else { throw .absent(device: device) }
            MonotonicClock.sleep(until: MonotonicClock.now() + 10_000_000)
            waited += 10
        }
        // Room for the buffer the output keeps, so a write of the room it reports never
        // waits. The kernel rounds up; an unprivileged writer may get less (then writes
        // wait their turn, which works as well).
        if bufferBytes > 65_536 { _ = jukebox_pipe_set_size(fd, Int32(clamping: bufferBytes)) }
    }

    /// Holds the write end, whether or not snapserver reads the pipe now.
    private func attach() throws(OutputError) {
        guard fd < 0 else { return }
        let holder = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard holder >= 0 else {
            let error = Errno.current
            if error == .noEntry { throw .absent(device: device) }  // snapserver has not made it yet
            throw .failed(device: device, what: "open the pipe", code: error)
        }
        defer { Glibc.close(holder) }
        var info = stat()
        guard fstat(holder, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else {
            throw .failed(device: device, what: "open the pipe (it is not a FIFO: set snapserver's source to pipe://\(path) with mode=create)",
                          code: Errno(ENOTSUP))
        }
        // The read-write open counts as a reader, so this one cannot fail for want of one.
        let writer = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard writer >= 0 else { throw .failed(device: device, what: "open the pipe", code: .current) }
        fd = writer
    }

    /// Whether snapserver has the pipe open (a reader other than the box).
    private func hasReader() -> Bool {
        guard fd >= 0 else { return false }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = poll(&poller, 1, 0)
        return poller.revents & Int16(POLLERR) == 0
    }

    private var device: String { SnapcastTarget.pipe(path: path).description }

    func isPresent() -> Bool {
        guard (try? attach()) != nil else { return false }
        return hasReader()
    }

    func writeSome(_ bytes: UnsafeRawBufferPointer) throws(OutputError) -> Int {
        while true {
            let written = Glibc.write(fd, bytes.baseAddress, bytes.count)
            if written >= 0 { return written }
            switch errno {
            case EINTR: continue
            case EAGAIN: return 0
            case EPIPE: throw .disconnected(device: device)
            default: throw .failed(device: device, what: "write", code: .current)
            }
        }
    }

    func waitForRoom(milliseconds: Int) throws(OutputError) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&poller, 1, Int32(milliseconds))
        // POLLERR on a write end: the reader is gone.
        if ready > 0, poller.revents & Int16(POLLERR) != 0 { throw .disconnected(device: device) }
        return ready > 0
    }

    func unread() -> Int { fd >= 0 ? max(0, Int(jukebox_pipe_unread(fd))) : 0 }

    /// Reading the pipe gives its oldest bytes, so all of it is read and the part to keep
    /// written straight back. snapserver reads a chunk every 20 ms and this takes a few
    /// microseconds; should it read in between, it hears silence once, at a pause.
    func takeBack(_ bytes: Int, frameBytes: Int) -> Int {
        guard fd >= 0, unread() > 0 else { return 0 }
        let reader = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard reader >= 0 else { return 0 }
        defer { Glibc.close(reader) }
        var queued = [UInt8](repeating: 0, count: max(unread(), 4096) + 65_536)
        var total = 0
        while total < queued.count {
            let got = queued.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress! + total, $0.count - total) }
            if got <= 0 { break }
            total += got
        }
        // A frame snapserver began reading is finished first; then whole frames are kept
        // from the oldest on, and the newest ones taken.
        let partial = total % frameBytes
        let taken = min((total - partial) / frameBytes, bytes / frameBytes) * frameBytes
        let keep = total - taken
        var offset = 0
        while offset < keep {
            let put = queued.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, keep - offset) }
            if put <= 0 { break }  // the reader went: what is left is lost with it
            offset += put
        }
        return taken
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
