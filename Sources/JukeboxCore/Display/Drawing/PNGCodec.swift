import CJukeboxShim
import CPNG

/// PNG files through libpng's simplified API, which reports errors in the image struct
/// instead of long-jumping: the one place libpng is called.
public enum PNGCodec {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let reason: String
        public var description: String { reason }
    }

    /// `pixels` (0x00RRGGBB, `width` per row) as the bytes of an RGB PNG.
    public static func encode(width: Int, height: Int, pixels: [UInt32]) throws(Failure) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        rgb.withUnsafeMutableBufferPointer { out in
            for (i, p) in pixels.enumerated() {
                out[i * 3] = UInt8(truncatingIfNeeded: p >> 16)
                out[i * 3 + 1] = UInt8(truncatingIfNeeded: p >> 8)
                out[i * 3 + 2] = UInt8(truncatingIfNeeded: p)
            }
        }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(PNG_FORMAT_RGB)
        var size: png_alloc_size_t = 0
        // First the size, then the bytes.
        guard png_image_write_to_memory(&image, nil, &size, 0, rgb, 0, nil) != 0 else {
            throw Failure(reason: message(of: &image))
        }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let written = bytes.withUnsafeMutableBytes { out in
            png_image_write_to_memory(&image, out.baseAddress, &size, 0, rgb, 0, nil)
        }
        guard written != 0 else { throw Failure(reason: message(of: &image)) }
        return Array(bytes.prefix(Int(size)))
    }

    /// The centred square of a cover PNG, at most `limits.side` pixels a side, read a row
    /// at a time and scaled down as it is read: a 4000x4000 picture costs one of its rows.
    public static func cover(_ bytes: [UInt8], limits: CoverLimits) throws(CoverFailure) -> RGBImage {
        try limits.decode(bytes, with: jukebox_png_cover, kind: "PNG")
    }

    /// Decodes a PNG held in memory whole (the screen's own frames, read back by the
    /// tests and the board), refusing one with more than `maxPixels` pixels before
    /// decoding it. Covers go through `cover(_:limits:)`.
    public static func decode(_ bytes: [UInt8], maxPixels: Int = 16_000_000) throws(Failure) -> RGBImage {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let began = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw Failure(reason: "not a PNG libpng can read: \(message(of: &image))") }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= maxPixels else {
            png_image_free(&image)
            throw Failure(reason: "\(width)x\(height) is too large (at most \(maxPixels) pixels)")
        }
        image.format = png_uint_32(PNG_FORMAT_RGB)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let finished = rgb.withUnsafeMutableBytes { out in
            // Transparent pixels are composed over black, as the screen's background is.
            var black = png_color(red: 0, green: 0, blue: 0)
            return png_image_finish_read(&image, &black, out.baseAddress, 0, nil)
        }
        guard finished != 0 else { throw Failure(reason: "corrupt PNG: \(message(of: &image))") }
        var pixels = [UInt32](repeating: 0, count: width * height)
        for i in 0..<(width * height) {
            pixels[i] = UInt32(rgb[i * 3]) << 16 | UInt32(rgb[i * 3 + 1]) << 8 | UInt32(rgb[i * 3 + 2])
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
