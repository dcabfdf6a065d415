/// Wrong passwords back off, per address: after a failure that address may try again
/// only after a delay that doubles from half a second up to a minute, and attempts
/// made sooner are refused unchecked. A right password clears its address. The table
/// holds at most `capacity` addresses (the one quiet longest goes), so a crowd of
/// addresses cannot grow it.
public struct LoginThrottle: Sendable {
    public struct Record: Sendable, Equatable {
        public var failures: Int
        /// Monotonic ns before which no attempt is checked.
        public var until: UInt64
        public var lastAttempt: UInt64
    }

    public enum Verdict: Sendable, Equatable {
        case check
        /// Too soon: try again after this many seconds.
        case wait(Double)
    }

    public private(set) var records: [String: Record] = [:]
    public let capacity: Int

    static let firstDelay: UInt64 = 500_000_000
    static let longestDelay: UInt64 = 60_000_000_000

    public init(capacity: Int = 256) { self.capacity = capacity }

    /// Whether an attempt from `peer` at `now` is checked at all.
    public func verdict(for peer: String, at now: UInt64) -> Verdict {
        guard let record = records[peer], now < record.until else { return .check }
        return .wait(Double(record.until - now) / 1e9)
    }

    /// A checked attempt failed: the failures in a row, and the delay before the next.
    @discardableResult
    public mutating func failed(_ peer: String, at now: UInt64) -> (failures: Int, delay: Double) {
        var record = records[peer] ?? Record(failures: 0, until: 0, lastAttempt: now)
        record.failures += 1
        let delay = min(Self.longestDelay, Self.firstDelay << UInt64(min(record.failures - 1, 10)))
        record.until = now + delay
        record.lastAttempt = now
        if records[peer] == nil, records.count >= capacity, let quietest = records.min(by: { $0.value.lastAttempt < $1.value.lastAttempt })?.key {
            records[quietest] = nil
        }
        records[peer] = record
        return (record.failures, Double(delay) / 1e9)
    }

    public mutating func succeeded(_ peer: String) { records[peer] = nil }
}
