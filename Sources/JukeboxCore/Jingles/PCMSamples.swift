/// Interleaved little-endian integer PCM (what every decoder produces) to and from
/// floats in -1...1, for the jingles and the Snapcast stream.
enum PCMSamples {
    static func appendFloats(from data: UnsafeRawBufferPointer, count: Int, format: SampleFormat, to out: inout [Float]) {
        switch format {
        case .s16:
            for i in 0..<count { out.append(Float(Int16(littleEndian: data.loadUnaligned(fromByteOffset: i * 2, as: Int16.self))) / 32_768) }
        case .s24:
            for i in 0..<count {
                let o = i * 3
                let raw = Int32(data[o]) | Int32(data[o + 1]) << 8 | Int32(Int8(bitPattern: data[o + 2])) << 16
                out.append(Float(raw) / 8_388_608)
            }
        case .s32:
            for i in 0..<count { out.append(Float(Int32(littleEndian: data.loadUnaligned(fromByteOffset: i * 4, as: Int32.self))) / 2_147_483_648) }
        }
    }

    /// Adds `samples` (one per sample of `data`, already at the output's rate and channel
    /// count) into `data`, holding the sum at full scale instead of wrapping.
    static func mix(_ samples: UnsafeBufferPointer<Float>, into data: UnsafeMutableRawPointer, format: SampleFormat) {
        switch format {
        case .s16:
            let p = data.assumingMemoryBound(to: Int16.self)
            for i in 0..<samples.count {
                let sum = Int(Int16(littleEndian: p[i])) + Int((samples[i] * 32_767).rounded())
                p[i] = Int16(clamping: sum).littleEndian
            }
        case .s24:
            let p = data.assumingMemoryBound(to: UInt8.self)
            for i in 0..<samples.count {
                let o = i * 3
                let raw = Int32(p[o]) | Int32(p[o + 1]) << 8 | Int32(Int8(bitPattern: p[o + 2])) << 16
                let v = min(max(Int(raw) + Int((samples[i] * 8_388_607).rounded()), -8_388_608), 8_388_607)
                p[o] = UInt8(truncatingIfNeeded: v)
                p[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                p[o + 2] = UInt8(truncatingIfNeeded: v >> 16)
            }
        case .s32:
            let p = data.assumingMemoryBound(to: Int32.self)
            for i in 0..<samples.count {
                let sum = Int64(Int32(littleEndian: p[i])) + Int64((Double(samples[i]) * 2_147_483_647).rounded())
                p[i] = Int32(clamping: sum).littleEndian
            }
        }
    }

    /// `samples` (interleaved, `from` channels) as `to` channels, into `out` (replaced,
    /// its storage kept): mono goes to every channel, more channels to one are averaged,
    /// otherwise channel c takes the source's channel c and extra ones stay silent.
    static func mapChannels(_ samples: [Float], from: Int, to: Int, into out: inout [Float]) {
        out.removeAll(keepingCapacity: true)
        guard from != to else {
            out.append(contentsOf: samples)
            return
        }
        let frames = samples.count / from
        out.append(contentsOf: repeatElement(0, count: frames * to))
        for f in 0..<frames {
            if from == 1 {
                for c in 0..<to { out[f * to + c] = samples[f] }
            } else if to == 1 {
                var sum: Float = 0
                for c in 0..<from { sum += samples[f * from + c] }
                out[f] = sum / Float(from)
            } else {
                for c in 0..<min(from, to) { out[f * to + c] = samples[f * from + c] }
            }
        }
    }
}
