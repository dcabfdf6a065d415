import Glibc

/// How the knob's 0–100 maps onto a hardware volume control, so that each step sounds
/// alike whatever the control (facts as alsa-utils' volume_mapping.c uses them):
/// - a control spanning at most 24 dB is linear in dB;
/// - a wider one follows the cube-root perceptual curve (amplitude = (volume/100)³, as the
///   software gain), scaled so 0 lands on the control's minimum;
/// - a control without dB data is linear in its raw steps.
/// Volume 0 is also muted where the control has a switch (the caller's part).
enum VolumeMapping {
    static let maximumLinearRange = 24.0

    /// The dB to ask for, for `volume`, on a control from `min` to `max` dB.
    static func decibels(for volume: Int, min: Double, max: Double) -> Double {
        let v = Double(Swift.max(0, Swift.min(100, volume))) / 100
        guard max > min else { return max }
        if max - min <= maximumLinearRange { return min + (max - min) * v }
        let floor = pow(10, (min - max) / 60)
        let normalized = floor + v * (1 - floor)
        return Swift.max(min, max + 60 * log10(normalized))
    }

    /// The volume a control set to `db` stands for (the inverse, for outside changes).
    static func volume(forDecibels db: Double, min: Double, max: Double) -> Int {
        guard max > min else { return 100 }
        let clamped = Swift.max(min, Swift.min(max, db))
        let v: Double
        if max - min <= maximumLinearRange {
            v = (clamped - min) / (max - min)
        } else {
            let floor = pow(10, (min - max) / 60)
            v = (pow(10, (clamped - max) / 60) - floor) / (1 - floor)
        }
        return Int((v * 100).rounded())
    }

    static func raw(for volume: Int, min: Int, max: Int) -> Int {
        let v = Double(Swift.max(0, Swift.min(100, volume))) / 100
        return min + Int((Double(max - min) * v).rounded())
    }

    static func volume(forRaw raw: Int, min: Int, max: Int) -> Int {
        guard max > min else { return 100 }
        let clamped = Double(Swift.max(min, Swift.min(max, raw)))
        let fraction = (clamped - Double(min)) / Double(max - min)
        return Int((fraction * 100).rounded())
    }
}
