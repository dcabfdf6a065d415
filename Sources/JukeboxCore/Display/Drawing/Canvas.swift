/// What a screen is drawn into: 32-bit pixels (0x00RRGGBB), rows of `width`, in the
/// orientation the viewer sees. A display converts what changed to its own format and
/// rotation when it flushes (see `Display`).
public final class Canvas: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public private(set) var pixels: [UInt32]

    public init(width: Int, height: Int, color: Color = Color(rgb: 0)) {
        precondition(width > 0 && height > 0, "a canvas needs pixels")
        self.width = width
        self.height = height
        pixels = Array(repeating: color.rgb, count: width * height)
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

    public func fill(_ rect: PixelRect, _ color: Color) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        pixels.withUnsafeMutableBufferPointer { p in
            for row in r.y..<r.maxY {
                let start = row * width + r.x
                (p.baseAddress! + start).update(repeating: color.rgb, count: r.width)
            }
        }
    }

    /// Paints `color` through an 8-bit coverage mask (a glyph) whose top-left pixel lands
    /// at `x`, `y`; only pixels inside `clip` change.
    public func blend(mask: UnsafeBufferPointer<UInt8>, pitch: Int, maskWidth: Int, maskHeight: Int,
                      x: Int, y: Int, color: Color, clip: PixelRect) {
        let target = PixelRect(x: x, y: y, width: maskWidth, height: maskHeight).intersection(clip).intersection(bounds)
        guard !target.isEmpty, let source = mask.baseAddress else { return }
        let fg = color.rgb
        pixels.withUnsafeMutableBufferPointer { p in
            let base = p.baseAddress!
            for row in target.y..<target.maxY {
                let maskRow = source + (row - y) * pitch + (target.x - x)
                let out = base + row * width + target.x
                for column in 0..<target.width {
                    let alpha = UInt32(maskRow[column])
                    if alpha == 0 { continue }
                    out[column] = alpha == 255 ? fg : Color.blend(fg, over: out[column], alpha: alpha)
                }
            }
        }
    }

    /// Copies `image` with its top-left at `x`, `y`, clipped to the canvas.
    public func draw(_ image: RGBImage, x: Int, y: Int) {
        let target = PixelRect(x: x, y: y, width: image.width, height: image.height).intersection(bounds)
        guard !target.isEmpty else { return }
        pixels.withUnsafeMutableBufferPointer { p in
            image.pixels.withUnsafeBufferPointer { source in
                for row in target.y..<target.maxY {
                    let from = source.baseAddress! + (row - y) * image.width + (target.x - x)
                    (p.baseAddress! + row * width + target.x).update(from: from, count: target.width)
                }
            }
        }
    }

    /// The pixels of `rect` (inside the canvas), row after row.
    public func copy(_ rect: PixelRect) -> [UInt32] {
        let r = rect.intersection(bounds)
        var out: [UInt32] = []
        out.reserveCapacity(r.area)
        for row in r.y..<r.maxY { out += pixels[(row * width + r.x)..<(row * width + r.maxX)] }
        return out
    }
}

/// A picture in the canvas's pixel format (cover art), already at the size it is shown.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt32]

    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(pixels.count == width * height, "an image's pixels must fill it")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
