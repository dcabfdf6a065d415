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
        let (w, h) = (panelWidth, panelHeight)
        memory.withUnsafeMutableBytes { raw in
            for rect in damage.rects {
                let panel = rotation.panelRect(rect, panelWidth: w, panelHeight: h).intersection(PixelRect(x: 0, y: 0, width: w, height: h))
                guard !panel.isEmpty else { continue }
                PixelFormat.rgb565.store(rotation.panelPixels(canvas, panelRect: panel, panelWidth: w, panelHeight: h),
                                         rect: panel, into: raw.baseAddress!, stride: w * 2)
            }
        }
    }

    public func close() {}
}
