/// The shape of the sleep timer's fade: the level falls as the volume knob's own curve
/// does when it is turned down evenly (amplitude = remaining³), so the music seems to
/// fade at one pace and is near silence well before it stops (−18 dB half way, −60 dB
/// with a tenth left), instead of a linear ramp that stays loud and drops at the end.
public enum SleepFade {
    /// The amplitude (1: as set, 0: silence) `fraction` (0–1) of the way through the fade.
    public static func level(at fraction: Double) -> Double {
        let left = 1 - min(1, max(0, fraction))
        return left * left * left
    }
}
