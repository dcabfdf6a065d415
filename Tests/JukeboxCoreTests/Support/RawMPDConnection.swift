import Foundation

/// One connection that speaks MPD's protocol byte for byte, for holding two servers' replies
/// side by side: a command line goes out as written (quoting mistakes included), and its
/// whole reply comes back as text, to its last line: `OK`, the `ACK` line, or `<closed>`
/// when the server hangs up. A `binary: N` chunk is read whole and shown as its length and
/// a digest, so two pictures compare by content.
final class RawMPDConnection {
    private(set) var greeting = ""
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    init(socket path: String, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes); $0[bytes.count] = 0 }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let failure = POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED
            close(fd)
            throw POSIXError(failure)
        }
        greeting = readLine() ?? "<closed>"
    }

    deinit { close(fd) }

    /// Sends `line` and a newline; the reply's lines, ending with its last.
    func reply(to line: String) -> [String] {
        send(line)
        return readReply()
    }

    /// Sends `line` and a newline without waiting for the reply (`idle`, to be ended by
    /// another client); `readReply` then reads it.
    func send(_ line: String) {
        guard !closed else { return }
        let bytes = Array((line + "\n").utf8)
        if bytes.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) != bytes.count { closed = true }
    }

    /// The next reply's lines, ending with its last.
    func readReply() -> [String] {
        guard !closed else { return ["<closed>"] }
        var lines: [String] = []
        while let next = readLine() {
            if next.hasPrefix("binary: "), let count = Int(next.dropFirst(8)), let chunk = read(count + 1) {
                lines.append("binary: \(count) <digest \(Self.digest(chunk.dropLast()))>")
                continue
            }
            lines.append(next)
            if next == "OK" || next.hasPrefix("ACK ") { return lines }
        }
        closed = true
        return lines + ["<closed>"]
    }

    /// FNV-1a: enough to tell two pictures apart.
    static func digest(_ bytes: ArraySlice<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    private func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard fill() else { return nil }
        }
    }

    private func read(_ count: Int) -> [UInt8]? {
        while buffer.count < count { guard fill() else { return nil } }
        defer { buffer.removeSubrange(..<count) }
        return Array(buffer[..<count])
    }

    /// One read into the buffer; false at the end of the stream or after the timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { return false }
        buffer += chunk[0..<n]
        return true
    }
}
