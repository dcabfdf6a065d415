import Dispatch

/// Where the page server's tasks run: a serial queue of its own, not Swift's shared pool
/// of threads. Nothing else in the box waits on that pool, and nothing else can starve
/// the page of it either (a test process full of blocking tests did: the server never
/// got a thread to start on).
final class PageExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "jukebox.web")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
