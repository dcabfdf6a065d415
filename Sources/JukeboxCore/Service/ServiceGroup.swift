import Dispatch
import Logging

/// Starts services in the order they are added (dependencies first), stops them in
/// reverse, and applies each one's failure policy. A service added after the group has
/// started (the state saver, once the saved place is taken up) starts at once and stops
/// before those added earlier; a service may add one from its own `start` (the resume
/// adds the saver when it brings back a client's queue).
public final class ServiceGroup: @unchecked Sendable {
    /// Why the group stopped by itself.
    public enum Failure: Error, CustomStringConvertible {
        /// A required service could not start, or one service said the box must not run.
        case cannotStart(service: String, any Error)
        /// A required service stopped by itself.
        case died(service: String, any Error)

        public var description: String {
            switch self {
            case .cannotStart(let name, let error): "\(name) cannot start: \(error)"
            case .died(let name, let error): "\(name) stopped: \(error)"
            }
        }
    }

    private struct Entry {
        var service: any Service
        var running = false
        /// Removed by a reload: never started again. (Entries are never taken out of the
        /// list: callbacks name them by index.)
        var retired = false
        /// Bumped on every start: a `died` from an earlier run is ignored.
        var run = 0
        var startedAt: UInt64 = 0
        var restarts = 0
        var nextDelay: Double?
    }

    private let logger: Logger
    /// Policy decisions and restarts are made here, one at a time.
    private let queue = DispatchQueue(label: "jukebox.services")
    /// Set on `queue`: a call made from a service's `start` is already on it.
    private let onQueue = DispatchSpecificKey<Bool>()
    private var entries: [Entry] = []
    private var stopping = false
    private let onFailure: @Sendable (Failure) -> Void

    /// `onFailure` is told when a required service dies; the owner then stops the group.
    public init(logger: Logger, onFailure: @escaping @Sendable (Failure) -> Void) {
        self.logger = logger
        self.onFailure = onFailure
        queue.setSpecific(key: onQueue, value: true)
    }

    /// Adds `service` and starts it now. Throws `Failure.cannotStart` when a required one
    /// cannot start (or any says the box must not run); the caller then stops the group.
    public func add(_ service: any Service) throws(Failure) {
        let add = { () -> Failure? in
            guard !self.stopping else { return nil }
            self.entries.append(Entry(service: service))
            return self.launch(self.entries.count - 1)
        }
        let failure = DispatchQueue.getSpecific(key: onQueue) == true ? add() : queue.sync(execute: add)
        if let failure { throw failure }
    }

    /// Stops every running service, the last added first. Later calls do nothing.
    public func stop() {
        let running: [any Service] = queue.sync {
            guard !stopping else { return [] }
            stopping = true
            defer { for i in entries.indices { entries[i].running = false } }
            return entries.filter(\.running).map(\.service).reversed()
        }
        for service in running {
            logger.debug("\(service.name): stopping")
            service.stop()
        }
    }

    /// Stops `service` if it runs, lets `reconfigure` change it, and starts it again (a
    /// live reload). Its failure policy applies to the new start as to the first.
    public func restart(_ service: any Service, reconfigure: () -> Void) {
        queue.sync {
            guard !stopping, let index = entries.firstIndex(where: { $0.service === service && !$0.retired }) else {
                reconfigure()
                return
            }
            if entries[index].running {
                service.stop()
                entries[index].running = false
            }
            reconfigure()
            entries[index].nextDelay = nil
            if let failure = launch(index) { logger.error("\(failure)") }
        }
    }

    /// Stops `old` and starts `new` in its place in the order (a live reload of a part that
    /// is made anew, such as the state saver with another file).
    public func replace(_ old: any Service, with new: any Service) {
        queue.sync {
            guard !stopping, let index = entries.firstIndex(where: { $0.service === old && !$0.retired }) else { return }
            if entries[index].running { old.stop() }
            entries[index].service = new
            entries[index].running = false
            entries[index].nextDelay = nil
            if let failure = launch(index) { logger.error("\(failure)") }
        }
    }

    /// Stops `service` for good (a part the new config no longer has).
    public func remove(_ service: any Service) {
        queue.sync {
            guard !stopping, let index = entries.firstIndex(where: { $0.service === service && !$0.retired }) else { return }
            if entries[index].running { service.stop() }
            entries[index].running = false
            entries[index].retired = true
        }
    }

    /// The restarts so far of the service called `name` (for tests and status).
    public func restarts(of name: String) -> Int {
        queue.sync { entries.first { $0.service.name == name }?.restarts ?? 0 }
    }

    // MARK: On `queue`

    private func launch(_ index: Int) -> Failure? {
        let service = entries[index].service
        entries[index].run += 1
        let run = entries[index].run
        do {
            try service.start { [weak self] error in
                guard let self else { return }
                self.queue.async { self.died(index, run: run, error) }
            }
            entries[index].running = true
            entries[index].startedAt = MonotonicClock.now()
            return nil
        } catch let error as BoxMustNotRun {
            return .cannotStart(service: service.name, error)
        } catch {
            switch service.policy {
            case .required:
                return .cannotStart(service: service.name, error)
            case .optional:
                logger.error("\(service.name): cannot start (\(error)); running without it")
            case .restarted:
                scheduleRestart(index, after: error, starting: true)
            }
            return nil
        }
    }

    private func died(_ index: Int, run: Int, _ error: any Error) {
        guard !stopping, entries[index].running, entries[index].run == run else { return }
        let service = entries[index].service
        service.stop()
        entries[index].running = false
        switch service.policy {
        case .required:
            logger.critical("\(service.name) stopped: \(error)")
            onFailure(.died(service: service.name, error))
        case .optional:
            logger.error("\(service.name) stopped: \(error); running without it")
        case .restarted:
            scheduleRestart(index, after: error, starting: false)
        }
    }

    private func scheduleRestart(_ index: Int, after error: any Error, starting: Bool) {
        guard case .restarted(let first, let longest) = entries[index].service.policy else { return }
        let ranFor = Double(MonotonicClock.now() - entries[index].startedAt) / 1e9
        var delay = entries[index].nextDelay ?? first
        if !starting, entries[index].startedAt > 0, ranFor >= longest { delay = first }
        entries[index].nextDelay = min(longest, delay * 2)
        let name = entries[index].service.name
        logger.error("\(name) \(starting ? "cannot start" : "stopped"): \(error); starting it again in \(Self.format(delay)) s")
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, !self.stopping, !self.entries[index].running, !self.entries[index].retired else { return }
            self.entries[index].restarts += 1
            if self.launch(index) == nil, self.entries[index].running {
                self.logger.notice("\(name): running again")
            }
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
