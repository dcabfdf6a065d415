/// Volume in software, applied by the audio thread.
///
/// The knob (0–100) maps to amplitude on a cube-root perceptual curve: amplitude =
/// (volume/100)³, so 50 is −18 dB and each step feels alike across the range. Gain never
/// exceeds 1, so nothing can clip. At 100 the samples pass untouched (bit-exact).
public enum VolumeCurve {
    public static func amplitude(_ volume: Int) -> Double {
        let x = Double(max(0, min(100, volume))) / 100
        return x * x * x
    }

    public static func decibels(_ volume: Int) -> Double {
        let a = amplitude(volume)
        return a > 0 ? 20 * log10(a) : -.infinity
    }
}

enum GainRamp {
    /// Multiplies `frames` frames in place by a gain moving linearly from `from` to `to`
    /// across them. Used for volume changes (smooth, no zipper noise) and for fades.
    /// ReplayGain can raise a quiet track above 1: samples past full scale are held at it.
    static func apply(_ data: UnsafeMutableRawPointer, frames: Int, format: OutputFormat, from: Double, to: Double) {
        guard frames > 0, !(from == 1 && to == 1) else { return }
        let channels = format.channels
        let step = (to - from) / Double(frames)
        switch format.sampleFormat {
        case .s16:
            let p = data.assumingMemoryBound(to: Int16.self)
            for f in 0..<frames {
                let g = from + step * Double(f)
                for c in 0..<channels {
                    let i = f * channels + c
                    p[i] = Int16(littleEndian: Int16(clamping: Int((Double(Int16(littleEndian: p[i])) * g).rounded())))
                }
            }
        case .s24:
            let p = data.assumingMemoryBound(to: UInt8.self)
            for f in 0..<frames {
                let g = from + step * Double(f)
                for c in 0..<channels {
                    let o = (f * channels + c) * 3
                    let raw = Int32(p[o]) | Int32(p[o + 1]) << 8 | Int32(Int8(bitPattern: p[o + 2])) << 16
                    let v = Int32(min(max((Double(raw) * g).rounded(), -8_388_608), 8_388_607))
                    p[o] = UInt8(truncatingIfNeeded: v)
                    p[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    p[o + 2] = UInt8(truncatingIfNeeded: v >> 16)
                }
            }
        case .s32:
            let p = data.assumingMemoryBound(to: Int32.self)
            for f in 0..<frames {
                let g = from + step * Double(f)
                for c in 0..<channels {
                    let i = f * channels + c
                    p[i] = Int32(littleEndian: Int32(clamping: Int((Double(Int32(littleEndian: p[i])) * g).rounded())))
                }
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
