/// Ceilings on the volume beside the config's `max_volume`, each set by whoever owns it:
/// quiet hours, and the card that is playing. The lowest one holds; lifting one lets
/// the volume be turned up again, but never turns it up by itself.
public struct VolumeCaps: Sendable, Equatable {
    public enum Source: String, Sendable, Hashable, CaseIterable {
        case quietHours = "quiet hours"
        case card
    }

    private var caps: [Source: Int] = [:]

    public init() {}

    /// Sets (nil: lifts) the ceiling `source` asks for.
    public mutating func set(_ source: Source, to cap: Int?) { caps[source] = cap.map { max(0, min(100, $0)) } }

    public func cap(of source: Source) -> Int? { caps[source] }

    /// The range a volume may take: `minimum...maximum` from the config, topped by the
    /// lowest cap (never below `minimum`, which the config keeps under `maximum`).
    public func limits(minimum: Int, maximum: Int) -> ClosedRange<Int> {
        let top = min(maximum, caps.values.min() ?? maximum)
        return minimum...max(minimum, top)
    }
}
