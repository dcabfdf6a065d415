/// A rectangle of pixels: `x`, `y` is the top-left corner; empty when either side is 0.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public static let zero = PixelRect(x: 0, y: 0, width: 0, height: 0)

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var area: Int { width * height }

    public func intersection(_ other: PixelRect) -> PixelRect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return .zero }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The smallest rectangle holding both; an empty one adds nothing.
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let left = min(x, other.x), top = min(y, other.y)
        return PixelRect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    public func insetBy(_ dx: Int, _ dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// The parts of a frame that changed: a short list of rectangles, merged where they
/// overlap, so a flush copies each changed pixel once.
public struct Damage: Sendable, Equatable {
    public private(set) var rects: [PixelRect] = []

    public init() {}

    public var isEmpty: Bool { rects.isEmpty }
    /// Pixels in all the rectangles.
    public var area: Int { rects.reduce(0) { $0 + $1.area } }

    public mutating func add(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        var merged = rect
        // Merging touching or overlapping rectangles keeps the list short; the few extra
        // pixels a union adds cost less than another flush.
        var index = 0
        while index < rects.count {
            let other = rects[index]
            if !merged.insetBy(-1, -1).intersection(other).isEmpty {
                merged = merged.union(other)
                rects.remove(at: index)
                index = 0
            } else {
                index += 1
            }
        }
        rects.append(merged)
    }
}
