#if canImport(Glibc)
import Glibc
#endif

/// A tiny arranger and synthesiser for the demo library: a melody on plucked strings
/// (Karplus–Strong), a soft organ pad on the chords, a bass line and light drums,
/// mixed to 44.1 kHz stereo. Deterministic: the same song always gives the same samples.
struct Synth {
    static let rate = 44_100
    private(set) var left: [Float]
    private(set) var right: [Float]
    private var random = SplitMix(seed: 2026)

    init(seconds: Double) {
        let n = Int(seconds * Double(Self.rate))
        left = [Float](repeating: 0, count: n)
        right = [Float](repeating: 0, count: n)
    }

    static func frequency(_ midi: Int) -> Float { 440 * powf(2, Float(midi - 69) / 12) }

    /// Plucked string: a burst of noise in a delay line, averaged as it recirculates.
    mutating func pluck(_ midi: Int, at time: Double, length: Double, gain: Float, pan: Float) {
        let period = max(2, Int(Float(Self.rate) / Self.frequency(midi)))
        var line = (0..<period).map { _ in Float(random.unit() * 2 - 1) }
        let start = Int(time * Double(Self.rate))
        let count = Int(length * Double(Self.rate))
        var i = 0
        for n in 0..<count where start + n < left.count {
            let next = (i + 1) % period
            let value = line[i]
            line[i] = 0.4985 * (line[i] + line[next])
            i = next
            let release = n > count - 800 ? Float(count - n) / 800 : 1
            add(start + n, value * gain * release, pan)
        }
    }

    /// Organ-like pad: a few harmonics with a slow attack and release.
    mutating func pad(_ midis: [Int], at time: Double, length: Double, gain: Float) {
        let start = Int(time * Double(Self.rate))
        let count = Int(length * Double(Self.rate))
        let attack = Self.rate / 10
        for midi in midis {
            let w = 2 * Float.pi * Self.frequency(midi) / Float(Self.rate)
            for n in 0..<count where start + n < left.count {
                let envelope = min(1, Float(n) / Float(attack)) * min(1, Float(count - n) / Float(attack))
                let x = Float(n) * w
                let v = (sinf(x) + 0.5 * sinf(2 * x) + 0.25 * sinf(3 * x)) * 0.5
                add(start + n, v * gain * envelope / Float(midis.count), 0)
            }
        }
    }

    /// Round bass: a sine with a touch of its octave, decaying.
    mutating func bass(_ midi: Int, at time: Double, length: Double, gain: Float) {
        let start = Int(time * Double(Self.rate))
        let count = Int(length * Double(Self.rate))
        let w = 2 * Float.pi * Self.frequency(midi) / Float(Self.rate)
        for n in 0..<count where start + n < left.count {
            let envelope = expf(-Float(n) / Float(count)) * min(1, Float(count - n) / 400)
            let x = Float(n) * w
            add(start + n, (sinf(x) + 0.3 * sinf(2 * x)) * gain * envelope, 0)
        }
    }

    /// Kick: a sine falling in pitch. Hat: a short burst of bright noise.
    mutating func kick(at time: Double, gain: Float) {
        let start = Int(time * Double(Self.rate))
        var phase: Float = 0
        for n in 0..<(Self.rate / 6) where start + n < left.count {
            let t = Float(n) / Float(Self.rate)
            phase += 2 * Float.pi * (50 + 90 * expf(-t * 30)) / Float(Self.rate)
            add(start + n, sinf(phase) * expf(-t * 18) * gain, 0)
        }
    }

    mutating func hat(at time: Double, gain: Float) {
        let start = Int(time * Double(Self.rate))
        var previous: Float = 0
        for n in 0..<(Self.rate / 25) where start + n < left.count {
            let white = Float(random.unit() * 2 - 1)
            let bright = white - previous
            previous = white
            add(start + n, bright * expf(-Float(n) / 300) * gain, 0.3)
        }
    }

    private mutating func add(_ i: Int, _ v: Float, _ pan: Float) {
        left[i] += v * (1 - max(0, pan))
        right[i] += v * (1 + min(0, pan))
    }

    /// Interleaved 16-bit, normalised to −3 dBFS peak, with short fades at both ends.
    func pcm16() -> [Int16] {
        let peak = max(left.map(abs).max() ?? 1, right.map(abs).max() ?? 1, 1e-6)
        let scale = 0.707 * 32767 / peak
        let fade = Self.rate / 50
        var out = [Int16](repeating: 0, count: left.count * 2)
        for i in 0..<left.count {
            let edge = Float(min(1, Double(min(i, left.count - 1 - i)) / Double(fade)))
            out[2 * i] = Int16((left[i] * scale * edge).rounded())
            out[2 * i + 1] = Int16((right[i] * scale * edge).rounded())
        }
        return out
    }
}
