/// A rotary encoder's two lines (A and B) as detents turned, counting only complete,
/// valid Gray-code movements.
///
/// The decoder counts quarter steps (+1 for each transition in the clockwise order
/// 00 → 10 → 11 → 01 → 00, written AB; -1 the other way) since the last rest position.
/// A detent counts when the knob comes to rest again having moved a whole detent in one
/// direction. A bounce goes forward and back, so it nets to zero; an impossible jump
/// (both lines at once: an edge was lost) disarms the decoder until the next rest position.
/// Rest positions: 00 for 4 transitions per detent; 00 and 11 for 2; every state for 1.
public struct QuadratureDecoder: Sendable, Equatable {
    public let transitionsPerDetent: Int
    private var state: UInt8
    private var quarters = 0
    private var armed = true

    public init(transitionsPerDetent: Int, a: Bool = false, b: Bool = false) {
        precondition([1, 2, 4].contains(transitionsPerDetent))
        self.transitionsPerDetent = transitionsPerDetent
        state = Self.code(a, b)
    }

    /// The lines now read `a` and `b`; returns +1 (clockwise), -1, or 0 detents.
    public mutating func update(a: Bool, b: Bool) -> Int {
        let new = Self.code(a, b)
        guard new != state else { return 0 }
        let direction = Self.direction(from: state, to: new)
        state = new
        if direction == 0 { armed = false } else { quarters += direction }
        guard isRest(new) else { return 0 }
        defer { quarters = 0; armed = true }
        guard armed else { return 0 }
        if quarters == transitionsPerDetent { return 1 }
        if quarters == -transitionsPerDetent { return -1 }
        return 0
    }

    private func isRest(_ code: UInt8) -> Bool {
        switch transitionsPerDetent {
        case 4: return code == 0b00
        case 2: return code == 0b00 || code == 0b11
        default: return true
        }
    }

    private static func code(_ a: Bool, _ b: Bool) -> UInt8 { (a ? 2 : 0) | (b ? 1 : 0) }

    /// Position of each AB code in the clockwise cycle 00, 10, 11, 01.
    private static let order: [UInt8: Int] = [0b00: 0, 0b10: 1, 0b11: 2, 0b01: 3]

    private static func direction(from old: UInt8, to new: UInt8) -> Int {
        switch (order[new]! - order[old]! + 4) % 4 {
        case 1: return 1
        case 3: return -1
        default: return 0
        }
    }
}

/// Bigger steps for fast turns: each rule says "when this detent came less than
/// `withinMilliseconds` after the last one, move `steps` instead of one". The fastest
/// matching rule wins.
public struct Acceleration: Sendable, Equatable {
    public struct Rule: Sendable, Equatable {
        public var withinMilliseconds: Int
        public var steps: Int
        public init(withinMilliseconds: Int, steps: Int) { self.withinMilliseconds = withinMilliseconds; self.steps = steps }
    }

    public var rules: [Rule]
    private var last: (at: UInt64, direction: Int)?

    public init(_ rules: [Rule] = []) { self.rules = rules.sorted { $0.withinMilliseconds < $1.withinMilliseconds } }

    /// Steps for a detent in `direction` at kernel time `at`. A change of direction
    /// starts slow again.
    public mutating func steps(direction: Int, at: UInt64) -> Int {
        defer { last = (at, direction) }
        guard let last, last.direction == direction, at >= last.at else { return 1 }
        let gap = (at - last.at) / 1_000_000
        return rules.first { gap < UInt64($0.withinMilliseconds) }?.steps ?? 1
    }

    public static func == (a: Acceleration, b: Acceleration) -> Bool { a.rules == b.rules }
}
