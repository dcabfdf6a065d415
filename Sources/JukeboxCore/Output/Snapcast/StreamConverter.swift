#if canImport(Glibc)
import Glibc
#endif
import CSoxr

/// Turns the music's PCM into the one format a Snapcast stream carries: channels mapped,
/// the rate converted by libsoxr (streaming, so a run of tracks at one rate stays gapless
/// across its joins), and samples written at the stream's depth, with TPDF dither where
/// bits are lost. Audio already in the stream's format is not touched at all, and a
/// conversion that loses nothing (16-bit into 24, a mono track doubled) is exact.
/// Confined to the audio thread; its buffers are kept between calls.
final class StreamConverter {
    let input: OutputFormat
    let output: SnapcastFormat
    /// Nil when the rates are equal.
    private let resampler: soxr_t?
    private let ditherWhenWriting: Bool
    private var dither = TPDFDither()
    private var samples: [Float] = []
    private var mapped: [Float] = []
    private var resampled: [Float] = []

    /// Whether audio goes out byte for byte.
    var isPassthrough: Bool { output.carries(input) }

    /// What is done to the audio, for the log.
    var summary: String {
        if isPassthrough { return "sent as it is" }
        var steps: [String] = []
        if input.sampleRate != output.sampleRate { steps.append("resampled \(input.sampleRate) → \(output.sampleRate) Hz by libsoxr") }
        if input.channels != output.channels { steps.append("\(input.channels) → \(output.channels) channels") }
        if input.sampleFormat.bitsPerSample != output.bits || resampler != nil {
            steps.append("\(input.sampleFormat.bitsPerSample) → \(output.bits)-bit" + (ditherWhenWriting ? " with dither" : ""))
        }
        return steps.joined(separator: ", ")
    }

    init(from input: OutputFormat, to output: SnapcastFormat, dither: Bool) throws(OutputError) {
        self.input = input
        self.output = output
        // Dither only where bits are lost: resampled audio has more than any stream
        // keeps; a deeper source loses its low bits. 32-bit streams are not dithered.
        let losesBits = input.sampleRate != output.sampleRate || input.sampleFormat.bitsPerSample > output.bits
        ditherWhenWriting = dither && losesBits && output.bits < 32
        guard input.sampleRate != output.sampleRate else {
            resampler = nil
            return
        }
        var error: soxr_error_t?
        // Very high quality for deep streams; high (20-bit) is beyond what 16 bits hold.
        var quality = soxr_quality_spec(UInt(output.bits > 16 ? SOXR_VHQ : SOXR_HQ), 0)
        var runtime = soxr_runtime_spec(1)  // one thread: the audio thread's own
        let made = soxr_create(Double(input.sampleRate), Double(output.sampleRate), UInt32(output.channels),
                               &error, nil, &quality, &runtime)
        guard let made, error == nil else {
            soxr_delete(made)
            throw .failed(device: "snapcast", what: "set up libsoxr for \(input.sampleRate) → \(output.sampleRate) Hz",
                          code: Errno(EINVAL))
        }
        resampler = made
    }

    deinit { soxr_delete(resampler) }

    /// Appends `data` (whole frames of `input`) converted to the stream's format.
    func convert(_ data: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        if isPassthrough {
            out.append(contentsOf: data)
            return
        }
        samples.removeAll(keepingCapacity: true)
        PCMSamples.appendFloats(from: data, count: data.count / input.sampleFormat.bytesPerSample, format: input.sampleFormat, to: &samples)
        PCMSamples.mapChannels(samples, from: input.channels, to: output.channels, into: &mapped)
        guard resampler != nil else {
            write(mapped, into: &out)
            return
        }
        resample(frames: mapped.count / output.channels, into: &out)
    }

    /// The resampler's last samples, at the end of a stream or before another format.
    func flush(into out: inout [UInt8]) {
        guard resampler != nil else { return }
        resample(frames: 0, into: &out)
        reset()  // libsoxr takes no more input after its end until cleared
    }

    /// Forgets what the resampler holds (the audio after it was taken back).
    func reset() { if let resampler { soxr_clear(resampler) } }

    /// Frames of the stream's rate held inside the resampler, not yet out.
    var heldFrames: Int { resampler.map { Int(soxr_delay($0).rounded()) } ?? 0 }

    /// `frames` of `mapped` through the resampler (0: the end of the input, so it gives
    /// out what it holds).
    private func resample(frames: Int, into out: inout [UInt8]) {
        guard let resampler else { return }
        let channels = output.channels
        let room = frames * output.sampleRate / input.sampleRate + heldFrames + 64
        if resampled.count < room * channels { resampled = [Float](repeating: 0, count: room * channels) }
        var used = 0
        repeat {
            var done = 0
            var produced = 0
            mapped.withUnsafeBufferPointer { input in
                resampled.withUnsafeMutableBufferPointer { output in
                    let from = frames == 0 ? nil : UnsafeRawPointer(input.baseAddress! + used * channels)
                    _ = soxr_process(resampler, from, frames - used, &done, output.baseAddress, room, &produced)
                }
            }
            used += done
            resampled.withUnsafeBufferPointer { write(UnsafeBufferPointer(rebasing: $0[..<(produced * channels)]), into: &out) }
            if done == 0, produced == 0 { break }
        } while used < frames
    }

    private func write(_ floats: [Float], into out: inout [UInt8]) {
        floats.withUnsafeBufferPointer { write($0, into: &out) }
    }

    /// Floats in -1...1 as the stream's little-endian integers.
    private func write(_ floats: UnsafeBufferPointer<Float>, into out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: floats.count * output.bytesPerSample))
        out.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress! + start
            switch output.bits {
            case 16:
                let p = base.assumingMemoryBound(to: Int16.self)
                for i in 0..<floats.count {
                    let v = floats[i] * 32_768 + (ditherWhenWriting ? dither.next() : 0)
                    p[i] = Int16(clamping: Int(v.rounded())).littleEndian
                }
            case 24:
                let p = base.assumingMemoryBound(to: Int32.self)
                for i in 0..<floats.count {
                    let v = floats[i] * 8_388_608 + (ditherWhenWriting ? dither.next() : 0)
                    p[i] = Int32(min(max(Int(v.rounded()), -8_388_608), 8_388_607)).littleEndian
                }
            default:
                let p = base.assumingMemoryBound(to: Int32.self)
                for i in 0..<floats.count { p[i] = Int32(clamping: Int64((Double(floats[i]) * 2_147_483_648).rounded())).littleEndian }
            }
        }
    }
}

/// Triangular dither of one step peak: the sum of two uniform values, from a small
/// xorshift generator (cheap, and the same run gives the same noise).
struct TPDFDither {
    private var state: UInt32 = 0x9E37_79B9

    mutating func next() -> Float {
        uniform() + uniform() - 1
    }

    private mutating func uniform() -> Float {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        return Float(state >> 8) / 16_777_216
    }
}
