/// What a change to the player touched, said by the player at the point where it makes
/// it (as MPD raises its idle events where a change happens), never worked out later by
/// comparing statuses. Each goes out with the status it produced (`PlayerEvent.changed`).
public struct PlayerChanges: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Playing, paused, stopped, loading or failed.
    public static let state = PlayerChanges(rawValue: 1 << 0)
    /// The current entry, or the track that plays (another, the same again, or none).
    public static let track = PlayerChanges(rawValue: 1 << 1)
    /// What the playing track's tags say: it opened, or a station sent a new title.
    public static let tags = PlayerChanges(rawValue: 1 << 8)
    /// The place in the track was moved (a seek).
    public static let seeked = PlayerChanges(rawValue: 1 << 2)
    /// The volume.
    public static let mixer = PlayerChanges(rawValue: 1 << 3)
    /// repeat, random, single or consume.
    public static let options = PlayerChanges(rawValue: 1 << 4)
    /// The queue's entries, or the tags of one (its version moved).
    public static let playlist = PlayerChanges(rawValue: 1 << 5)
    /// Where the audio goes: a device opened, lost, back or changed.
    public static let output = PlayerChanges(rawValue: 1 << 6)
    /// The error the status shows was set or cleared.
    public static let error = PlayerChanges(rawValue: 1 << 7)
}
