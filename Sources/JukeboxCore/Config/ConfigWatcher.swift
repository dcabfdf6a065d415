import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Tells when the config file was saved. inotify watches its folder, not the file: editors
/// save by writing a new file and renaming it over the old one (vim, `sed -i`, most GUI
/// editors over SFTP), and a watch on the old file would be lost with it. An editor's
/// burst (write, rename, chmod) is taken as one save, `settleMilliseconds` after its last
/// event, so the file is read once and whole.
public final class ConfigWatcher: Service, @unchecked Sendable {
    public let name = "config watcher"
    public let policy = FailurePolicy.restarted()
    private let folder: String
    private let fileName: [UInt8]
    private let settle: UInt64
    private let onSave: @Sendable () -> Void
    private var inotify: Int32 = -1
    private var wake: [Int32] = [-1, -1]
    private var thread: pthread_t?
    private var died: @Sendable (any Error) -> Void = { _ in }

    public init(path: String, settleMilliseconds: Int = 150, onSave: @escaping @Sendable () -> Void) {
        let slash = path.lastIndex(of: "/")
        folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        fileName = Array((slash.map { String(path[path.index(after: $0)...]) } ?? path).utf8)
        settle = UInt64(settleMilliseconds) * 1_000_000
        self.onSave = onSave
    }

    public func start(died: @escaping @Sendable (any Error) -> Void) throws {
        self.died = died
        let fd = try systemCall { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        do {
            let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)
            _ = try systemCall { inotify_add_watch(fd, folder, events) }
            try systemCall { pipe(&wake) }
        } catch {
            close(fd)
            throw error
        }
        inotify = fd
        do {
            thread = try WorkerThread.start(name: "jukebox-config") { [self] in run() }
        } catch {
            closeAll()
            throw error
        }
    }

    public func stop() {
        guard let thread else { return }
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
        pthread_join(thread, nil)
        self.thread = nil
        closeAll()
    }

    private func closeAll() {
        close(inotify)
        close(wake[0]); close(wake[1])
        inotify = -1
        wake = [-1, -1]
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var saveAt: UInt64?
        while true {
            var fds = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0), pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)]
            let now = MonotonicClock.now()
            let timeout = saveAt.map { $0 <= now ? 0 : Int32(($0 - now + 999_999) / 1_000_000) } ?? -1
            do {
                try systemCall(retryOnInterrupt: false) { poll(&fds, 2, timeout) }
            } catch .interrupted {
                continue
            } catch {
                died(error)
                return
            }
            if fds[0].revents != 0 { return }
            if fds[1].revents != 0 {
                let count = read(inotify, &buffer, buffer.count)
                if count > 0, Self.names(in: buffer[..<count]).contains(fileName) {
                    saveAt = MonotonicClock.now() + settle
                }
            }
            if let due = saveAt, MonotonicClock.now() >= due {
                saveAt = nil
                onSave()
            }
        }
    }

    /// The file names in a read of inotify events (struct inotify_event: wd, mask, cookie,
    /// len, then the name padded with NULs to `len`).
    static func names(in bytes: ArraySlice<UInt8>) -> [[UInt8]] {
        var names: [[UInt8]] = []
        var offset = bytes.startIndex
        let header = 16
        while offset + header <= bytes.endIndex {
            let length = bytes[offset + 12 ..< offset + 16].reversed().reduce(0) { $0 << 8 | Int($1) }
            let nameStart = offset + header
            guard nameStart + length <= bytes.endIndex else { break }
            names.append(Array(bytes[nameStart ..< nameStart + length].prefix { $0 != 0 }))
            offset = nameStart + length
        }
        return names
    }
}
