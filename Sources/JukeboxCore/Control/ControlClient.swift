#if canImport(Glibc)
import Glibc
#endif

/// A minimal client for the control socket, for `jukebox ctl` and `jukebox status`.
public final class ControlClient {
    private let fd: Int32
    private var buffer: [UInt8] = []

    public init(socketPath: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ControlError("socket: \(Errno.current)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw ControlError("socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes); $0[bytes.count] = 0 }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0 else {
            let error = Errno.current
            close(fd)
            throw ControlError("cannot connect to \(socketPath): \(error) (is the jukebox running?)")
        }
        guard let greeting = try readLine(), greeting.hasPrefix("OK MPD") else {
            close(fd)
            throw ControlError("\(socketPath) did not greet like a jukebox")
        }
    }

    deinit { close(fd) }

    /// Sends one command; returns its `key: value` lines, or throws the ACK line.
    public func send(_ words: [String]) throws -> [String] {
        let line = words.map(MPDProtocol.quote).joined(separator: " ") + "\n"
        var bytes = Array(line.utf8)
        guard Glibc.send(fd, &bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw ControlError("connection lost: \(Errno.current)")
        }
        var lines: [String] = []
        while let reply = try readLine() {
            if reply == "OK" { return lines }
            if reply.hasPrefix("ACK") { throw ControlError(reply) }
            lines.append(reply)
        }
        throw ControlError("connection closed before the reply ended")
    }

    private func readLine() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { return nil }
            if n < 0 { if errno == EINTR { continue }; throw ControlError("read failed: \(Errno.current)") }
            buffer += chunk[0..<n]
        }
    }
}
