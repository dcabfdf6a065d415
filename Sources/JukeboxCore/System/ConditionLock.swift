#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex with a condition variable on CLOCK_MONOTONIC. Critical sections in
/// this project are a few loads and stores: nobody holds it across I/O.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func withLock<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits (the lock held by the caller, inside `withLock`) until signalled or `nanoseconds` pass.
    public func wait(nanoseconds: UInt64) {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let total = UInt64(ts.tv_nsec) + nanoseconds
        ts.tv_sec += Int(total / 1_000_000_000)
        ts.tv_nsec = Int(total % 1_000_000_000)
        pthread_cond_timedwait(condition, mutex, &ts)
    }

    public func broadcast() { pthread_cond_broadcast(condition) }
}

/// A named thread. The audio thread asks for real-time priority; without the privilege
/// it runs at normal priority and says so once.
public enum WorkerThread {
    /// Starts `body` on a new thread; throws when the system cannot make one (EAGAIN when
    /// out of memory or over the process's thread limit).
    public static func start(name: String, realtime: Bool = false, _ body: @escaping @Sendable () -> Void) throws(Errno) -> pthread_t {
        final class Box { let body: @Sendable () -> Void; let name: String; let realtime: Bool
            init(_ b: @escaping @Sendable () -> Void, _ n: String, _ r: Bool) { body = b; name = n; realtime = r } }
        let box = Unmanaged.passRetained(Box(body, name, realtime)).toOpaque()
        var thread = pthread_t()
        // pthread_create returns the error number itself rather than setting errno.
        let status = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            nameCurrentThread(box.name)
            if box.realtime {
                var param = sched_param(sched_priority: 40)
                _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param)
            }
            box.body()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<AnyObject>.fromOpaque(box).release()
            throw Errno(status)
        }
        return thread
    }
}

/// Names the calling thread (seen in `top -H` and crash reports). pthread_setname_np and
/// prctl are not importable without _GNU_SOURCE; /proc does the same.
private func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY)
    guard fd >= 0 else { return }
    var bytes = Array(name.utf8.prefix(15))
    _ = write(fd, &bytes, bytes.count)
    close(fd)
}
