/// Volume, ReplayGain, fade-in and the sleep timer's fade-out, applied to PCM on its way
/// to the device in one multiplication. At full volume with no ReplayGain and no fade the audio passes
/// untouched (bit-exact); otherwise it is worked on in a scratch buffer kept between
/// calls, so steady playback allocates nothing. Audio thread only.
final class GainStage {
    private(set) var volume = 100
    /// The playing track's ReplayGain factor (`ReplayGainRule.scale`).
    private var replayGain = 1.0
    /// The level the last block ended at; nil before the first, which starts at its
    /// target (ramping from full scale would open the music with a loud burst).
    private var gain: Double?
    private var fadeLength = 0
    private var fadeRemaining = 0
    /// The sleep timer's fade: its length and how far it has come, in seconds of audio
    /// written (so a change of sample rate midway keeps its pace). Past its end the level
    /// stays at silence until `restoreLevel`.
    private var sleepFade: (seconds: Double, done: Double)?
    private var scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    deinit { scratch.deallocate() }

    /// A new volume (0–100); it ramps in over the next block, so there is no click.
    func setVolume(_ volume: Int) { self.volume = max(0, min(100, volume)) }

    /// The level for the audio that follows, ramped in like a volume change.
    func setReplayGain(_ scale: Double) { replayGain = scale }

    /// The next `frames` frames fade in from silence.
    func fadeIn(over frames: Int) {
        fadeLength = frames
        fadeRemaining = frames
    }

    func cancelFade() { fadeRemaining = 0 }

    /// The audio written from now fades out over `seconds` (`SleepFade`), then stays silent.
    func fadeOut(over seconds: Double) { sleepFade = (max(0.001, seconds), 0) }

    /// Back to the level set, ramped in over the next block (after the sleep timer's pause).
    func restoreLevel() { sleepFade = nil }

    private var sleepLevel: Double { sleepFade.map { SleepFade.level(at: $0.done / $0.seconds) } ?? 1 }

    /// `source` with the gain applied: `source` itself when nothing changes it, else the
    /// scratch buffer, valid until the next call.
    func process(_ source: UnsafeRawBufferPointer, frames: Int, format: OutputFormat) -> UnsafeRawBufferPointer {
        if let fade = sleepFade { sleepFade = (fade.seconds, fade.done + Double(frames) / Double(max(1, format.sampleRate))) }
        let target = VolumeCurve.amplitude(volume) * replayGain * sleepLevel
        let from = gain ?? target
        guard target != 1 || from != 1 || fadeRemaining > 0 else {
            gain = target
            return source
        }
        let bytes = source.count
        if scratch.count < bytes {
            scratch.deallocate()
            scratch = .allocate(byteCount: bytes, alignment: 16)
        }
        let out = scratch.baseAddress!
        out.copyMemory(from: source.baseAddress!, byteCount: bytes)
        GainRamp.apply(out, frames: frames, format: format, from: from, to: target)
        if fadeRemaining > 0 {
            let n = min(frames, fadeRemaining)
            let done = Double(fadeLength - fadeRemaining)
            GainRamp.apply(out, frames: n, format: format, from: done / Double(fadeLength), to: (done + Double(n)) / Double(fadeLength))
            fadeRemaining -= n
        }
        gain = target
        return UnsafeRawBufferPointer(start: out, count: bytes)
    }
}
