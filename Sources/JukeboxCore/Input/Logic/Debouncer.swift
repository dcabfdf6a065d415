/// A line's level after contact bounce, decided on the kernel's edge timestamps.
///
/// A change counts once the line has kept its new level for the whole window: every edge
/// restarts the window, and when it runs out the last level seen is the line's level.
/// So a burst of bounces is one change, a glitch that returns to where it was is none, and
/// presses further apart than the window all count. The change is dated by the first edge
/// of its burst: that is when the contact moved.
public struct Debouncer: Sendable, Equatable {
    public struct Change: Sendable, Equatable {
        public var active: Bool
        /// Kernel timestamp (CLOCK_MONOTONIC, ns) of the burst's first edge.
        public var at: UInt64
    }

    public let window: UInt64
    public private(set) var level: Bool
    private var lastSeen: Bool
    private var burstStart: UInt64?
    /// When the current burst settles, if one is under way.
    public private(set) var deadline: UInt64?
    /// When the burst under way began: the level is uncertain from then on.
    public var pendingSince: UInt64? { deadline == nil ? nil : burstStart }

    public init(windowNanoseconds: UInt64, initial: Bool = false) {
        window = windowNanoseconds
        level = initial
        lastSeen = initial
    }

    /// An edge: the line now reads `active`, at kernel time `at`.
    public mutating func edge(active: Bool, at: UInt64) -> Change? {
        // Kernels report the level read after each edge, so the same level may come twice.
        if deadline == nil, active == level { lastSeen = active; return nil }
        lastSeen = active
        if burstStart == nil { burstStart = at }
        if window == 0 { return settle(now: at) }
        deadline = at + window
        return nil
    }

    /// The level change due by `now`, if the line has settled.
    public mutating func settle(now: UInt64) -> Change? {
        if window > 0 { guard let deadline, now >= deadline else { return nil } }
        deadline = nil
        defer { burstStart = nil }
        guard lastSeen != level, let start = burstStart else { return nil }
        level = lastSeen
        return Change(active: level, at: start)
    }
}
