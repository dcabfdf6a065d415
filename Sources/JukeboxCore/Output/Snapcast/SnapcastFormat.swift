/// The one sample format a Snapcast stream carries, as snapserver's `sampleformat` writes
/// it: `RATE:BITS:CHANNELS`, 48000:16:2 by default. Snapcast keeps 24-bit samples in
/// four bytes (little-endian, the value in the low 24 bits), so a frame is 4, 8 or more
/// bytes, never a packed three.
public struct SnapcastFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var bits: Int
    public var channels: Int

    public init(sampleRate: Int = 48_000, bits: Int = 16, channels: Int = 2) {
        self.sampleRate = sampleRate
        self.bits = bits
        self.channels = channels
    }

    /// Parses `48000:16:2`; nil when the text is not one Snapcast takes.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let rate = Int(parts[0]), let bits = Int(parts[1]), let channels = Int(parts[2]),
              (8_000...384_000).contains(rate), [16, 24, 32].contains(bits), (1...8).contains(channels) else { return nil }
        self.init(sampleRate: rate, bits: bits, channels: channels)
    }

    public var bytesPerSample: Int { bits == 16 ? 2 : 4 }
    public var bytesPerFrame: Int { bytesPerSample * channels }
    public var description: String { "\(sampleRate):\(bits):\(channels)" }

    /// Whether audio of `format` goes out byte for byte as it is.
    func carries(_ format: OutputFormat) -> Bool {
        format.sampleRate == sampleRate && format.channels == channels
            && ((bits == 16 && format.sampleFormat == .s16) || (bits == 32 && format.sampleFormat == .s32))
    }
}
