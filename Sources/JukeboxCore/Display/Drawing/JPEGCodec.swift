import CJukeboxShim

/// JPEG pictures (most covers) through libjpeg-turbo, scaled down while decoding.
public enum JPEGCodec {
    /// The centred square of the picture in `bytes`, at most `limits.side` pixels a side:
    /// libjpeg decodes it at the smallest M/8 scale that still covers the side, and only
    /// the square's columns and rows. CMYK and YCCK pictures (scanned artwork) are
    /// converted; one that would cost more than `limits` is refused.
    public static func cover(_ bytes: [UInt8], limits: CoverLimits) throws(CoverFailure) -> RGBImage {
        try limits.decode(bytes, with: jukebox_jpeg_cover, kind: "JPEG")
    }
}
