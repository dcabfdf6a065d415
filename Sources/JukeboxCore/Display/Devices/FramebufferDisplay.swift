import CJukeboxShim

#if canImport(Glibc)
import Glibc
#endif

/// A Linux framebuffer (`/dev/fbN`): mapped once, written row by row at its
/// `line_length`, only where the frame changed. Opening sets the screen info again
/// (DRM's fbdev emulation, as for TinyDRM SPI panels, shows nothing until then) and puts
/// the console of `/dev/fb0` into graphics mode so its text and cursor stay off the
/// picture; `close` puts both back.
public final class FramebufferDisplay: Display {
    public let path: String
    public let panelWidth: Int
    public let panelHeight: Int
    public let rotation: Rotation
    public let format: PixelFormat
    public var name: String { "\(path) (\(panelWidth)x\(panelHeight), \(format))" }
    /// Notes for the log from opening it (the console mode could not be set, say).
    public private(set) var notes: [String] = []

    private let fd: Int32
    private let saved: fb_var_screeninfo
    private let mapping: UnsafeMutableRawPointer
    private let mappedLength: Int
    /// The visible page's first pixel.
    private let origin: UnsafeMutableRawPointer
    private let stride: Int
    private var console: ConsoleMode?
    private var closed = false

    public init(path: String, rotation: Rotation) throws(DisplayError) {
        self.path = path
        self.rotation = rotation
        let device = try openDisplayDevice(path)
        var info = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        do {
            try systemCall { jukebox_fb_get_variable(device, &info) }
            saved = info
            // The same mode, activated now and forced: the emulation's panel lights up.
            var activate = info
            activate.activate = UInt32(FB_ACTIVATE_NOW | FB_ACTIVATE_FORCE)
            if (try? systemCall({ jukebox_fb_put_variable(device, &activate) })) == nil {
                notes.append("setting the screen info was refused (\(Errno.current)); drawing anyway")
            }
            try systemCall { jukebox_fb_get_variable(device, &info) }
            try systemCall { jukebox_fb_get_fixed(device, &fixed) }
        } catch {
            Glibc.close(device)
            throw DisplayError(device: path, doing: "reading the screen info", error)
        }
        let format = PixelFormat(bitsPerPixel: Int(info.bits_per_pixel),
                                 red: .init(offset: Int(info.red.offset), length: Int(info.red.length)),
                                 green: .init(offset: Int(info.green.offset), length: Int(info.green.length)),
                                 blue: .init(offset: Int(info.blue.offset), length: Int(info.blue.length)))
        guard format.isSupported, fixed.visual == FB_VISUAL_TRUECOLOR || fixed.visual == FB_VISUAL_DIRECTCOLOR else {
            Glibc.close(device)
            throw DisplayError(device: path, doing: "checking its format",
                               reason: "\(format) (visual \(fixed.visual)) is not one the jukebox draws; it needs 16 or 32 bits per pixel, true colour")
        }
        self.format = format
        panelWidth = Int(info.xres)
        panelHeight = Int(info.yres)
        stride = Int(fixed.line_length)
        // The memory may start inside a page: map from the page and step in (as fbida does).
        // smem_start is a physical or kernel address: unsigned, often above Int.max.
        let pageOffset = Int(UInt(fixed.smem_start) & (UInt(sysconf(Int32(_SC_PAGESIZE))) - 1))
        mappedLength = Int(fixed.smem_len) + pageOffset
        let needed = (Int(info.yoffset) + panelHeight) * stride
        guard panelWidth > 0, panelHeight > 0, stride >= panelWidth * format.bytesPerPixel, needed <= Int(fixed.smem_len) else {
            Glibc.close(device)
            throw DisplayError(device: path, doing: "checking its size",
                               reason: "\(panelWidth)x\(panelHeight) with rows of \(stride) bytes does not fit its \(fixed.smem_len) bytes")
        }
        guard let map = mmap(nil, mappedLength, PROT_READ | PROT_WRITE, MAP_SHARED, device, 0), map != MAP_FAILED else {
            let error = Errno.current
            Glibc.close(device)
            throw DisplayError(device: path, doing: "mapping its memory", error)
        }
        mapping = map
        fd = device
        origin = map + pageOffset + Int(info.yoffset) * stride + Int(info.xoffset) * format.bytesPerPixel
        if path == "/dev/fb0" {
            do {
                console = try ConsoleMode.graphics()
            } catch {
                notes.append("the console stays in text mode (/dev/tty0: \(error)); its cursor may blink over the picture")
            }
        }
    }

    public func present(_ canvas: Canvas, damage: Damage) throws(DisplayError) {
        copy(canvas, damage: damage, format: format, into: origin, stride: stride)
    }

    public func close() {
        guard !closed else { return }
        closed = true
        console?.restore()
        var info = saved
        _ = jukebox_fb_put_variable(fd, &info)
        munmap(mapping, mappedLength)
        Glibc.close(fd)
    }

    deinit { close() }
}

/// The virtual console switched to graphics mode, and what it was before.
struct ConsoleMode {
    let fd: Int32
    let previous: Int32

    static func graphics() throws(Errno) -> ConsoleMode {
        let fd = try systemCall { open("/dev/tty0", O_RDWR | O_CLOEXEC | O_NOCTTY) }
        var mode: Int32 = 0
        do {
            try systemCall { jukebox_console_get_mode(fd, &mode) }
            try systemCall { jukebox_console_set_mode(fd, Int32(KD_GRAPHICS)) }
        } catch {
            Glibc.close(fd)
            throw error
        }
        return ConsoleMode(fd: fd, previous: mode)
    }

    func restore() {
        _ = jukebox_console_set_mode(fd, previous)
        Glibc.close(fd)
    }
}
