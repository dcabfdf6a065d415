/// The screen's colours: light text on a dark ground (a screen in a child's room at night
/// should not light it up), one accent for what moves.
public enum Palette {
    public static let background = Color(rgb: 0x10_14_18)
    public static let text = Color(rgb: 0xF2_F2_F2)
    public static let dim = Color(rgb: 0x8A_90_99)
    public static let unsung = Color(rgb: 0xB8_BE_C6)
    public static let sung = Color(rgb: 0xFF_C6_40)
    public static let barTrack = Color(rgb: 0x33_3A_44)
    public static let barFill = Color(rgb: 0x3F_B8_FF)
    public static let coverBlank = Color(rgb: 0x1E_25_30)
    public static let notice = Color(rgb: 0xB3_26_1E)
    public static let box = Color(rgb: 0x20_28_33)
}
