import CDRM

#if canImport(Glibc)
import Glibc
#endif

/// A DRM/KMS display (`/dev/dri/cardN`): the first connected connector, a CRTC that can
/// drive it, its preferred mode, and one XRGB8888 dumb buffer scanned out from it. Only
/// the damaged rectangles are written, and they are sent with `DRM_IOCTL_MODE_DIRTYFB`
/// clips: what small SPI panels (TinyDRM, `panel-mipi-dbi`) need to transfer only what
/// changed. `close` puts back the CRTC as it was found.
public final class DRMDisplay: Display {
    public let path: String
    public let panelWidth: Int
    public let panelHeight: Int
    public let rotation: Rotation
    public let connectorName: String
    public var name: String { "\(path) (\(connectorName), \(panelWidth)x\(panelHeight), XRGB8888)" }

    private let fd: Int32
    private let crtc: UInt32
    private let connector: UInt32
    private let saved: UnsafeMutablePointer<drmModeCrtc>?
    private let handle: UInt32
    private let framebuffer: UInt32
    private let pitch: Int
    private let memory: UnsafeMutableRawPointer
    private let length: Int
    /// The driver needs no dirty calls (it scans out the buffer itself): stop making them.
    private var dirtyUnsupported = false
    private var closed = false

    public init(path: String, rotation: Rotation) throws(DisplayError) {
        self.path = path
        self.rotation = rotation
        let device = try openDisplayDevice(path)
        func fail(_ doing: String, _ reason: String) -> DisplayError {
            Glibc.close(device)
            return DisplayError(device: path, doing: doing, reason: reason)
        }
        guard let found = Self.connectedOutput(device) else {
            throw fail("finding a display", "no connected connector with a mode and a free CRTC")
        }
        var mode = found.mode
        let width = UInt32(mode.hdisplay), height = UInt32(mode.vdisplay)
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        guard drmModeCreateDumbBuffer(device, width, height, 32, 0, &handle, &pitch, &size) == 0 else {
            throw fail("creating a buffer", "\(Errno.current)")
        }
        var framebuffer: UInt32 = 0
        var offset: UInt64 = 0
        guard drmModeAddFB(device, width, height, 24, 32, pitch, handle, &framebuffer) == 0 else {
            let error = Errno.current
            _ = drmModeDestroyDumbBuffer(device, handle)
            throw fail("adding a framebuffer", "\(error)")
        }
        guard drmModeMapDumbBuffer(device, handle, &offset) == 0,
              let map = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, device, off_t(offset)), map != MAP_FAILED else {
            let error = Errno.current
            _ = drmModeRmFB(device, framebuffer)
            _ = drmModeDestroyDumbBuffer(device, handle)
            throw fail("mapping the buffer", "\(error)")
        }
        // Black before it is shown, not what the buffer held.
        memset(map, 0, Int(size))
        let saved = drmModeGetCrtc(device, found.crtc)
        var connector = found.connector
        guard drmModeSetCrtc(device, found.crtc, framebuffer, 0, 0, &connector, 1, &mode) == 0 else {
            let error = Errno.current
            munmap(map, Int(size))
            _ = drmModeRmFB(device, framebuffer)
            _ = drmModeDestroyDumbBuffer(device, handle)
            drmModeFreeCrtc(saved)
            throw fail("setting the mode", error == Errno(EACCES) ? "\(error) (another program is the display's master)" : "\(error)")
        }
        fd = device
        crtc = found.crtc
        self.connector = found.connector
        self.saved = saved
        self.handle = handle
        self.framebuffer = framebuffer
        self.pitch = Int(pitch)
        memory = map
        length = Int(size)
        panelWidth = Int(width)
        panelHeight = Int(height)
        connectorName = found.name
    }

    public func present(_ canvas: Canvas, damage: Damage) throws(DisplayError) {
        var clips = copy(canvas, damage: damage, format: .xrgb8888, into: memory, stride: pitch).map { panel in
            drmModeClip(x1: UInt16(panel.x), y1: UInt16(panel.y), x2: UInt16(panel.maxX), y2: UInt16(panel.maxY))
        }
        guard !clips.isEmpty, !dirtyUnsupported else { return }
        let result = drmModeDirtyFB(fd, framebuffer, &clips, UInt32(clips.count))
        if result == -ENOSYS || result == -EOPNOTSUPP {
            dirtyUnsupported = true
        } else if result < 0 {
            throw DisplayError(device: path, doing: "flushing", Errno(negated: result))
        }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        if let saved {
            var connector = self.connector
            var mode = saved.pointee.mode
            let c = saved.pointee
            if c.mode_valid != 0 {
                _ = drmModeSetCrtc(fd, c.crtc_id, c.buffer_id, c.x, c.y, &connector, 1, &mode)
            } else {
                _ = drmModeSetCrtc(fd, c.crtc_id, 0, 0, 0, nil, 0, nil)
            }
            drmModeFreeCrtc(saved)
        }
        munmap(memory, length)
        _ = drmModeRmFB(fd, framebuffer)
        _ = drmModeDestroyDumbBuffer(fd, handle)
        Glibc.close(fd)
    }

    deinit { close() }

    /// The first connector that is connected and has modes, its preferred mode (else
    /// the first), and a CRTC its encoders can use.
    static func connectedOutput(_ fd: Int32) -> (connector: UInt32, crtc: UInt32, mode: drmModeModeInfo, name: String)? {
        guard let resources = drmModeGetResources(fd) else { return nil }
        defer { drmModeFreeResources(resources) }
        let r = resources.pointee
        for i in 0..<Int(r.count_connectors) {
            guard let connector = drmModeGetConnector(fd, r.connectors[i]) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            guard c.connection == DRM_MODE_CONNECTED, c.count_modes > 0 else { continue }
            let modes = UnsafeBufferPointer(start: c.modes, count: Int(c.count_modes))
            let mode = modes.first { $0.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 } ?? modes[0]
            guard let crtc = crtc(fd, for: c, resources: r) else { continue }
            let name = "\(connectorTypeName(c.connector_type))-\(c.connector_type_id)"
            return (c.connector_id, crtc, mode, name)
        }
        return nil
    }

    private static func crtc(_ fd: Int32, for c: drmModeConnector, resources r: drmModeRes) -> UInt32? {
        // The encoder in use already has one: keep it.
        if c.encoder_id != 0, let encoder = drmModeGetEncoder(fd, c.encoder_id) {
            defer { drmModeFreeEncoder(encoder) }
            if encoder.pointee.crtc_id != 0 { return encoder.pointee.crtc_id }
        }
        for e in 0..<Int(c.count_encoders) {
            guard let encoder = drmModeGetEncoder(fd, c.encoders[e]) else { continue }
            defer { drmModeFreeEncoder(encoder) }
            for k in 0..<Int(r.count_crtcs) where encoder.pointee.possible_crtcs & (1 << UInt32(k)) != 0 {
                return r.crtcs[k]
            }
        }
        return nil
    }

    private static func connectorTypeName(_ type: UInt32) -> String {
        switch Int32(type) {
        case DRM_MODE_CONNECTOR_HDMIA: "HDMI-A"
        case DRM_MODE_CONNECTOR_VIRTUAL: "Virtual"
        case DRM_MODE_CONNECTOR_SPI: "SPI"
        case DRM_MODE_CONNECTOR_DSI: "DSI"
        case DRM_MODE_CONNECTOR_DPI: "DPI"
        case DRM_MODE_CONNECTOR_Composite: "Composite"
        case DRM_MODE_CONNECTOR_VGA: "VGA"
        default: "connector"
        }
    }
}
