/// An opaque colour, 8 bits per channel, stored as the canvas stores pixels (0x00RRGGBB).
public struct Color: Sendable, Hashable {
    public var rgb: UInt32

    public init(rgb: UInt32) { self.rgb = rgb & 0xFF_FFFF }

    /// `self` over `background` with coverage `alpha` (0 transparent, 255 opaque).
    @inline(__always)
    static func blend(_ foreground: UInt32, over background: UInt32, alpha: UInt32) -> UInt32 {
        // Red and blue share one multiply, green another: two lanes of 8 bits each.
        let inverse = 255 - alpha
        let redBlue = ((foreground & 0xFF00FF) &* alpha &+ (background & 0xFF00FF) &* inverse &+ 0x800080)
        let green = ((foreground & 0x00FF00) &* alpha &+ (background & 0x00FF00) &* inverse &+ 0x008000)
        // Dividing by 255 as (v + (v >> 8)) >> 8 per lane.
        let rb = ((redBlue &+ ((redBlue >> 8) & 0xFF00FF)) >> 8) & 0xFF00FF
        let g = ((green &+ ((green >> 8) & 0x00FF00)) >> 8) & 0x00FF00
        return rb | g
    }
}
