/// A jingle decoded whole into memory: interleaved samples in -1...1 at the file's own
/// rate and channel count, and the level it plays at.
public struct JingleSound: Sendable, Equatable {
    /// Jingles are cues, not music: anything longer is refused, which bounds the memory
    /// (at most 5 s × 8 channels × 192 kHz of floats) and the time the audio thread spends
    /// converting one.
    public static let longestSeconds = 5.0

    public var samples: [Float]
    public var sampleRate: Int
    public var channels: Int
    /// The amplitude it is mixed at (from `[jingles] volume`).
    public var gain: Float

    public var frames: Int { channels > 0 ? samples.count / channels : 0 }

    public init(samples: [Float], sampleRate: Int, channels: Int, gain: Float) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.channels = channels
        self.gain = gain
    }

    /// Decodes `path` (any format the box plays; a short WAV is what the docs suggest).
    public static func load(_ path: String, gain: Float) throws -> JingleSound {
        let decoder = try AudioFile.open(path)
        let info = decoder.info
        guard (1...8).contains(info.channels), (8_000...192_000).contains(info.sampleRate) else {
            throw JingleError.unsuitable(path, "\(info.channels) channels at \(info.sampleRate) Hz")
        }
        let limit = Int(longestSeconds * Double(info.sampleRate))
        let bytesPerFrame = info.channels * info.sampleFormat.bytesPerSample
        var samples: [Float] = []
        samples.reserveCapacity(min(limit, Int(max(0, info.totalFrames))) * info.channels)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096 * bytesPerFrame, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let frames = try decoder.read(into: buffer)
            if frames == 0 { break }
            guard samples.count / info.channels + frames <= limit else {
                throw JingleError.unsuitable(path, "longer than \(Int(longestSeconds)) s")
            }
            PCMSamples.appendFloats(from: UnsafeRawBufferPointer(buffer), count: frames * info.channels, format: info.sampleFormat, to: &samples)
        }
        guard !samples.isEmpty else { throw JingleError.unsuitable(path, "no audio in it") }
        return JingleSound(samples: samples, sampleRate: info.sampleRate, channels: info.channels, gain: gain)
    }
}

public enum JingleError: Error, CustomStringConvertible {
    case unsuitable(String, String)

    public var description: String {
        switch self {
        case .unsuitable(let path, let reason): "\(path): \(reason)"
        }
    }
}
