import CJPEGFixtures
import Foundation
@testable import JukeboxCore

/// Cover pictures made at test time with libjpeg's encoder and the project's PNG writer,
/// and the hostile ones made from them: a header that claims a huge picture, a scan
/// repeated hundreds of times.
enum CoverFixtures {
    enum Space: Int32 { case rgb = 0, gray, cmyk, ycck }

    /// A JPEG of `width` x `height`: its left half `left`, its right half `right` (RGB for
    /// rgb and gray, else the CMYK bytes as stored in the file).
    static func jpeg(width: Int, height: Int, space: Space = .rgb, progressive: Bool = false, adobe: Bool = true,
                     left: [UInt8], right: [UInt8]) -> [UInt8] {
        let row = Array([[UInt8]](repeating: left, count: width / 2).joined()) + Array([[UInt8]](repeating: right, count: width - width / 2).joined())
        let pixels = Array([[UInt8]](repeating: row, count: height).joined())
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = jukebox_fixture_jpeg(pixels, Int32(width), Int32(height), space.rawValue, progressive ? 1 : 0, adobe ? 1 : 0, &out, &size)
        precondition(status == 0 && out != nil, "libjpeg could not encode the fixture")
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    /// `bytes` with the frame header (SOF0-SOF2) claiming `width` x `height`.
    static func claiming(_ bytes: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = bytes
        var at = 2
        while at + 9 < out.count, out[at] == 0xFF {
            let marker = out[at + 1]
            let length = Int(out[at + 2]) << 8 | Int(out[at + 3])
            if (0xC0...0xC2).contains(marker) {
                out[at + 5] = UInt8(height >> 8); out[at + 6] = UInt8(height & 0xFF)
                out[at + 7] = UInt8(width >> 8); out[at + 8] = UInt8(width & 0xFF)
                return out
            }
            at += 2 + length
        }
        preconditionFailure("no frame header in the fixture")
    }

    /// A progressive `bytes` with its last scan sent `times` times more: libjpeg only warns
    /// about the repeats, and each is a pass over the whole picture.
    static func repeatingLastScan(_ bytes: [UInt8], times: Int) -> [UInt8] {
        var last: Int?
        for i in 0..<(bytes.count - 1) where bytes[i] == 0xFF && bytes[i + 1] == 0xDA { last = i }
        guard let last, bytes.suffix(2) == [0xFF, 0xD9] else { preconditionFailure("no scan in the fixture") }
        let scan = bytes[last..<(bytes.count - 2)]
        var out = Array(bytes.prefix(bytes.count - 2))
        for _ in 0..<times { out += scan }
        return out + [0xFF, 0xD9]
    }

    /// A PNG whose left half is `left` and right half `right`, as 0xRRGGBB.
    static func png(side: Int, left: UInt32, right: UInt32) throws -> [UInt8] {
        var pixels = [UInt32](repeating: left, count: side * side)
        for y in 0..<side { for x in (side / 2)..<side { pixels[y * side + x] = right } }
        return try PNGCodec.encode(width: side, height: side, pixels: pixels)
    }

    /// An Adam7-interlaced RGB PNG built byte by byte (libpng's simple writer makes none):
    /// each pass's rows unfiltered, in stored deflate blocks.
    static func interlacedPNG(side: Int, pixel: (Int, Int) -> UInt32) -> [UInt8] {
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in passes where x0 < side && y0 < side {
            for y in stride(from: y0, to: side, by: dy) {
                raw.append(0)
                for x in stride(from: x0, to: side, by: dx) {
                    let p = pixel(x, y)
                    raw += [UInt8(p >> 16 & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p & 0xFF)]
                }
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var at = 0
        repeat {
            let n = min(65535, raw.count - at)
            zlib += [at + n == raw.count ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8 & 0xFF)]
            zlib += raw[at..<(at + n)]
            at += n
        } while at < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        zlib += bigEndian(b << 16 | a)
        let header = bigEndian(UInt32(side)) + bigEndian(UInt32(side)) + [8, 2, 0, 0, 1]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    private static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typed {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return bigEndian(UInt32(body.count)) + typed + bigEndian(~crc)
    }

    /// Within `tolerance` on each channel (JPEG is lossy).
    static func near(_ a: UInt32, _ b: UInt32, tolerance: Int = 10) -> Bool {
        [16, 8, 0].allSatisfy { abs(Int(a >> UInt32($0) & 0xFF) - Int(b >> UInt32($0) & 0xFF)) <= tolerance }
    }
}
