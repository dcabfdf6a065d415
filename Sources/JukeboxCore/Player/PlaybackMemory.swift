/// What the player needs to carry on after a restart or a power cut, as `Player.memory`
/// gives it and `Player.restore` takes it back. `StateFile` keeps it on disk.
public struct PlaybackMemory: Sendable, Equatable, Codable {
    /// Playing, paused or stopped (loading counts as playing, an error as stopped).
    public var state: PlayerState
    public var path: String?
    /// The frame of `path` heard last.
    public var frame: Int64
    /// The volume the user asked for.
    public var volume: Int
    public var mode: PlayMode
    /// Repeat, random, single and consume as set last (nil in a file from before they
    /// were kept: `mode` then stands for them).
    public var options: PlayOptions?
    /// The queue's history and shuffle cycle, valid for the track list `queueFingerprint` names.
    public var queue: QueueMemory
    public var queueFingerprint: QueueFingerprint
    /// Where each folder that keeps its place was left.
    public var places: [FolderPlaces.Place]

    public init(state: PlayerState, path: String?, frame: Int64, volume: Int, mode: PlayMode, options: PlayOptions? = nil,
                queue: QueueMemory, queueFingerprint: QueueFingerprint, places: [FolderPlaces.Place]) {
        self.state = state
        self.path = path
        self.frame = frame
        self.volume = volume
        self.mode = mode
        self.options = options
        self.queue = queue
        self.queueFingerprint = queueFingerprint
        self.places = places
    }
}

/// Names a track list by its paths in order (FNV-1a, 64 bits), so queue positions saved
/// with one list are never applied to another.
public struct QueueFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
    public var value: UInt64

    public init(paths: [String]) {
        var hash = FNV1a()
        for path in paths {
            hash.add(path.utf8)
            hash.add(CollectionOfOne(0x0a))  // a separator, so ["ab"] is not ["a", "b"]
        }
        value = hash.value
    }

    public init(value: UInt64) { self.value = value }

    public var description: String { String(value, radix: 16) }

    // As hex text: TOML integers are signed.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = UInt64(text, radix: 16) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a hex fingerprint: \(text)"))
        }
        self.value = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
