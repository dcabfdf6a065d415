import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The input thread: one poll loop over every GPIO line's event descriptor and every evdev
/// device; the hotplug monitor wakes it when a device is announced. Edges read in one wake-up are applied in
/// kernel-timestamp order; debounce and gesture deadlines set the poll timeout. Each
/// action goes to `onAction`, which applies it to the player (briefly, under its lock, or
/// queued behind the player's own work): nothing here waits for the player's queue or the
/// audio thread, and debounce and gestures go by the edges' kernel times.
public final class InputLoop: @unchecked Sendable {
    private let hardware: [InputHardware]
    private let logger: Logger
    private let onAction: @Sendable (InputAction) -> Void
    private var wake: [Int32] = [-1, -1]
    private var thread: pthread_t?
    /// While something configured is missing, look again this often even without an announcement.
    private let retryInterval: UInt64 = 2_000_000_000

    public init(config: InputConfig, logger: Logger, onAction: @escaping @Sendable (InputAction) -> Void) {
        self.logger = logger
        self.onAction = onAction
        hardware = [GPIOInputs(config, logger: logger), EvdevInputs(config, logger: logger)]
    }

    /// Buttons fed from a pipe instead of a GPIO chip (see `PipedLines`), for measuring the
    /// input path on a machine without GPIO. `sendEdge` writes one edge to the pipe.
    public init(pipedButtons config: InputConfig, readFrom fd: Int32, logger: Logger, onAction: @escaping @Sendable (InputAction) -> Void) {
        self.logger = logger
        self.onAction = onAction
        hardware = [PipedLines(fd: fd, config: config)]
    }

    /// Writes an edge on `offset` to a piped-buttons loop's pipe; returns its timestamp.
    public static func sendEdge(to fd: Int32, offset: Int, active: Bool) -> UInt64 {
        PipedLines.send(fd: fd, offset: Int32(offset), active: active)
    }

    /// Told, from the input thread, when the loop stops by itself (its poll failed).
    /// Set before `start`.
    public var onDeath: @Sendable (Errno) -> Void = { _ in }

    /// Starts the input thread; throws when the system cannot make it or its wake-up pipe.
    public func start() throws(Errno) {
        try systemCall { pipe(&wake) }
        do {
            thread = try WorkerThread.start(name: "jukebox-input") { [self] in run() }
        } catch {
            close(wake[0]); close(wake[1])
            throw error
        }
    }

    /// For the hotplug monitor: an input device or GPIO chip may have appeared.
    public func devicesAnnounced(_ events: [UeventMonitor.Uevent]) {
        guard thread != nil, events.contains(where: { ($0.subsystem == "input" || $0.subsystem == "gpio") && $0.action == "add" }) else { return }
        var byte = Self.wakeToRescan
        _ = write(wake[1], &byte, 1)
    }

    private static let wakeToStop: UInt8 = 1
    private static let wakeToRescan: UInt8 = 2

    public func stop() {
        guard let thread else { return }
        var byte = Self.wakeToStop
        _ = write(wake[1], &byte, 1)
        pthread_join(thread, nil)
        self.thread = nil
        close(wake[0]); close(wake[1])
    }

    private func run() {
        emit(hardware.flatMap { $0.rescan(now: MonotonicClock.now()) })
        var nextRetry = MonotonicClock.now() + retryInterval
        // A device announced may not be usable at once (udev sets its permissions just
        // after): one more look a second later.
        var lookAgainAt: UInt64?
        while true {
            var fds = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
            for h in hardware { fds += h.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } }
            let waiting = hardware.contains { $0.waiting }
            let deadlines = hardware.flatMap { $0.units.compactMap(\.deadline) } + (waiting ? [nextRetry] : []) + [lookAgainAt].compactMap { $0 }
            let timeout = MonotonicClock.pollTimeout(until: deadlines)
            do {
                // Not retried here: after EINTR the deadlines are worked out again.
                try systemCall(retryOnInterrupt: false) { poll(&fds, nfds_t(fds.count), timeout) }
            } catch .interrupted {
                continue
            } catch {
                logger.error("input: poll failed: \(error)")
                onDeath(error)
                return
            }
            let woke = MonotonicClock.now()
            var rescan = false
            if fds[0].revents != 0 {
                var byte: UInt8 = 0
                if read(wake[0], &byte, 1) == 1, byte == Self.wakeToRescan {
                    rescan = true
                } else {
                    logger.debug("input: stopped")
                    return
                }
            }
            var actions: [InputAction] = []
            var batch: [PendingEdge] = []
            for fd in fds.dropFirst() where fd.revents != 0 {
                for h in hardware where h.descriptors.contains(fd.fd) {
                    actions += h.readable(fd.fd, now: woke, batch: &batch)
                }
            }
            for edge in batch.sorted(by: { $0.at < $1.at }) { actions += edge.apply() }
            for h in hardware { for unit in h.units { actions += unit.advance(to: woke) } }
            if rescan { lookAgainAt = woke + 1_000_000_000 }
            if let at = lookAgainAt, woke >= at, !rescan { lookAgainAt = nil; rescan = true }
            if rescan || (waiting && woke >= nextRetry) {
                actions += hardware.flatMap { $0.rescan(now: woke) }
                nextRetry = woke + retryInterval
            }
            emit(actions)
        }
    }

    private func emit(_ actions: [InputAction]) { for action in actions { onAction(action) } }
}
