import CAlsa

/// Records from an ALSA PCM (the virtual board's loopback card) into memory, in the
/// format asked for exactly (no conversion), so a recording can be compared bit for bit.
public final class ALSACapture {
    private var pcm: OpaquePointer?
    private let device: String
    public let format: OutputFormat

    public init(device: String, format: OutputFormat) throws {
        self.device = device
        self.format = format
        ALSAOutput.silenceLibraryMessages()
        try ALSAStatus.check(snd_pcm_open(&pcm, device, SND_PCM_STREAM_CAPTURE, 0), device, "cannot open for capture")
        var params: OpaquePointer?
        try ALSAStatus.check(snd_pcm_hw_params_malloc(&params), device, "no memory")
        defer { snd_pcm_hw_params_free(params) }
        try ALSAStatus.check(snd_pcm_hw_params_any(pcm, params), device, "no configurations")
        try ALSAStatus.check(snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED), device, "access")
        try ALSAStatus.check(snd_pcm_hw_params_set_format(pcm, params, ALSAOutput.alsaFormat(format.sampleFormat)), device, "format")
        try ALSAStatus.check(snd_pcm_hw_params_set_channels(pcm, params, UInt32(format.channels)), device, "channels")
        try ALSAStatus.check(snd_pcm_hw_params_set_rate(pcm, params, UInt32(format.sampleRate), 0), device, "rate")
        var buffer = UInt32(500_000)
        var dir: Int32 = 0
        try ALSAStatus.check(snd_pcm_hw_params_set_buffer_time_near(pcm, params, &buffer, &dir), device, "buffer")
        try ALSAStatus.check(snd_pcm_hw_params(pcm, params), device, "cannot apply \(format)")
    }

    deinit { if let pcm { snd_pcm_close(pcm) } }

    /// Starts capturing now rather than at the first read, so a caller can say it is
    /// listening before anything it must catch is played.
    public func start() throws {
        try ALSAStatus.check(snd_pcm_start(pcm), device, "cannot start capturing")
    }

    /// Records `frames` frames (blocking), recovering overruns.
    public func record(frames total: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(total * format.bytesPerFrame)
        try record(frames: total) { out += $0 }
        return out
    }

    /// Records `total` frames, handing each block to `take` as it arrives.
    public func record(frames total: Int, take: (UnsafeRawBufferPointer) throws -> Void) throws {
        let bytesPerFrame = format.bytesPerFrame
        var block = [UInt8](repeating: 0, count: 4096 * bytesPerFrame)
        var done = 0
        while done < total {
            let n = block.withUnsafeMutableBytes {
                snd_pcm_readi(pcm, $0.baseAddress!, snd_pcm_uframes_t(min(4096, total - done)))
            }
            if n >= 0 {
                done += Int(n)
                try block.withUnsafeBytes { try take(UnsafeRawBufferPointer(rebasing: $0.prefix(Int(n) * bytesPerFrame))) }
                continue
            }
            if n == -Int(EPIPE) { try ALSAStatus.check(snd_pcm_prepare(pcm), device, "overrun"); continue }
            throw ALSAStatus.error(Int32(n), device, "capture failed")
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
