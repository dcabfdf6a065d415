/// Playback speed as the player keeps it: 0.5× to 2× in steps of 0.05, pitch kept.
/// Kept on the step (a whole number of hundredths), so 1.15 reads back as 1.15.
public enum PlaybackSpeed {
    public static let range = 0.5...2.0
    public static let step = 0.05

    /// `value` on the nearest step, within the range.
    public static func clamped(_ value: Double) -> Double {
        guard value.isFinite else { return 1 }
        let steps = (min(range.upperBound, max(range.lowerBound, value)) / step).rounded()
        return steps * 5 / 100
    }

    /// `speed` moved by `steps` steps, within the range.
    public static func stepped(_ speed: Double, by steps: Int) -> Double {
        clamped(speed + Double(steps) * step)
    }

    /// As shown and answered: "1.25", "1.5", "2".
    public static func text(_ speed: Double) -> String {
        let hundredths = Int((clamped(speed) * 100).rounded())
        let whole = "\(hundredths / 100)"
        switch hundredths % 100 {
        case 0: return whole
        case let h where h % 10 == 0: return "\(whole).\(h / 10)"
        case let h: return "\(whole).\(h < 10 ? "0" : "")\(h)"
        }
    }
}
