/// Vorbis (and Opus mapping family 1) order their channels differently from WAV, which
/// the rest of the player and ALSA's surround devices follow: centre comes second, LFE
/// last. Mono, stereo and quadraphonic agree; the rest is permuted in place.
enum VorbisChannelOrder {
    /// For each WAV position, the Vorbis channel that goes there (Vorbis I spec, 4.3.9).
    private static let toWAV: [[Int]] = [
        [0],
        [0, 1],
        [0, 2, 1],                   // L C R → L R C
        [0, 1, 2, 3],
        [0, 2, 1, 3, 4],             // FL C FR RL RR → FL FR C RL RR
        [0, 2, 1, 5, 3, 4],          // … RL RR LFE → FL FR C LFE RL RR
        [0, 2, 1, 6, 5, 3, 4],       // FL C FR SL SR RC LFE → FL FR C LFE RC SL SR
        [0, 2, 1, 7, 5, 6, 3, 4],    // FL C FR SL SR RL RR LFE → FL FR C LFE RL RR SL SR
    ]

    static func needsReordering(channels: Int) -> Bool { ![1, 2, 4].contains(channels) }

    /// Rewrites `frames` interleaved frames of `channels` (3 to 8) samples in WAV order.
    static func reorder(_ samples: UnsafeMutablePointer<Int16>, frames: Int, channels: Int) {
        guard needsReordering(channels: channels), channels <= toWAV.count else { return }
        let map = toWAV[channels - 1]
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: channels) { frame in
            var p = samples
            for _ in 0..<frames {
                for c in 0..<channels { frame[c] = p[c] }
                for c in 0..<channels { p[c] = frame[map[c]] }
                p += channels
            }
        }
    }
}
