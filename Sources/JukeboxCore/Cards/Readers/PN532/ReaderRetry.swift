/// How a reader that talks to its device (a PN532) copes with it failing: the first
/// failure is logged and the ones after it are not, the device is tried again after a
/// growing wait (0.5 s doubling up to 4 s, so a reader plugged back in is found within
/// seconds without a dead one costing much), and its return is logged once. A few polls
/// failing in a row mean the device is gone; one is a glitch on the line.
struct ReaderRetry: Equatable {
    static let firstWait: UInt64 = 500_000_000
    static let longestWait: UInt64 = 4_000_000_000
    /// Polls that fail in a row before the device is closed and opened again.
    static let failedPollsToReopen = 3

    /// Failed opens in a row; 0 while the device works.
    private(set) var failedOpens = 0
    private(set) var failedPolls = 0

    /// What to do after an open that failed: how long to wait before the next, and
    /// whether to log it (the first of a run only).
    mutating func openFailed() -> (wait: UInt64, log: Bool) {
        failedOpens += 1
        let doublings = min(failedOpens - 1, 3)
        return (min(Self.firstWait << UInt64(doublings), Self.longestWait), failedOpens == 1)
    }

    /// The device opened; true when that ends a failure that was logged (its return is
    /// logged too).
    mutating func opened() -> Bool {
        let returned = failedOpens > 0
        failedOpens = 0
        failedPolls = 0
        return returned
    }

    /// A poll failed; true when the device is to be given up and opened again (and the
    /// loss logged: the opens that fail after it are the same outage).
    mutating func pollFailed() -> Bool {
        failedPolls += 1
        guard failedPolls >= Self.failedPollsToReopen else { return false }
        failedPolls = 0
        failedOpens = 1
        return true
    }

    mutating func pollSucceeded() { failedPolls = 0 }
}
