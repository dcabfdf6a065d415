import Logging

/// The configured jingles, decoded when the config is read (at the start and on each
/// edit, never on the audio thread) and handed to the engine when one is asked for.
public final class JinglePlayer: Sendable {
    private let play: @Sendable (JingleSound) -> Void
    private let logger: Logger
    private let current = ConditionLocked(Current())
    private struct Current {
        var sounds: [Jingle: JingleSound] = [:]
        var volume = 40
    }

    /// `play` takes a jingle to the output (`AudioEngine.playJingle`).
    public init(logger: Logger, play: @escaping @Sendable (JingleSound) -> Void) {
        self.logger = logger
        self.play = play
    }

    /// Reads the files `settings` names; one that cannot be used is said once, with
    /// why, and that jingle stays silent.
    public func configure(_ settings: JukeboxConfig.Jingles) {
        var sounds: [Jingle: JingleSound] = [:]
        for (jingle, path) in settings.sounds {
            do {
                sounds[jingle] = try JingleSound.load(path, gain: 1)
            } catch {
                logger.warning("jingles: \(jingle): \(error); that jingle stays silent")
            }
        }
        current.withLock {
            $0.sounds = sounds
            $0.volume = settings.volume
        }
    }

    /// Plays `jingle`, if one is set, at the jingles' level or the music's `volume`,
    /// whichever is lower.
    public func play(_ jingle: Jingle, musicVolume volume: Int) {
        let (sound, level) = current.withLock { ($0.sounds[jingle], $0.volume) }
        guard var sound else { return }
        sound.gain = Float(VolumeCurve.amplitude(min(level, volume)))
        play(sound)
    }
}
