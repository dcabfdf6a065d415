/// One card of the cards file: what it is called and what it does.
public struct CardEntry: Sendable, Equatable {
    public var id: CardID
    /// Shown on the screen and by `jukebox cards`; nil: the card's number.
    public var name: String?
    public var does: Does
    /// Where its `[card.ID]` header is in the file (1-based; 0 for one not read from a file).
    public var line: Int

    public enum Does: Sendable, Equatable {
        case play(CardMusic)
        case act(CardAction)
    }

    public init(id: CardID, name: String? = nil, does: Does, line: Int = 0) {
        self.id = id
        self.name = name
        self.does = does
        self.line = line
    }

    /// The card's name, else its number.
    public var title: String { name ?? id.text }
}

/// What a card that plays music plays, and how.
public struct CardMusic: Sendable, Equatable {
    public enum Target: Sendable, Equatable, CustomStringConvertible {
        /// A folder or file under the music folder, relative to it.
        case library(String)
        /// A stored playlist, by name.
        case playlist(String)
        /// An http(s) URL: a radio or a file on a server.
        case url(String)

        public var description: String {
            switch self {
            case .library(let path): path
            case .playlist(let name): "playlist \(name)"
            case .url(let url): url
            }
        }
    }

    public var target: Target
    /// Continue this card's own place (track, frame, speed) rather than the top.
    public var resume: Bool
    /// Nil: leave as it is.
    public var shuffle: Bool?
    public var `repeat`: Bool?
    /// A ceiling on the volume while this card's music plays.
    public var maxVolume: Int?
    public var speed: Double?

    public init(target: Target, resume: Bool = false, shuffle: Bool? = nil, repeat: Bool? = nil, maxVolume: Int? = nil, speed: Double? = nil) {
        self.target = target
        self.resume = resume
        self.shuffle = shuffle
        self.repeat = `repeat`
        self.maxVolume = maxVolume
        self.speed = speed
    }
}

/// What a card that does not play music does.
public enum CardAction: Sendable, Equatable, CustomStringConvertible {
    /// A button's action, by the name buttons use (`volume-up`, `play-pause`, `stop`...).
    case button(name: String, command: InputCommand)
    case volume(Int)
    case sleep(SleepRequest)
    /// Switch the box off (only with `[cards] allow_shutdown = true`).
    case shutdown

    public var description: String {
        switch self {
        case .button(let name, _): name
        case .volume(let level): "volume \(level)"
        case .sleep(let request): "sleep \(request)"
        case .shutdown: "shutdown"
        }
    }
}

extension CardEntry: CustomStringConvertible {
    /// What the card does, in one line: "plays Audiobooks/Dinosaurs (resumes, repeat)".
    public var description: String {
        switch does {
        case .act(let action): return action.description
        case .play(let music):
            var how: [String] = []
            if music.resume { how.append("resumes") }
            if let shuffle = music.shuffle { how.append(shuffle ? "shuffle" : "in order") }
            if let again = music.repeat { how.append(again ? "repeat" : "no repeat") }
            if let cap = music.maxVolume { how.append("volume at most \(cap)") }
            if let speed = music.speed { how.append("speed \(PlaybackSpeed.text(speed))") }
            return "plays \(music.target)" + (how.isEmpty ? "" : " (\(how.joined(separator: ", ")))")
        }
    }
}
