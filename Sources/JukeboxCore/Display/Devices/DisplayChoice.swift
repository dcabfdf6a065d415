#if canImport(Glibc)
import Glibc
#endif

/// `[display] device`: which display the screen is drawn on.
public enum DisplayChoice: Sendable, Equatable, CustomStringConvertible {
    /// The last framebuffer (`/dev/fbN` with the highest N: an add-on panel registers after
    /// the HDMI console's fb0), or none if the machine has no framebuffer.
    case auto
    case framebuffer(String)
    /// The screen as a PNG file, rewritten when it changes (at most twice a second).
    case png(String)
    case none

    public init?(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "none": self = .none
        case _ where text.hasPrefix("png:") && text.count > 4: self = .png(String(text.dropFirst(4)))
        case _ where text.hasPrefix("/dev/fb"): self = .framebuffer(text)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .auto: "auto"
        case .none: "none"
        case .png(let path): "png:\(path)"
        case .framebuffer(let path): path
        }
    }

    /// The framebuffers present now, highest number first.
    public static func framebuffers() -> [String] {
        guard let dir = opendir("/dev") else { return [] }
        defer { closedir(dir) }
        var found: [(Int, String)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("fb"), let n = Int(name.dropFirst(2)) { found.append((n, "/dev/\(name)")) }
        }
        return found.sorted { $0.0 > $1.0 }.map(\.1)
    }
}
