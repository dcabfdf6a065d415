/// The screen as a PNG file, for a machine with no display (`png:PATH`) and for
/// screenshots: each present writes the whole picture in the panel's orientation,
/// replacing the file atomically so a viewer never reads half of it.
public final class PNGDisplay: Display {
    public let path: String
    public let panelWidth: Int
    public let panelHeight: Int
    public let rotation: Rotation
    public var name: String { "png:\(path) (\(panelWidth)x\(panelHeight))" }

    public init(path: String, width: Int, height: Int, rotation: Rotation) {
        self.path = path
        panelWidth = width
        panelHeight = height
        self.rotation = rotation
    }

    public func present(_ canvas: Canvas, damage: Damage) throws(DisplayError) {
        guard !damage.isEmpty else { return }
        let whole = PixelRect(x: 0, y: 0, width: panelWidth, height: panelHeight)
        let pixels = rotation.panelPixels(canvas, panelRect: whole, panelWidth: panelWidth, panelHeight: panelHeight)
        do {
            let bytes = try PNGCodec.encode(width: panelWidth, height: panelHeight, pixels: pixels)
            try AtomicFile.replace(path, with: bytes, durable: false)
        } catch let error as PNGCodec.Failure {
            throw DisplayError(device: path, doing: "encoding", reason: error.reason)
        } catch let error as AtomicFile.Failure {
            throw DisplayError(device: error.path, doing: error.step, error.errno)
        } catch {
            throw DisplayError(device: path, doing: "writing", reason: "\(error)")
        }
    }

    public func close() {}
}
