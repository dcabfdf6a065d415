#if canImport(Glibc)
import Glibc
#endif

/// The times `(modified-since 'T')` and `(added-since 'T')` take, as MPD reads them: ISO
/// 8601 in UTC or with an offset (`2024-05-01`, `2024-05`, `2024-05-01T12:30:00Z`,
/// `20240501T1230+0200`), else a UNIX time in seconds. A date or time cut short means
/// the start of that day, hour or minute.
enum FilterTime {
    struct Problem: Error { var message: String }

    static func seconds(_ text: String) throws(Problem) -> Int {
        do {
            return try iso8601(Array(text.utf8))
        } catch {
            if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let seconds = Int(text) { return seconds }
            throw error
        }
    }

    private static func iso8601(_ b: [UInt8]) throws(Problem) -> Int {
        var at = 0
        /// Up to `most` digits (at least one), as strptime takes a field.
        func number(most: Int) -> Int? {
            var value = 0, count = 0
            while at < b.count, count < most, b[at] >= 0x30, b[at] <= 0x39 {
                value = value * 10 + Int(b[at] - 0x30)
                at += 1
                count += 1
            }
            return count > 0 ? value : nil
        }
        func take(_ byte: UInt8) -> Bool {
            guard at < b.count, b[at] == byte else { return false }
            at += 1
            return true
        }
        let dash = UInt8(ascii: "-"), colon = UInt8(ascii: ":")
        let failedDate = Problem(message: "Failed to parse date")
        guard let year = number(most: 4) else { throw failedDate }
        let separated = take(dash)
        guard let month = number(most: 2), (1...12).contains(month) else { throw failedDate }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = 1
        if separated, at == b.count { return Int(timegm(&parts)) }  // a whole month
        guard !separated || take(dash), let day = number(most: 2), (1...31).contains(day) else { throw failedDate }
        parts.tm_mday = Int32(day)
        if take(UInt8(ascii: "T")) {
            let failedTime = Problem(message: "Failed to parse time of day")
            guard let hour = number(most: 2), hour < 24 else { throw failedTime }
            parts.tm_hour = Int32(hour)
            if take(colon) {
                guard let minute = number(most: 2), minute < 60 else { throw failedTime }
                parts.tm_min = Int32(minute)
                if take(colon) {
                    guard let second = number(most: 2), second <= 60 else { throw failedTime }
                    parts.tm_sec = Int32(second)
                }
            } else if let minute = number(most: 2), minute < 60 {
                parts.tm_min = Int32(minute)
                if let second = number(most: 2), second <= 60 { parts.tm_sec = Int32(second) }
            }
        }
        var seconds = Int(timegm(&parts))
        if take(UInt8(ascii: "Z")) {
        } else if at < b.count, b[at] == UInt8(ascii: "+") || b[at] == dash {
            let sign = b[at] == dash ? -1 : 1
            at += 1
            let failedOffset = Problem(message: "Failed to parse time zone offset")
            let start = at
            guard let first = number(most: 4) else { throw failedOffset }
            var (hours, minutes) = (first, 0)
            if at - start == 4 {
                (hours, minutes) = (first / 100, first % 100)
            } else if at - start == 2 {
                if take(colon) {
                    let minuteStart = at
                    guard let m = number(most: 2), at - minuteStart == 2 else { throw failedOffset }
                    minutes = m
                }
            } else {
                throw failedOffset
            }
            guard hours <= 13 else { throw Problem(message: "Time offset hours out of range") }
            guard minutes < 60 else { throw Problem(message: "Time offset minutes out of range") }
            seconds -= sign * (hours * 3600 + minutes * 60)
        }
        guard at == b.count else { throw Problem(message: "Garbage at end of time stamp") }
        return seconds
    }
}
