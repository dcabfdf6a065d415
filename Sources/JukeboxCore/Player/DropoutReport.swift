/// Decides when the audio thread reports the output's underruns: the first at once, then
/// at most one report per `interval`, carrying the running total, so a box that keeps
/// running dry says so without filling the journal.
struct DropoutReport {
    let interval: UInt64
    private var reported = 0
    private var lastReportAt: UInt64?

    init(interval: UInt64 = 10_000_000_000) { self.interval = interval }

    /// The total to report now, or nil when nothing new happened or it is too soon.
    mutating func due(total: Int, now: UInt64) -> Int? {
        guard total > reported else { return nil }
        if let lastReportAt, now &- lastReportAt < interval { return nil }
        reported = total
        lastReportAt = now
        return total
    }
}
