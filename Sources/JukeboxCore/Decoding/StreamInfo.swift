/// Interleaved little-endian integer PCM, the only sample layout the decoders produce.
/// 24-bit is packed in three bytes (ALSA's S24_3LE, WAV's 24-bit), so decoded bytes
/// can go to a WAV file or an ALSA PCM without repacking.
public enum SampleFormat: Sendable, Hashable {
    case s16
    case s24
    case s32

    public var bytesPerSample: Int {
        switch self {
        case .s16: 2
        case .s24: 3
        case .s32: 4
        }
    }

    public var bitsPerSample: Int { bytesPerSample * 8 }

    /// The container that holds `bits` significant bits without losing any.
    public init?(containing bits: Int) {
        switch bits {
        case 1...16: self = .s16
        case 17...24: self = .s24
        case 25...32: self = .s32
        default: return nil
        }
    }
}

public struct StreamInfo: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    public var sampleFormat: SampleFormat
    /// Exact length in frames (one sample per channel); 0 for a live stream.
    public var totalFrames: Int64
    /// The encoded bits a second an MP3 states in its frames, for what is not yet decoded
    /// of a stream; nil where the format does not say (FLAC, WAV).
    public var bitrate: Int?

    public init(sampleRate: Int, channels: Int, sampleFormat: SampleFormat, totalFrames: Int64) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
        self.totalFrames = totalFrames
    }

    public var bytesPerFrame: Int { channels * sampleFormat.bytesPerSample }
    public var durationSeconds: Double { Double(totalFrames) / Double(sampleRate) }

    /// The frame at `seconds`, rounded to the nearest frame.
    public func frame(atSeconds seconds: Double) -> Int64 {
        Int64((seconds * Double(sampleRate)).rounded())
    }

    static let supportedRates = 8_000...192_000
    static let supportedChannels = 1...8

    /// Refuses streams the output path is not built for, with the reason.
    func validated(_ file: String) throws -> StreamInfo {
        guard Self.supportedRates.contains(sampleRate) else {
            throw MediaError.unsupported(file, "sample rate \(sampleRate) Hz is outside 8–192 kHz")
        }
        guard Self.supportedChannels.contains(channels) else {
            throw MediaError.unsupported(file, "\(channels) channels (1 to 8 are supported)")
        }
        return self
    }
}

public enum ContainerFormat: String, Sendable, Codable {
    case flac
    case mp3
    case wav
    /// Ogg Vorbis.
    case ogg
    /// Ogg Opus.
    case opus
    /// MP4/M4A/M4B: AAC or ALAC, through FFmpeg.
    case mp4
}
