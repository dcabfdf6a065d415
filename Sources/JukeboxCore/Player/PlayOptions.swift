/// How the queue goes on, as MPD's four independent switches: `repeat`, `random`,
/// `single` and `consume`. The box's play modes (once, repeat all, repeat one, shuffle),
/// which the mode button cycles and the screen shows, are a view over them.
///
/// | mode       | repeat | random | single |
/// |------------|--------|--------|--------|
/// | once       | 0      | 0      | 0      |
/// | repeat all | 1      | 0      | 0      |
/// | repeat one | 1      | 0      | 1      |
/// | shuffle    | 1      | 1      | 0      |
///
/// Choosing a mode sets those three and leaves `consume` alone.
public struct PlayOptions: Sendable, Equatable, Codable, BitwiseCopyable {
    public enum Single: String, Sendable, Codable, BitwiseCopyable {
        case off, on
        /// As `on` for the current track only: when it ends, single is off again.
        case oneshot
    }

    /// Whether a track played leaves the queue: `true` and `false` stand for on and off.
    public enum Consume: String, Sendable, BitwiseCopyable, ExpressibleByBooleanLiteral {
        case off, on
        /// As `on` for one track only: once it has left the queue, consume is off again (MPD 0.24).
        case oneshot

        public init(booleanLiteral on: Bool) { self = on ? .on : .off }
    }

    /// After the last track, start again from the first (with `single`: the same track again).
    public var `repeat` = false
    /// A random order in which every track plays once per cycle.
    public var random = false
    /// Stop after the current track (with `repeat`: play it again).
    public var single = Single.off
    /// A track played leaves the queue.
    public var consume = Consume.off

    public init(repeat r: Bool = false, random: Bool = false, single: Single = .off, consume: Consume = .off) {
        self.repeat = r
        self.random = random
        self.single = single
        self.consume = consume
    }

    /// One switch set on its own, the others kept: MPD's repeat, random, single and consume.
    public enum Switch: Sendable, Equatable {
        case `repeat`(Bool)
        case random(Bool)
        case single(Single)
        case consume(Consume)

        /// For the log: "repeat on", "single oneshot".
        public var label: String {
            switch self {
            case .repeat(let on): "repeat \(on ? "on" : "off")"
            case .random(let on): "random \(on ? "on" : "off")"
            case .single(let value): "single \(value.rawValue)"
            case .consume(let value): "consume \(value.rawValue)"
            }
        }
    }

    public mutating func set(_ change: Switch) {
        switch change {
        case .repeat(let on): self.repeat = on
        case .random(let on): random = on
        case .single(let value): single = value
        case .consume(let value): consume = value
        }
    }

    public init(mode: PlayMode, consume: Consume = .off) {
        switch mode {
        case .once: self.init(consume: consume)
        case .repeatAll: self.init(repeat: true, consume: consume)
        case .repeatOne: self.init(repeat: true, single: .on, consume: consume)
        case .shuffle: self.init(repeat: true, random: true, consume: consume)
        }
    }

    /// The nearest mode: random wins, then single with repeat, then repeat.
    public var mode: PlayMode {
        if random { return .shuffle }
        if single != .off, `repeat` { return .repeatOne }
        return `repeat` ? .repeatAll : .once
    }

    /// Words for the screen: the mode's, or what differs from it ("single", "shuffle once").
    public var label: String {
        var words: String
        switch (random, single, `repeat`) {
        case (true, _, true): words = "shuffle"
        case (true, _, false): words = "shuffle once"
        case (false, .off, true): words = "repeat all"
        case (false, .off, false): words = "once"
        case (false, _, true): words = "repeat one"
        case (false, _, false): words = "single"
        }
        if random, single != .off { words += ", single" }
        if consume != .off { words += ", consume" }
        return words
    }
}

/// A state file from before consume had a one-shot kept it as a boolean.
extension PlayOptions.Consume: Codable {
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let on = try? value.decode(Bool.self) {
            self = on ? .on : .off
            return
        }
        let name = try value.decode(String.self)
        guard let consume = Self(rawValue: name) else {
            throw DecodingError.dataCorruptedError(in: value, debugDescription: "consume is off, on or oneshot, not \(name)")
        }
        self = consume
    }

    public func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        try value.encode(rawValue)
    }
}
