import CJukeboxShim

#if canImport(Glibc)
import Glibc
#endif

/// The kernel's device announcements (the netlink socket udev itself reads), so an input
/// device or GPIO chip that appears later is opened when it appears. Works with or without
/// udev; if the socket cannot be had, the input thread looks again every few seconds.
public final class UeventMonitor {
    public struct Uevent: Sendable, Equatable {
        public var action: String
        public var subsystem: String
        public var devname: String
    }

    public let fd: Int32

    /// Throws when the socket cannot be had (no netlink in a container, say).
    public init() throws(Errno) {
        let fd = try systemCall {
            socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), NETLINK_KOBJECT_UEVENT)
        }
        var address = sockaddr_nl()
        address.nl_family = UInt16(AF_NETLINK)
        address.nl_pid = 0
        address.nl_groups = 1  // kernel events
        do {
            try socketAddressCall(&address) { bind(fd, $0, $1) }
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// The announcements waiting, parsed.
    public func read() -> [Uevent] {
        var events: [Uevent] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            if let event = Self.parse(buffer[0..<n]) { events.append(event) }
        }
        return events
    }

    /// `ACTION@DEVPATH\0KEY=VALUE\0...` from the kernel.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Uevent? {
        var fields: [String: String] = [:]
        for part in bytes.split(separator: 0) {
            let text = String(decoding: part, as: UTF8.self)
            guard let eq = text.firstIndex(of: "=") else { continue }
            fields[String(text[..<eq])] = String(text[text.index(after: eq)...])
        }
        guard let action = fields["ACTION"], let subsystem = fields["SUBSYSTEM"] else { return nil }
        return Uevent(action: action, subsystem: subsystem, devname: fields["DEVNAME"] ?? "")
    }
}
