/// The decode and audio threads with their output route. Required: without them there is
/// no box. Stopping is bounded: a thread stuck in a kernel call is named in `stuckThreads`
/// and left behind, and the daemon exits without waiting for it.
final class EngineService: Service, @unchecked Sendable {
    let name = "audio engine"
    let policy = FailurePolicy.required
    private let engine: AudioEngine
    private let stopWithin: Double
    private let stuck = ConditionLocked(Stuck())
    private struct Stuck { var threads: [String] = [] }

    init(engine: AudioEngine, stopWithin seconds: Double = 3) {
        self.engine = engine
        stopWithin = seconds
    }

    func start(died: @escaping @Sendable (any Error) -> Void) throws {
        try engine.start()
    }

    func stop() {
        let left = engine.shutdown(within: stopWithin)
        stuck.withLock { $0.threads = left }
    }

    /// The threads that had not stopped when `stop` gave up on them.
    var stuckThreads: [String] { stuck.current.threads }
}
