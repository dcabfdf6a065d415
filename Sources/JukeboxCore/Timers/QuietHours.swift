/// Quiet hours (`[quiet_hours]`): from `start` to `end` on the local clock, crossing
/// midnight when `end` comes first, the volume is capped at `maxVolume`, and a louder
/// volume comes down to `startVolume` when they begin (or when the box starts in them).
/// Pure: a time of day in, whether it is quiet and when to look again out. The state is
/// read from the time each time, never from counting: a clock set, or summer time
/// skipping or repeating an hour, is right at the next look.
public struct QuietHours: Sendable, Equatable {
    public var start: TimeOfDay
    public var end: TimeOfDay
    public var maxVolume: Int
    public var startVolume: Int

    public init(start: TimeOfDay, end: TimeOfDay, maxVolume: Int, startVolume: Int) {
        self.start = start
        self.end = end
        self.maxVolume = maxVolume
        self.startVolume = startVolume
    }

    /// Longest between looks: a clock changed under the box is followed within this.
    public static let longestWait = 600

    /// Whether `time` falls in quiet hours (start included, end not).
    public func contains(_ time: TimeOfDay) -> Bool {
        if start == end { return false }
        return start < end ? (start <= time && time < end) : (time >= start || time < end)
    }

    /// The volume cap at `time` (nil: none).
    public func cap(at time: TimeOfDay) -> Int? { contains(time) ? maxVolume : nil }

    /// Seconds from `time` (and `second` into its minute) to the next start or end, at
    /// most `longestWait`, and at least 1.
    public func secondsToNextLook(from time: TimeOfDay, second: Int = 0) -> Int {
        func until(_ boundary: TimeOfDay) -> Int {
            let minutes = (boundary.minutes - time.minutes + 1440) % 1440
            return (minutes == 0 ? 1440 : minutes) * 60 - second
        }
        return max(1, min(Self.longestWait, until(start), until(end)))
    }
}

/// Follows quiet hours' beginnings and ends as the service looks: what to tell the player.
public struct QuietHoursTracker: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// Set the quiet hours' volume cap (nil: lift it).
        case cap(Int?)
        /// Bring a louder volume down to this (the start of quiet hours).
        case lowerVolume(to: Int)
    }

    public private(set) var hours: QuietHours?
    /// The cap in force (nil: none), as last told to the player; the player starts with none.
    private var capInForce: Int?

    public init() {}

    /// `hours` (nil: none configured) at `time`: what changed since the last look (the
    /// start, a boundary passed, a config edit).
    public mutating func look(_ hours: QuietHours?, at time: TimeOfDay) -> [Action] {
        let wasQuiet = capInForce != nil
        let quiet = hours?.contains(time) ?? false
        let cap = quiet ? hours?.maxVolume : nil
        var actions: [Action] = []
        if capInForce != cap { actions.append(.cap(cap)) }
        if quiet, !wasQuiet, let hours { actions.append(.lowerVolume(to: hours.startVolume)) }
        self.hours = hours
        capInForce = cap
        return actions
    }
}
