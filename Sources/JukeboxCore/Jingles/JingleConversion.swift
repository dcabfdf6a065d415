import CSoxr

extension JingleSound {
    /// The samples to mix into audio of `format`: the channels mapped (mono to every
    /// channel; more channels to fewer by averaging), the rate converted by libsoxr, the
    /// level applied. Nil if libsoxr refuses.
    func prepared(for format: OutputFormat) -> [Float]? {
        let mapped = Self.mapChannels(samples, from: channels, to: format.channels)
        var out = mapped
        if sampleRate != format.sampleRate {
            let inFrames = mapped.count / format.channels
            let outFrames = Int((Double(inFrames) * Double(format.sampleRate) / Double(sampleRate)).rounded(.up)) + 16
            out = [Float](repeating: 0, count: outFrames * format.channels)
            var done = 0
            let error = mapped.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { output in
                    soxr_oneshot(Double(sampleRate), Double(format.sampleRate), UInt32(format.channels),
                                 input.baseAddress, inFrames, nil, output.baseAddress, outFrames, &done, nil, nil, nil)
                }
            }
            guard error == nil else { return nil }
            out.removeLast(out.count - done * format.channels)
        }
        if gain != 1 { for i in out.indices { out[i] *= gain } }
        return out
    }

    static func mapChannels(_ samples: [Float], from: Int, to: Int) -> [Float] {
        guard from != to else { return samples }
        let frames = samples.count / from
        var out = [Float](repeating: 0, count: frames * to)
        for f in 0..<frames {
            if from == 1 {
                for c in 0..<to { out[f * to + c] = samples[f] }
            } else if to == 1 {
                var sum: Float = 0
                for c in 0..<from { sum += samples[f * from + c] }
                out[f] = sum / Float(from)
            } else {
                // Channel c takes the source's channel c; extra ones stay silent.
                for c in 0..<min(from, to) { out[f * to + c] = samples[f * from + c] }
            }
        }
        return out
    }
}
