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
