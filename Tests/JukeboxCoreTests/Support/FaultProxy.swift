import Foundation

/// A proxy on a loopback port in front of a real server (nginx, Icecast) that spoils its
/// answers the way bad links and odd servers do: another status line (`ICY 200 OK`), the
/// body chunked without a length, the head or the body trickled, the body held after some
/// bytes. One request per connection; every loop ends when the proxy goes.
final class FaultProxy: @unchecked Sendable {
    struct Fault: Sendable {
        /// Replaces the upstream's status line.
        var statusLine: String?
        /// Sends the body chunked, its Content-Length taken out.
        var chunked = false
        /// The head at this many bytes a second.
        var headBytesPerSecond: Int?
        /// The body at this many bytes a second, after `fastBytes` at full speed.
        var bodyBytesPerSecond: Int?
        var fastBytes = 0
        /// Sends this many body bytes, then holds the connection open, sending nothing more.
        var holdAfter: Int?
    }

    let port: Int
    private let upstream: Int
    private let fault: Fault
    private let listener: Int32
    private let stopping = ConditionFlag()

    init(to upstreamPort: Int, _ fault: Fault) throws {
        upstream = upstreamPort
        self.fault = fault
        (listener, port) = try LoopbackListener.open()
        Thread { [self] in acceptClients() }.start()
    }

    deinit {
        stopping.set()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path.hasPrefix("/") ? "" : "/")\(path)" }

    private func acceptClients() {
        while !stopping.isSet {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            Thread { [self] in
                serve(client)
                close(client)
            }.start()
        }
    }

    private func serve(_ client: Int32) {
        guard let request = readHead(client) else { return }
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(upstream).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        // One request a connection: the upstream closes after its answer, which ends the body.
        var asked = String(decoding: request.head, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        asked.removeAll { $0.lowercased().hasPrefix("connection:") }
        asked.append("Connection: close")
        guard connected, send(server, Array((asked.joined(separator: "\r\n") + "\r\n\r\n").utf8) + request.rest) else { return }
        guard let answer = readHead(server) else { return }
        var lines = String(decoding: answer.head, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        if let status = fault.statusLine, !lines.isEmpty { lines[0] = status }
        if fault.chunked {
            lines.removeAll { $0.lowercased().hasPrefix("content-length:") || $0.lowercased().hasPrefix("connection:") }
            lines += ["Transfer-Encoding: chunked", "Connection: close"]
        }
        let head = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        if let rate = fault.headBytesPerSecond {
            guard paced(client, head, bytesPerSecond: rate) else { return }
        } else {
            guard send(client, head) else { return }
        }
        var body = 0
        var pending = answer.rest
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while !stopping.isSet {
            if pending.isEmpty {
                let n = recv(server, &buffer, buffer.count, 0)
                if n <= 0 { break }
                pending = Array(buffer[..<n])
            }
            if let hold = fault.holdAfter, body + pending.count >= hold {
                pending = Array(pending.prefix(hold - body))
                _ = forward(client, pending)
                while !stopping.isSet { usleep(50_000) }
                return
            }
            guard forward(client, pending, at: body) else { return }
            body += pending.count
            pending = []
        }
        if fault.chunked, !stopping.isSet { _ = send(client, Array("0\r\n\r\n".utf8)) }
    }

    /// Body bytes to the client: chunked or not, paced or not.
    private func forward(_ client: Int32, _ bytes: [UInt8], at body: Int = 0) -> Bool {
        guard !bytes.isEmpty else { return true }
        let framed = fault.chunked ? Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10] : bytes
        guard let rate = fault.bodyBytesPerSecond else { return send(client, framed) }
        let fast = max(0, min(framed.count, fault.fastBytes - body))
        return send(client, Array(framed[..<fast])) && paced(client, Array(framed[fast...]), bytesPerSecond: rate)
    }

    /// Sends `bytes` a few at a time so that they take `count / bytesPerSecond` seconds.
    private func paced(_ fd: Int32, _ bytes: [UInt8], bytesPerSecond: Int) -> Bool {
        let step = max(1, bytesPerSecond / 20)
        var at = 0
        while at < bytes.count, !stopping.isSet {
            let piece = Array(bytes[at..<min(bytes.count, at + step)])
            guard send(fd, piece) else { return false }
            at += piece.count
            usleep(UInt32(1_000_000 * piece.count / bytesPerSecond))
        }
        return !stopping.isSet
    }

    /// A head up to its blank line (at most 64 KiB), and what came after it.
    private func readHead(_ fd: Int32) -> (head: [UInt8], rest: [UInt8])? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 64 << 10, !stopping.isSet {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return nil }
            bytes += buffer[..<n]
            if let end = bytes.firstRange(of: [13, 10, 13, 10]) {
                return (Array(bytes[..<end.upperBound]), Array(bytes[end.upperBound...]))
            }
        }
        return nil
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }
}
