/// MPD's `replay_gain_mode`: which of a file's loudness tags sets its level.
public enum ReplayGainMode: String, Sendable, CaseIterable, Codable {
    case off, track, album
    /// Album gains while the queue plays in order, track gains while it shuffles: an
    /// album keeps its quiet and loud songs, a shuffle of many albums plays at one level.
    case auto
}

/// How loudness tags become a level (`[playback]` `replay_gain*`), and the mode a client
/// may change (`replay_gain_mode`).
public struct ReplayGainSettings: Sendable, Equatable {
    public var mode = ReplayGainMode.auto
    /// Added to every tagged gain.
    public var preampDecibels = 0.0
    /// The gain of a file without loudness tags, while ReplayGain is on.
    public var missingPreampDecibels = 0.0
    /// A gain that would push the file's peak past full scale is lowered to meet it.
    public var preventClipping = true

    public init() {}

    static let preampRange = -15.0...15.0

    /// What the audio thread applies, with `auto` settled by whether the queue shuffles.
    public func rule(shuffling: Bool) -> ReplayGainRule {
        let use: ReplayGainRule.Use = switch mode {
        case .off: .none
        case .track: .track
        case .album: .album
        case .auto: shuffling ? .track : .album
        }
        return ReplayGainRule(use: use, preampDecibels: preampDecibels, missingPreampDecibels: missingPreampDecibels,
                              preventClipping: preventClipping)
    }
}

/// The level the audio thread gives each track: settled, so it needs nothing but the
/// track's tags. Applied by the gain stage with the volume, in the same multiplication.
public struct ReplayGainRule: Sendable, Equatable {
    public enum Use: Sendable, Equatable { case none, track, album }
    public var use: Use
    public var preampDecibels: Double
    public var missingPreampDecibels: Double
    public var preventClipping: Bool

    /// Every track as it is.
    public static let off = ReplayGainRule(use: .none, preampDecibels: 0, missingPreampDecibels: 0, preventClipping: true)

    /// The factor for a track with these tags. The gain asked for falls back to the other
    /// one when the file has only that (MPD does the same); a file with neither gets the
    /// missing preamp.
    public func scale(for tags: ReplayGainTags) -> Double {
        let chosen: (gain: Double?, peak: Double?)
        switch use {
        case .none: return 1
        case .track: chosen = tags.trackGain != nil ? (tags.trackGain, tags.trackPeak) : (tags.albumGain, tags.albumPeak)
        case .album: chosen = tags.albumGain != nil ? (tags.albumGain, tags.albumPeak) : (tags.trackGain, tags.trackPeak)
        }
        guard let gain = chosen.gain else { return Self.amplitude(missingPreampDecibels) }
        let scale = Self.amplitude(gain + preampDecibels)
        if preventClipping, let peak = chosen.peak, scale * peak > 1 { return 1 / peak }
        return scale
    }

    static func amplitude(_ decibels: Double) -> Double { pow(10, decibels / 20) }
}

#if canImport(Glibc)
import Glibc
#endif
