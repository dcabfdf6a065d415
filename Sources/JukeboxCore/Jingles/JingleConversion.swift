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
        var out: [Float] = []
        PCMSamples.mapChannels(samples, from: from, to: to, into: &out)
        return out
    }
}
