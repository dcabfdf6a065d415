import TOMLKit

/// `[sleep]`, `[quiet_hours]` and `[key_lock]`, read as the rest of the file is: every
/// mistake named with its line.
extension ConfigLoader.Reader {
    static let timerSections = ["sleep", "quiet_hours", "key_lock"]

    func readTimers() throws -> TimersConfig {
        var timers = defaults.timers
        if let t = try section("sleep") {
            let s = "sleep"
            try allow(t, s, ["fade_seconds", "steps"])
            timers.sleep.fadeSeconds = try double(t, s, "fade_seconds", 0...600) ?? timers.sleep.fadeSeconds
            if let value = t["steps"] {
                let usage = "steps must be a list of minutes from 0.1 to 720, such as [15, 30, 60]"
                guard let array = value.array, !array.isEmpty else { throw error(s, "steps", usage) }
                timers.sleep.steps = try array.map { item in
                    guard let minutes = item.double ?? item.int.map(Double.init), SleepRequest.allowedMinutes.contains(minutes) else {
                        throw error(s, "steps", usage)
                    }
                    return minutes
                }
            }
        }
        if let t = try section("quiet_hours") {
            let s = "quiet_hours"
            try allow(t, s, ["start", "end", "max_volume", "start_volume"])
            func time(_ key: String) throws -> TimeOfDay {
                guard let text = try string(t, s, key) else {
                    throw error(s, nil, "[quiet_hours] needs start and end, such as start = \"19:30\" and end = \"07:00\"")
                }
                guard let time = TimeOfDay(text) else { throw error(s, key, "\(key) is \"\(text)\"; it must be a time of day, HH:MM, such as \"19:30\"") }
                return time
            }
            let start = try time("start"), end = try time("end")
            guard start != end else { throw error(s, "end", "end is the same as start (\(start)); quiet hours need some time between") }
            let maxVolume = try int(t, s, "max_volume", 0...100) ?? 30
            let startVolume = try int(t, s, "start_volume", 0...100) ?? maxVolume
            guard startVolume <= maxVolume else {
                throw error(s, "start_volume", "start_volume (\(startVolume)) is above max_volume (\(maxVolume))")
            }
            timers.quietHours = QuietHours(start: start, end: end, maxVolume: maxVolume, startVolume: startVolume)
        }
        if let t = try section("key_lock") {
            try allow(t, "key_lock", ["cards"])
            timers.cardsWhileLocked = try bool(t, "key_lock", "cards") ?? timers.cardsWhileLocked
        }
        return timers
    }
}
