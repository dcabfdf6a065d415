/// One character drawn at one size: its coverage mask and where it sits on the baseline.
struct Glyph {
    /// Coverage, 0–255, `width` per row.
    var mask: [UInt8]
    var width: Int
    var height: Int
    /// From the pen position to the mask's left edge, and from the baseline up to its top.
    var left: Int
    var top: Int
    /// How far the pen moves on.
    var advance: Int
}

/// Which glyph of which face, at which pixel size: what a glyph is cached under.
struct GlyphKey: Hashable {
    var face: Int
    var index: UInt32
    var size: Int
}
