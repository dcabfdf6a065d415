/// What `idle` waits for: MPD's subsystems. The box reports player, mixer, options,
/// playlist, output, stored_playlist, database (a scan changed the library), update
/// (an update job started or ended), subscription and message (client-to-client
/// messages) and sticker; the others are accepted, as MPD accepts them, and wait for
/// changes the box does not make (yet).
public enum IdleSubsystem: String, CaseIterable, Sendable, Hashable {
    case database, update
    case storedPlaylist = "stored_playlist"
    case playlist, player, mixer, output, options, partition, sticker, subscription, message, neighbor, mount

    /// Each subsystem by its name: a hashed lookup, where `init(rawValue:)` compares the
    /// name with every case in turn, on every `idle`.
    static let named = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// This subsystem alone, as a set.
    public var only: IdleSubsystems { IdleSubsystems(rawValue: 1 << UInt16(Self.allCases.firstIndex(of: self)!)) }
}

/// A set of subsystems as bits: a change reaches idle clients on the control thread's
/// quickest path, where a hashed `Set` cost allocations and hashing on every change.
public struct IdleSubsystems: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let database = IdleSubsystem.database.only
    public static let update = IdleSubsystem.update.only
    public static let storedPlaylist = IdleSubsystem.storedPlaylist.only
    public static let playlist = IdleSubsystem.playlist.only
    public static let player = IdleSubsystem.player.only
    public static let mixer = IdleSubsystem.mixer.only
    public static let output = IdleSubsystem.output.only
    public static let options = IdleSubsystem.options.only
    public static let sticker = IdleSubsystem.sticker.only
    public static let subscription = IdleSubsystem.subscription.only
    public static let message = IdleSubsystem.message.only
    public static let all = IdleSubsystems(rawValue: 1 << UInt16(IdleSubsystem.allCases.count) - 1)

    /// The subsystems the player's changes touch, as MPD names them. Every fact of
    /// playback not named here (the state, the track, its tags, a seek, and any added
    /// later) is `player`; an error set or cleared wakes no one.
    public init(_ changes: PlayerChanges) {
        self = []
        if !changes.subtracting([.mixer, .options, .playlist, .output, .error]).isEmpty { insert(.player) }
        if changes.contains(.mixer) { insert(.mixer) }
        if changes.contains(.options) { insert(.options) }
        if changes.contains(.playlist) { insert(.playlist) }
        if changes.contains(.output) { insert(.output) }
    }

    /// Each subsystem's `changed:` line, by bit.
    private static let lines = IdleSubsystem.allCases.map { "changed: \($0.rawValue)\n" }
    /// The answers for one subsystem, made once: what nearly every change ends.
    private static let singleAnswers = lines.map { $0 + "OK\n" }

    /// MPD's answer to an idle that these changes end: a `changed:` line for each, in
    /// the order of `IdleSubsystem`, then OK.
    var idleAnswer: String {
        if rawValue != 0, rawValue & (rawValue - 1) == 0 { return Self.singleAnswers[rawValue.trailingZeroBitCount] }
        var answer = ""
        for (bit, line) in Self.lines.enumerated() where rawValue & 1 << bit != 0 { answer += line }
        return answer + "OK\n"
    }
}
