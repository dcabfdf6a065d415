#if canImport(Glibc)
import Glibc
#endif

/// `[display] device`: which display the screen is drawn on.
public enum DisplayChoice: Sendable, Equatable, CustomStringConvertible {
    /// The last DRM card with a connected display, else the last framebuffer (`/dev/fbN`
    /// with the highest N: an add-on panel registers after the HDMI console's), else none.
    case auto
    case framebuffer(String)
    case drm(String)
    /// The screen as a PNG file, rewritten when it changes (at most twice a second).
    case png(String)
    /// Drawn into memory only, at this size: for benchmarks (`null:320x240`).
    case memory(width: Int, height: Int)
    case none

    public init?(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "none": self = .none
        case _ where text.hasPrefix("png:") && text.count > 4: self = .png(String(text.dropFirst(4)))
        case _ where text.hasPrefix("null:"):
            guard let size = ConfigLoader.size(String(text.dropFirst(5))) else { return nil }
            self = .memory(width: size.width, height: size.height)
        case _ where text.hasPrefix("/dev/fb"): self = .framebuffer(text)
        case _ where text.hasPrefix("/dev/dri/"): self = .drm(text)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .auto: "auto"
        case .none: "none"
        case .png(let path): "png:\(path)"
        case .memory(let width, let height): "null:\(width)x\(height)"
        case .framebuffer(let path), .drm(let path): path
        }
    }

    /// The framebuffers present now, highest number first.
    public static func framebuffers() -> [String] { devices(in: "/dev", prefix: "fb") }

    /// The DRM cards present now, highest number first.
    public static func drmCards() -> [String] { devices(in: "/dev/dri", prefix: "card") }

    private static func devices(in folder: String, prefix: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var found: [(Int, String)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(prefix), let n = Int(name.dropFirst(prefix.count)) { found.append((n, "\(folder)/\(name)")) }
        }
        return found.sorted { $0.0 > $1.0 }.map(\.1)
    }
}
