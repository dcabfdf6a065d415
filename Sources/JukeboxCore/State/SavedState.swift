/// What the state file holds: the player's memory, the identity of the track it names,
/// and the queue's source, under a format name and version so a foreign or future file
/// is told apart from a broken one.
public struct SavedState: Sendable, Equatable, Codable {
    public static let formatName = "jukebox-state"
    public static let currentVersion = 1

    public var format = SavedState.formatName
    public var version = SavedState.currentVersion
    /// The library, or the playlist played.
    public var source: QueueSource
    /// The size and modification time of `memory.path` when saved.
    public var identity: FileIdentity?
    public var memory: PlaybackMemory
    /// The queue was a client's, kept in the `QueueFile` beside this one (nil or false:
    /// the queue was the library's, or `source`'s playlist).
    public var clientQueue: Bool?
    /// Where each card's music was left (nil in a file from before cards).
    public var cards: [CardPlaces.Place]?

    public init(source: QueueSource, identity: FileIdentity?, memory: PlaybackMemory, clientQueue: Bool? = nil) {
        self.source = source
        self.identity = identity
        self.memory = memory
        self.clientQueue = clientQueue
    }
}
