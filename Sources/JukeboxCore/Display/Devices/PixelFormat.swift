/// How a device stores a pixel: bits per pixel and where each channel sits, as the
/// framebuffer's screen info gives them (RGB565, XRGB8888, BGR orders alike).
public struct PixelFormat: Sendable, Equatable, CustomStringConvertible {
    public struct Channel: Sendable, Equatable {
        public var offset: Int
        public var length: Int
        public init(offset: Int, length: Int) {
            self.offset = offset
            self.length = length
        }
    }

    public var bitsPerPixel: Int
    public var red: Channel
    public var green: Channel
    public var blue: Channel

    public init(bitsPerPixel: Int, red: Channel, green: Channel, blue: Channel) {
        self.bitsPerPixel = bitsPerPixel
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let rgb565 = PixelFormat(bitsPerPixel: 16, red: .init(offset: 11, length: 5),
                                           green: .init(offset: 5, length: 6), blue: .init(offset: 0, length: 5))
    public static let xrgb8888 = PixelFormat(bitsPerPixel: 32, red: .init(offset: 16, length: 8),
                                             green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8))

    public var bytesPerPixel: Int { bitsPerPixel / 8 }

    public var description: String {
        if self == .rgb565 { return "RGB565" }
        if self == .xrgb8888 { return "XRGB8888" }
        return "\(bitsPerPixel) bpp R\(red.offset)/\(red.length) G\(green.offset)/\(green.length) B\(blue.offset)/\(blue.length)"
    }

    /// Whether the jukebox can write it: 16 or 32 bits, channels of at most 8 bits.
    public var isSupported: Bool {
        (bitsPerPixel == 16 || bitsPerPixel == 32)
            && [red, green, blue].allSatisfy { $0.length > 0 && $0.length <= 8 && $0.offset + $0.length <= bitsPerPixel }
    }

    /// A canvas pixel (0x00RRGGBB) in this format.
    @inline(__always)
    public func encode(_ rgb: UInt32) -> UInt32 {
        let r = (rgb >> 16) & 0xFF, g = (rgb >> 8) & 0xFF, b = rgb & 0xFF
        return (r >> UInt32(8 - red.length)) << UInt32(red.offset)
            | (g >> UInt32(8 - green.length)) << UInt32(green.offset)
            | (b >> UInt32(8 - blue.length)) << UInt32(blue.offset)
    }

    /// A device pixel back as 0x00RRGGBB, the low bits filled from the high ones (as the
    /// panel shows it): for tests reading a framebuffer back.
    public func decode(_ value: UInt32) -> UInt32 {
        func channel(_ c: Channel) -> UInt32 {
            let v = (value >> UInt32(c.offset)) & ((1 << UInt32(c.length)) - 1)
            let widened = v << UInt32(8 - c.length)
            return widened | (widened >> UInt32(c.length))
        }
        return channel(red) << 16 | channel(green) << 8 | channel(blue)
    }

    /// Writes `pixels` (`rect.width` per row) into device memory at `base`, rows
    /// `stride` bytes apart, starting at `rect`'s corner.
    public func store(_ pixels: [UInt32], rect: PixelRect, into base: UnsafeMutableRawPointer, stride: Int) {
        pixels.withUnsafeBufferPointer { source in
            var i = 0
            for row in rect.y..<rect.maxY {
                let line = base + row * stride + rect.x * bytesPerPixel
                if bitsPerPixel == 16 {
                    let out = line.assumingMemoryBound(to: UInt16.self)
                    for column in 0..<rect.width { out[column] = UInt16(truncatingIfNeeded: encode(source[i + column])) }
                } else {
                    let out = line.assumingMemoryBound(to: UInt32.self)
                    if self == .xrgb8888 {
                        out.update(from: source.baseAddress! + i, count: rect.width)
                    } else {
                        for column in 0..<rect.width { out[column] = encode(source[i + column]) }
                    }
                }
                i += rect.width
            }
        }
    }
}
