/// A jingle on the audio thread: its sound, the samples made for the output's format the
/// first time it is mixed into audio of that format, and how far it has played.
/// Confined to the audio thread.
final class JingleVoice {
    let sound: JingleSound
    private var format: OutputFormat?
    private var samples: [Float] = []
    /// Samples already mixed.
    private var played = 0

    init(_ sound: JingleSound) { self.sound = sound }

    var isFinished: Bool { format != nil && played >= samples.count }

    /// Frames still to play in `format` (converting for it if needed).
    func remainingFrames(in format: OutputFormat) -> Int {
        prepare(for: format)
        return (samples.count - played) / format.channels
    }

    /// Adds the next `frames` frames of the jingle into `data`. A jingle whose format the
    /// output changed under it is made again for the new one and carries on from the
    /// same place in time.
    func mix(into data: UnsafeMutableRawPointer, frames: Int, format: OutputFormat) {
        prepare(for: format)
        let count = min(frames * format.channels, samples.count - played)
        guard count > 0 else { return }
        samples.withUnsafeBufferPointer { all in
            PCMSamples.mix(UnsafeBufferPointer(rebasing: all[played..<played + count]), into: data, format: format.sampleFormat)
        }
        played += count
    }

    private func prepare(for new: OutputFormat) {
        guard new != format else { return }
        let elapsed = format.map { Double(played / $0.channels) / Double($0.sampleRate) } ?? 0
        // libsoxr refusing leaves the jingle silent rather than the music.
        samples = sound.prepared(for: new) ?? []
        played = min(samples.count, Int(elapsed * Double(new.sampleRate)) * new.channels)
        format = new
    }
}
