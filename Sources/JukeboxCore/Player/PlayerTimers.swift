import Dispatch

/// The player's two timers: the steps while fast-forward or rewind is held, and the tick
/// once a second while playing. They fire on the player's queue and reach the machine
/// through `reenter`, which takes the player's lock.
final class PlayerTimers {
    typealias Reenter = @Sendable (@escaping (PlayerMachine) -> Void) -> Void

    private let queue: DispatchQueue
    private let reenter: Reenter
    private var scan: DispatchSourceTimer?
    private var ticker: DispatchSourceTimer?
    /// Set by `close`: no timer starts again.
    private(set) var closed = false

    init(queue: DispatchQueue, reenter: @escaping Reenter) {
        self.queue = queue
        self.reenter = reenter
    }

    /// `step` every `milliseconds`, until `stopScanning`.
    func startScanning(every milliseconds: Int, _ step: @escaping @Sendable (PlayerMachine) -> Void) {
        stopScanning()
        guard !closed else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.milliseconds(milliseconds)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [reenter] in reenter(step) }
        timer.resume()
        scan = timer
    }

    func stopScanning() {
        scan?.cancel()
        scan = nil
    }

    /// `tick` once a second from now on (once started, the ticker runs until `close`).
    func startTicking(_ tick: @escaping @Sendable (PlayerMachine) -> Void) {
        guard ticker == nil, !closed else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [reenter] in reenter(tick) }
        timer.resume()
        ticker = timer
    }

    func close() {
        closed = true
        stopScanning()
        ticker?.cancel()
        ticker = nil
    }
}
