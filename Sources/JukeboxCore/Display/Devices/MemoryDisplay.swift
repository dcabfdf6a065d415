/// A display with no device: frames are converted and copied into memory in RGB565, as
/// a framebuffer flush does, and go no further (`null:WIDTHxHEIGHT`). For measuring what
/// the screen costs on a machine without one, as the null sink is for audio.
public final class MemoryDisplay: Display {
    public let panelWidth: Int
    public let panelHeight: Int
    public let rotation: Rotation
    public var name: String { "memory (\(panelWidth)x\(panelHeight), RGB565)" }
    private var memory: [UInt16]

    public init(width: Int, height: Int, rotation: Rotation) {
        panelWidth = width
        panelHeight = height
        self.rotation = rotation
        memory = Array(repeating: 0, count: width * height)
    }

    public func present(_ canvas: Canvas, damage: Damage) throws(DisplayError) {
        let stride = panelWidth * 2
        memory.withUnsafeMutableBytes { raw in
            _ = copy(canvas, damage: damage, format: .rgb565, into: raw.baseAddress!, stride: stride)
        }
    }

    public func close() {}
}
