import Foundation
@testable import JukeboxCore

/// Collects engine events from its threads, and waits for one.
final class EventLog: @unchecked Sendable {
    private let lock = NSCondition()
    private var events: [EngineEvent] = []

    func append(_ event: EngineEvent) {
        lock.lock()
        events.append(event)
        lock.broadcast()
        lock.unlock()
    }

    var all: [EngineEvent] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }

    /// Waits up to `seconds` for an event matching `match`.
    @discardableResult
    func wait(seconds: Double = 20, for match: (EngineEvent) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        lock.lock()
        defer { lock.unlock() }
        while !events.contains(where: match) {
            if !lock.wait(until: deadline) { return events.contains(where: match) }
        }
        return true
    }
}

extension EngineEvent {
    var isFinished: Bool { if case .finished = self { true } else { false } }
    var failure: String? {
        switch self {
        case .trackFailed(_, let e): "\(e)"
        case .outputFailed(let e): "\(e)"
        default: nil
        }
    }
}
