/// The player's side of Snapcast's stream properties, read from the box's `status`:
/// what snapserver shows and which controls it offers. Metadata travels apart
/// (`SnapcastMetadata`), as Snapcast keeps the last metadata it was sent.
public struct PlayerProperties: Equatable, Sendable {
    public enum PlaybackStatus: String, Sendable { case playing, paused, stopped }
    /// MPRIS's loop status from MPD's repeat and single.
    public enum LoopStatus: String, Sendable { case none, track, playlist }

    public var playbackStatus: PlaybackStatus
    public var loopStatus: LoopStatus
    public var shuffle: Bool
    /// Nil when the box has no volume to give (MPD's -1).
    public var volume: Int?
    public var rate: Double
    /// Seconds into the track; nil when stopped.
    public var position: Double?
    public var queueLength: Int
    public var duration: Double?

    public init(status: MPDFields) {
        playbackStatus = switch status["state"] {
        case "play": .playing
        case "pause": .paused
        default: .stopped
        }
        let repeats = status["repeat"] == "1"
        // `single` alone stops after the track: MPRIS has no word for it, so none.
        loopStatus = !repeats ? .none : status["single"] == "1" ? .track : .playlist
        shuffle = status["random"] == "1"
        volume = status["volume"].flatMap { Int($0) }.flatMap { $0 >= 0 ? min($0, 100) : nil }
        // The box lists `speed` only when it is not 1.
        rate = status["speed"].flatMap { Double($0) }.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 1
        position = playbackStatus == .stopped ? nil : status["elapsed"].flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
        queueLength = status["playlistlength"].flatMap { Int($0) } ?? 0
        duration = status["duration"].flatMap { Double($0) }.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }

    /// The properties as snapserver reads them. The box can always be controlled; moving
    /// on and playing need something queued, seeking a track of known length.
    public var json: [String: JSONValue] {
        let queued = queueLength > 0
        var out: [String: JSONValue] = [
            "playbackStatus": .string(playbackStatus.rawValue),
            "loopStatus": .string(loopStatus.rawValue),
            "shuffle": .bool(shuffle),
            "rate": .double(rate),
            "canGoNext": .bool(queued && playbackStatus != .stopped),
            "canGoPrevious": .bool(queued && playbackStatus != .stopped),
            "canPlay": .bool(queued),
            "canPause": .bool(queued),
            "canSeek": .bool(playbackStatus != .stopped && duration != nil),
            "canControl": .bool(true),
        ]
        if let volume { out["volume"] = .int(volume) }
        if let position { out["position"] = .double(position) }
        return out
    }
}
