/// How the panel is mounted: the picture is turned clockwise by this much on the way to
/// it, so that it stands upright for the viewer.
public enum Rotation: Int, Sendable, CaseIterable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270

    /// The canvas the viewer sees for a panel of this size.
    public func canvasSize(panelWidth: Int, panelHeight: Int) -> (width: Int, height: Int) {
        self == .quarter || self == .threeQuarters ? (panelHeight, panelWidth) : (panelWidth, panelHeight)
    }

    /// Where a rectangle of the canvas lands on a panel of this size.
    public func panelRect(_ r: PixelRect, panelWidth: Int, panelHeight: Int) -> PixelRect {
        switch self {
        case .none: r
        case .quarter: PixelRect(x: panelWidth - r.maxY, y: r.x, width: r.height, height: r.width)
        case .half: PixelRect(x: panelWidth - r.maxX, y: panelHeight - r.maxY, width: r.width, height: r.height)
        case .threeQuarters: PixelRect(x: r.y, y: panelHeight - r.maxX, width: r.height, height: r.width)
        }
    }

    /// The pixels of `panelRect` (a rectangle of the panel) read from the canvas, row after
    /// row in the panel's own order: what a flush copies.
    public func panelPixels(_ canvas: Canvas, panelRect p: PixelRect, panelWidth: Int, panelHeight: Int) -> [UInt32] {
        if self == .none { return canvas.copy(p) }
        var out = [UInt32](repeating: 0, count: p.area)
        canvas.pixels.withUnsafeBufferPointer { source in
            let w = canvas.width
            var i = 0
            for py in p.y..<p.maxY {
                for px in p.x..<p.maxX {
                    let (lx, ly) = switch self {
                    case .quarter: (py, panelWidth - 1 - px)
                    case .half: (panelWidth - 1 - px, panelHeight - 1 - py)
                    case .threeQuarters: (panelHeight - 1 - py, px)
                    case .none: (px, py)
                    }
                    out[i] = source[ly * w + lx]
                    i += 1
                }
            }
        }
        return out
    }
}
