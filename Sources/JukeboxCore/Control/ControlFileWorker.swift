#if canImport(Glibc)
import Glibc
#endif

/// One thread that reads files for the control thread, in the order asked: a stored
/// playlist of 89,000 lines is read here, and the clients waiting on the control thread
/// are served meanwhile. Each client has at most one read waiting (its reply waits for
/// it), so the queue is bounded by the slots.
final class ControlFileWorker: @unchecked Sendable {
    private struct Jobs {
        var queue: [@Sendable () -> Void] = []
        var stop = false
    }

    private let jobs = ConditionLocked(Jobs())
    private var thread: pthread_t?

    func start() throws(Errno) {
        thread = try WorkerThread.start(name: "jukebox-files") { [self] in loop() }
    }

    func run(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { access in
            access.queue.append(job)
            access.broadcast()
        }
    }

    /// Waits for the job running, if any; the ones not started are dropped with their clients.
    func stop() {
        guard let thread else { return }
        jobs.withLock { access in
            access.stop = true
            access.broadcast()
        }
        pthread_join(thread, nil)
        self.thread = nil
    }

    private func loop() {
        while let job = next() { job() }
    }

    private func next() -> (@Sendable () -> Void)? {
        jobs.withLock { access in
            while access.queue.isEmpty, !access.stop { access.wait(nanoseconds: 60_000_000_000) }
            return access.stop ? nil : access.queue.removeFirst()
        }
    }
}
