import ArgumentParser
import CJukeboxShim
import JukeboxCore

#if canImport(Glibc)
import Glibc
#endif

/// Reads a framebuffer as the panel shows it (its own format, rows at line_length) into
/// a PNG, without touching its settings or the console.
struct FramebufferGrab: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fb-grab", abstract: "Save what a framebuffer shows as a PNG.")
    @Option var device = "/dev/fb0"
    @Option var out: String

    func run() throws {
        let fd = open(device, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ValidationError("\(device): \(Errno.current)") }
        defer { close(fd) }
        var info = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard jukebox_fb_get_variable(fd, &info) == 0, jukebox_fb_get_fixed(fd, &fixed) == 0 else {
            throw ValidationError("\(device): \(Errno.current)")
        }
        let format = PixelFormat(bitsPerPixel: Int(info.bits_per_pixel),
                                 red: .init(offset: Int(info.red.offset), length: Int(info.red.length)),
                                 green: .init(offset: Int(info.green.offset), length: Int(info.green.length)),
                                 blue: .init(offset: Int(info.blue.offset), length: Int(info.blue.length)))
        let width = Int(info.xres), height = Int(info.yres), stride = Int(fixed.line_length)
        var memory = [UInt8](repeating: 0, count: stride * (Int(info.yoffset) + height))
        let got = memory.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard got == memory.count else { throw ValidationError("\(device): read \(got) of \(memory.count) bytes") }
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let at = (y + Int(info.yoffset)) * stride + x * format.bytesPerPixel
                var value: UInt32 = 0
                for byte in 0..<format.bytesPerPixel { value |= UInt32(memory[at + byte]) << (8 * UInt32(byte)) }
                pixels[y * width + x] = format.decode(value)
            }
        }
        let bytes = try PNGCodec.encode(width: width, height: height, pixels: pixels)
        guard let file = fopen(out, "wb") else { throw ValidationError("\(out): \(Errno.current)") }
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
        print("\(width)x\(height) \(format)")
    }
}

/// How many pixels of two pictures (PNG, or PPM from QEMU's screendump) differ, each
/// first reduced to the panel's format (a screenshot in full colour against what an
/// RGB565 panel holds).
struct PNGDiff: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "png-diff", abstract: "Count the pixels in which two PNGs differ.")
    @Argument var first: String
    @Argument var second: String
    @Option(help: "rgb565 or xrgb8888") var format = "xrgb8888"

    func run() throws {
        let a = try load(first), b = try load(second)
        guard a.width == b.width, a.height == b.height else {
            throw ValidationError("sizes differ: \(a.width)x\(a.height) and \(b.width)x\(b.height)")
        }
        let f: PixelFormat = format == "rgb565" ? .rgb565 : .xrgb8888
        var differ = 0
        for i in 0..<a.pixels.count where f.decode(f.encode(a.pixels[i])) != f.decode(f.encode(b.pixels[i])) { differ += 1 }
        let permille = differ * 1000 / a.pixels.count
        print("differ=\(differ) total=\(a.pixels.count) permille=\(permille)")
    }

    private func load(_ path: String) throws -> RGBImage {
        guard let file = fopen(path, "rb") else { throw ValidationError("\(path): \(Errno.current)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return bytes.starts(with: Array("P6".utf8)) ? try ppm(bytes, path: path) : try PNGCodec.decode(bytes)
    }

    /// A binary PPM (P6, 8 bits), as QEMU's screendump writes it.
    private func ppm(_ bytes: [UInt8], path: String) throws -> RGBImage {
        var fields: [Int] = []
        var i = 2
        while fields.count < 3, i < bytes.count {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
            var value = 0
            var digits = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { value = value * 10 + Int(bytes[i] - 0x30); i += 1; digits += 1 }
            guard digits > 0 else { throw ValidationError("\(path): not a P6 PPM header") }
            fields.append(value)
        }
        i += 1  // the single whitespace after the maximum value
        let (width, height) = (fields[0], fields[1])
        guard fields.count == 3, fields[2] == 255, bytes.count >= i + width * height * 3 else {
            throw ValidationError("\(path): a PPM of \(width)x\(height) needs \(width * height * 3) bytes of 8-bit RGB")
        }
        let pixels = (0..<(width * height)).map { p in
            UInt32(bytes[i + p * 3]) << 16 | UInt32(bytes[i + p * 3 + 1]) << 8 | UInt32(bytes[i + p * 3 + 2])
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}

/// The console's mode: "text" or "graphics" (KDGETMODE on /dev/tty0).
struct ConsoleModeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "console-mode", abstract: "Print the console's mode, text or graphics.")

    func run() throws {
        let fd = open("/dev/tty0", O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw ValidationError("/dev/tty0: \(Errno.current)") }
        defer { close(fd) }
        var mode: Int32 = 0
        guard jukebox_console_get_mode(fd, &mode) == 0 else { throw ValidationError("KDGETMODE: \(Errno.current)") }
        print(mode == Int32(KD_GRAPHICS) ? "graphics" : "text")
    }
}

/// The screen's work for a stretch of playback, without the wall clock: the renderer
/// steps through the track at the times the screen thread would wake (each change it
/// announces, at most `--fill-rate` frames a second), drawing and copying the damage into an RGB565
/// buffer as a framebuffer flush does. Prints the CPU that took per second of playback.
struct ScreenCost: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "screen-cost", abstract: "CPU the screen spends per second of playback.")
    @Option var track: String
    @Option var size = "320x240"
    @Option(help: "Seconds of playback (default: the whole track).") var seconds: Double?
    @Option(help: "Frames a second while the fill moves, as [display] fill_rate.") var fillRate = ScreenRenderer.defaultFillRate
    @Option var font: [String] = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"]

    func run() throws {
        guard let (width, height) = ConfigLoader.size(size) else { throw ValidationError("--size WIDTHxHEIGHT") }
        var problems: [String] = []
        let fonts = try FontChain(paths: font, problems: &problems)
        var input = try Screenshot(track: track, seconds: 0).input(problems: &problems)
        input.statusAt = 1_000_000_000
        let duration = input.status?.duration ?? 0
        let end = input.statusAt + UInt64((seconds ?? duration) * 1e9)
        let renderer = ScreenRenderer(width: width, height: height, fonts: fonts, fillRate: fillRate)
        var memory = [UInt16](repeating: 0, count: width * height)
        let started = Self.cpu()
        var now = input.statusAt, lastFrame: UInt64 = 0
        var frames = 0, pixels = 0
        while now < end {
            let (content, next) = renderer.content(for: input, at: now)
            let damage = renderer.render(content, cover: input.cover)
            if !damage.isEmpty {
                memory.withUnsafeMutableBytes { raw in
                    for rect in damage.rects {
                        PixelFormat.rgb565.store(renderer.canvas.copy(rect), rect: rect, into: raw.baseAddress!, stride: width * 2)
                    }
                }
                frames += 1
                pixels += damage.area
                lastFrame = now
            }
            now = max(next ?? end, lastFrame + renderer.fillInterval)
        }
        let cpu = Self.cpu() - started
        let played = Double(end - input.statusAt) / 1e9
        print("SCREENCOST seconds=\(Int(played)) cpu_ms=\(Int(cpu * 1000)) frames=\(frames) pixels=\(pixels) per_second_ms=\(Double(Int(cpu * 1e5 / played)) / 100)")
    }

    static func cpu() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
