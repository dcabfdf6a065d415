/// A time of day on the local clock, to the minute: "21:30".
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Minutes since midnight, 0..<1440.
    public let minutes: Int

    public init(minutes: Int) { self.minutes = ((minutes % 1440) + 1440) % 1440 }

    public init(hour: Int, minute: Int) { self.init(minutes: hour * 60 + minute) }

    /// "HH:MM" (or "H:MM"), 00:00 to 23:59; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.minutes < b.minutes }

    public var description: String {
        let (h, m) = minutes.quotientAndRemainder(dividingBy: 60)
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }
}

/// The local wall clock, read fresh each time (so a change of time zone or summer time
/// is seen at the next reading): the time of day, and the seconds into the minute.
public enum LocalClock {
    public static func now() -> (time: TimeOfDay, second: Int) {
        tzset()
        var t = time(nil)
        var parts = tm()
        localtime_r(&t, &parts)
        return (TimeOfDay(hour: Int(parts.tm_hour), minute: Int(parts.tm_min)), Int(parts.tm_sec))
    }
}

#if canImport(Glibc)
import Glibc
#endif
