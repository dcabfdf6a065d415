#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC in nanoseconds: the clock the kernel stamps GPIO edges with (and evdev
/// events, once asked), so input, player and audio thread times compare directly.
public enum MonotonicClock {
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// poll()'s timeout until the earliest of `deadlines`: whole milliseconds rounded up
    /// (so a wake-up never comes early), 0 for one already past, at most a minute, and -1
    /// (no timeout) for none.
    static func pollTimeout(until deadlines: [UInt64], now: UInt64 = now()) -> Int32 {
        guard let first = deadlines.min() else { return -1 }
        return first <= now ? 0 : Int32(min(60_000, (first - now + 999_999) / 1_000_000))
    }

    public static func sleep(until deadline: UInt64) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
