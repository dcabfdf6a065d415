import CJukeboxShim

#if canImport(Glibc)
import Glibc
#endif

/// JPEG pictures (most covers) through libjpeg-turbo, scaled down while decoding.
public enum JPEGCodec {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let reason: String
        public var description: String { reason }
    }

    /// Decodes `bytes`; libjpeg skips most of the work for a picture much larger than
    /// `atLeast` pixels on its shorter side.
    public static func decode(_ bytes: [UInt8], atLeast side: Int, maxPixels: Int = 64_000_000) throws(Failure) -> RGBImage {
        var out: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = bytes.withUnsafeBufferPointer { data in
            jukebox_jpeg_decode(data.baseAddress, UInt(data.count), Int32(max(1, side)), maxPixels, &out, &width, &height, &message, message.count)
        }
        guard status == 0, let rgb = out else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Failure(reason: reason.isEmpty ? "not a JPEG libjpeg can read" : reason)
        }
        defer { free(rgb) }
        let count = Int(width) * Int(height)
        var pixels = [UInt32](repeating: 0, count: count)
        for i in 0..<count {
            pixels[i] = UInt32(rgb[i * 3]) << 16 | UInt32(rgb[i * 3 + 1]) << 8 | UInt32(rgb[i * 3 + 2])
        }
        return RGBImage(width: Int(width), height: Int(height), pixels: pixels)
    }
}
