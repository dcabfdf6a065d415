import CJukeboxStretch

/// SoundTouch's time stretch for one format: PCM in the format's own samples goes in, and
/// comes out at another tempo with its pitch kept. The float buffers it converts through
/// are made once, for blocks of at most `blockFrames`. One thread at a time. Public for
/// `jukebox decode --speed`, which measures what it costs.
public final class TimeStretch {
    public let format: OutputFormat
    public let blockFrames: Int
    private let handle: OpaquePointer
    private let floats: UnsafeMutableBufferPointer<Float>

    /// Nil when SoundTouch cannot take the format (a channel count it refuses).
    public init?(format: OutputFormat, tempo: Double, blockFrames: Int) {
        guard let handle = jukebox_stretch_new(UInt32(format.channels), UInt32(format.sampleRate)) else { return nil }
        jukebox_stretch_set_tempo(handle, tempo)
        self.format = format
        self.blockFrames = blockFrames
        self.handle = handle
        floats = .allocate(capacity: blockFrames * format.channels)
    }

    deinit {
        jukebox_stretch_free(handle)
        floats.deallocate()
    }

    /// Frames ready to be received.
    public var ready: Int { Int(jukebox_stretch_ready(handle)) }

    /// Takes `frames` (at most `blockFrames`) of PCM in `format`.
    public func put(_ pcm: UnsafeRawPointer, frames: Int) {
        precondition(frames <= blockFrames)
        FloatPCM.toFloat(pcm, count: frames * format.channels, format: format.sampleFormat, into: floats.baseAddress!)
        jukebox_stretch_put(handle, floats.baseAddress!, UInt32(frames))
    }

    /// Moves at most `frames` (at most `blockFrames`) ready frames into `pcm`, in `format`;
    /// returns how many.
    public func receive(into pcm: UnsafeMutableRawPointer, frames: Int) -> Int {
        let got = Int(jukebox_stretch_receive(handle, floats.baseAddress!, UInt32(min(frames, blockFrames))))
        FloatPCM.fromFloat(floats.baseAddress!, count: got * format.channels, format: format.sampleFormat, into: pcm)
        return got
    }

    /// Pushes out all it holds, to the exact length the tempo gives the audio put.
    public func flush() { jukebox_stretch_flush(handle) }

    /// Forgets what it holds.
    public func clear() { jukebox_stretch_clear(handle) }
}

/// Interleaved little-endian integer PCM to floats in -1...1 and back.
enum FloatPCM {
    static func toFloat(_ pcm: UnsafeRawPointer, count: Int, format: SampleFormat, into out: UnsafeMutablePointer<Float>) {
        switch format {
        case .s16:
            let s = pcm.assumingMemoryBound(to: Int16.self)
            for i in 0..<count { out[i] = Float(Int16(littleEndian: s[i])) * (1 / 32_768) }
        case .s24:
            let b = pcm.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                let raw = Int32(b[3 * i]) << 8 | Int32(b[3 * i + 1]) << 16 | Int32(b[3 * i + 2]) << 24
                out[i] = Float(raw >> 8) * (1 / 8_388_608)
            }
        case .s32:
            let s = pcm.assumingMemoryBound(to: Int32.self)
            for i in 0..<count { out[i] = Float(Int32(littleEndian: s[i])) * (1 / 2_147_483_648) }
        }
    }

    // Rounded by adding 1.5 × 2^23 (2^52 for a Double): the sum's low bits are then the
    // integer, rounded to nearest, with no conversion that checks its range, so the loop
    // runs as vector code. Integer conversions took more time than the stretch.
    static func fromFloat(_ samples: UnsafePointer<Float>, count: Int, format: SampleFormat, into pcm: UnsafeMutableRawPointer) {
        switch format {
        case .s16:
            let s = pcm.assumingMemoryBound(to: Int16.self)
            for i in 0..<count {
                let v = min(max(samples[i] * 32_768, -32_768), 32_767) + 12_582_912
                s[i] = Int16(truncatingIfNeeded: v.bitPattern).littleEndian
            }
        case .s24:
            let b = pcm.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                let v = Int32(truncatingIfNeeded: (min(max(Double(samples[i]) * 8_388_608, -8_388_608), 8_388_607) + 6_755_399_441_055_744).bitPattern)
                b[3 * i] = UInt8(truncatingIfNeeded: v)
                b[3 * i + 1] = UInt8(truncatingIfNeeded: v >> 8)
                b[3 * i + 2] = UInt8(truncatingIfNeeded: v >> 16)
            }
        case .s32:
            let s = pcm.assumingMemoryBound(to: Int32.self)
            // Float has 24 bits of mantissa: the stretch's output is 24-bit audio at best.
            for i in 0..<count {
                let v = min(max(Double(samples[i]) * 2_147_483_648, -2_147_483_648), 2_147_483_647) + 6_755_399_441_055_744
                s[i] = Int32(truncatingIfNeeded: v.bitPattern).littleEndian
            }
        }
    }
}
