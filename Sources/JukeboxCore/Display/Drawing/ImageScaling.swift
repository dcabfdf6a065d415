extension RGBImage {
    /// The image scaled to `width` x `height` by averaging the source pixels each target
    /// pixel covers (a box filter): no aliasing when a 1000-pixel cover becomes 120, and
    /// a plain bilinear blend when it grows.
    public func scaled(width: Int, height: Int) -> RGBImage {
        guard width > 0, height > 0 else { return RGBImage(width: 0, height: 0, pixels: []) }
        if width == self.width, height == self.height { return self }
        var out = [UInt32](repeating: 0, count: width * height)
        let sx = Double(self.width) / Double(width), sy = Double(self.height) / Double(height)
        pixels.withUnsafeBufferPointer { source in
            for ty in 0..<height {
                let y0 = Double(ty) * sy, y1 = y0 + sy
                for tx in 0..<width {
                    let x0 = Double(tx) * sx, x1 = x0 + sx
                    if sx <= 1, sy <= 1 {
                        out[ty * width + tx] = bilinear(source, x: (x0 + x1) / 2 - 0.5, y: (y0 + y1) / 2 - 0.5)
                        continue
                    }
                    var r = 0.0, g = 0.0, b = 0.0, total = 0.0
                    var y = Int(y0)
                    while Double(y) < y1, y < self.height {
                        let wy = min(Double(y + 1), y1) - max(Double(y), y0)
                        var x = Int(x0)
                        while Double(x) < x1, x < self.width {
                            let w = wy * (min(Double(x + 1), x1) - max(Double(x), x0))
                            let p = source[y * self.width + x]
                            r += w * Double(p >> 16 & 0xFF)
                            g += w * Double(p >> 8 & 0xFF)
                            b += w * Double(p & 0xFF)
                            total += w
                            x += 1
                        }
                        y += 1
                    }
                    let scale = total > 0 ? 1 / total : 0
                    out[ty * width + tx] = UInt32(r * scale + 0.5) << 16 | UInt32(g * scale + 0.5) << 8 | UInt32(b * scale + 0.5)
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: out)
    }

    private func bilinear(_ source: UnsafeBufferPointer<UInt32>, x: Double, y: Double) -> UInt32 {
        let cx = min(max(x, 0), Double(width - 1)), cy = min(max(y, 0), Double(height - 1))
        let x0 = Int(cx), y0 = Int(cy)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = cx - Double(x0), fy = cy - Double(y0)
        var result: UInt32 = 0
        for shift in [16, 8, 0] as [UInt32] {
            func c(_ px: Int, _ py: Int) -> Double { Double(source[py * width + px] >> shift & 0xFF) }
            let top = c(x0, y0) * (1 - fx) + c(x1, y0) * fx
            let bottom = c(x0, y1) * (1 - fx) + c(x1, y1) * fx
            result |= UInt32(top * (1 - fy) + bottom * fy + 0.5) << shift
        }
        return result
    }

    /// The largest centred square of the image (a cover that is not square).
    public var centredSquare: RGBImage {
        let side = min(width, height)
        guard side != width || side != height else { return self }
        let x0 = (width - side) / 2, y0 = (height - side) / 2
        var out: [UInt32] = []
        out.reserveCapacity(side * side)
        for y in y0..<(y0 + side) { out += pixels[(y * width + x0)..<(y * width + x0 + side)] }
        return RGBImage(width: side, height: side, pixels: out)
    }
}
