#if canImport(Glibc)
import Glibc
#endif

/// Where the screen is drawn: a framebuffer, a DRM display, a PNG file. The renderer
/// draws into a `Canvas` in the viewer's orientation; a display copies the damaged parts
/// to its own memory, turned by its rotation, and makes them visible.
public protocol Display: AnyObject {
    /// How the log names it ("/dev/fb0 (320x240, RGB565)").
    var name: String { get }
    /// The panel's size in its own orientation.
    var panelWidth: Int { get }
    var panelHeight: Int { get }
    var rotation: Rotation { get }
    /// Shows what changed in `canvas` (the viewer's orientation, `rotation` applied here).
    func present(_ canvas: Canvas, damage: Damage) throws(DisplayError)
    /// Puts the device back as it was found (console mode, screen settings); once.
    func close()
}

extension Display {
    /// The size of the canvas drawn for it.
    public var canvasSize: (width: Int, height: Int) { rotation.canvasSize(panelWidth: panelWidth, panelHeight: panelHeight) }

    /// Copies the damaged parts of `canvas` into panel memory at `base` (rows `stride`
    /// bytes apart) in `format`, turned by `rotation`; returns the panel's rectangles
    /// written, for a display that must be told (DRM's dirty clips).
    @discardableResult
    func copy(_ canvas: Canvas, damage: Damage, format: PixelFormat, into base: UnsafeMutableRawPointer, stride: Int) -> [PixelRect] {
        let whole = PixelRect(x: 0, y: 0, width: panelWidth, height: panelHeight)
        var written: [PixelRect] = []
        for rect in damage.rects {
            let panel = rotation.panelRect(rect, panelWidth: panelWidth, panelHeight: panelHeight).intersection(whole)
            guard !panel.isEmpty else { continue }
            format.store(rotation.panelPixels(canvas, panelRect: panel, panelWidth: panelWidth, panelHeight: panelHeight),
                         rect: panel, into: base, stride: stride)
            written.append(panel)
        }
        return written
    }
}

/// A display's device node, opened for reading and writing; a node that is not there is
/// an absent display (waited for), anything else an error.
func openDisplayDevice(_ path: String) throws(DisplayError) -> Int32 {
    do {
        return try systemCall { FilePath.withCString(path) { open($0, O_RDWR | O_CLOEXEC) } }
    } catch {
        throw DisplayError(device: path, doing: "opening", error)
    }
}

/// A display that failed: which, what it was doing, why.
public struct DisplayError: Error, CustomStringConvertible, Equatable {
    public let device: String
    public let doing: String
    public let reason: String
    /// The device is not there (yet): waited for, not an error.
    public var absent = false

    public init(device: String, doing: String, reason: String, absent: Bool = false) {
        self.device = device
        self.doing = doing
        self.reason = reason
        self.absent = absent
    }

    init(device: String, doing: String, _ errno: Errno) {
        self.init(device: device, doing: doing, reason: "\(errno)", absent: errno == .noEntry || errno == .noDevice)
    }

    public var description: String { "\(device): \(doing): \(reason)" }
}
