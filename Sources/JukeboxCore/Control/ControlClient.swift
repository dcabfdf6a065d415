#if canImport(Glibc)
import Glibc
#endif

/// A minimal client for the control socket, for `jukebox ctl` and `jukebox status`.
/// Connecting and each reply are bounded by a timeout, so a stopped or wedged daemon
/// gives a clear message instead of a terminal that hangs.
public final class ControlClient {
    public enum Failure: Error, CustomStringConvertible, Equatable {
        case pathTooLong(path: String)
        case cannotConnect(path: String, Errno)
        case noAnswer(path: String, seconds: Double)
        case notAJukebox(path: String)
        case connectionLost(path: String)
        /// The jukebox refused the command: its ACK line.
        case refused(ack: String)

        public var description: String {
            switch self {
            case .pathTooLong(let path): "socket path too long: \(path)"
            case .cannotConnect(let path, let error): "cannot connect to \(path): \(error) (is the jukebox running?)"
            case .noAnswer(let path, let seconds): "the jukebox at \(path) did not answer within \(Self.format(seconds)) s"
            case .notAJukebox(let path): "\(path) did not greet like a jukebox"
            case .connectionLost(let path): "the jukebox at \(path) closed the connection before its reply ended"
            case .refused(let ack): ack
            }
        }

        static func format(_ seconds: Double) -> String {
            seconds == seconds.rounded() && seconds < 1e9 ? "\(Int(seconds))" : "\(seconds)"
        }
    }

    public static let defaultTimeoutSeconds = 5.0

    private let fd: Int32
    private let path: String
    private let timeoutSeconds: Double
    private var buffer: [UInt8] = []

    public init(socketPath: String, timeoutSeconds: Double = ControlClient.defaultTimeoutSeconds) throws(Failure) {
        path = socketPath
        self.timeoutSeconds = timeoutSeconds
        do {
            fd = try systemCall { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0) }
        } catch {
            throw .cannotConnect(path: socketPath, error)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { close(fd); throw .pathTooLong(path: socketPath) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes); $0[bytes.count] = 0 }
        // A Unix connect waits for room in the daemon's backlog for at most the send
        // timeout (and then fails with EAGAIN), so this also bounds connecting.
        let whole = Int(timeoutSeconds)
        var timeout = timeval(tv_sec: whole, tv_usec: Int((timeoutSeconds - Double(whole)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        do {
            try socketAddressCall(&address) { connect(fd, $0, $1) }
        } catch {
            close(fd)
            throw error == .wouldBlock ? .noAnswer(path: socketPath, seconds: timeoutSeconds) : .cannotConnect(path: socketPath, error)
        }
        do {
            guard let greeting = try readLine(deadline: deadline()), greeting.hasPrefix("OK MPD") else {
                throw Failure.notAJukebox(path: socketPath)
            }
        } catch let error as Failure {
            close(fd)
            throw error
        } catch {
            close(fd)
            throw .connectionLost(path: socketPath)
        }
    }

    deinit { close(fd) }

    /// The socket, for a caller that waits on it with others (`idle` with stdin).
    public var fileDescriptor: Int32 { fd }

    /// Sends one command; returns its `key: value` lines, or throws the ACK line.
    public func send(_ words: [String]) throws(Failure) -> [String] {
        try write(words)
        return try readReply()
    }

    /// Sends one command without waiting for its reply (`idle`, whose reply comes when
    /// something changes; read it with `readReply` once the socket is readable).
    public func write(_ words: [String]) throws(Failure) {
        let line = words.map(MPDProtocol.quote).joined(separator: " ") + "\n"
        let bytes = Array(line.utf8)
        do {
            let sent = try bytes.withUnsafeBytes { raw throws(Errno) in
                try systemCall { Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) }
            }
            guard sent == bytes.count else { throw Failure.noAnswer(path: path, seconds: timeoutSeconds) }
        } catch let error as Failure {
            throw error
        } catch {
            throw error as? Errno == .wouldBlock ? .noAnswer(path: path, seconds: timeoutSeconds) : .connectionLost(path: path)
        }
    }

    /// The `key: value` lines of the reply to the command written last, or its ACK thrown.
    public func readReply() throws(Failure) -> [String] {
        let until = deadline()
        var lines: [String] = []
        while let reply = try readLine(deadline: until) {
            if reply == "OK" { return lines }
            if reply.hasPrefix("ACK") { throw .refused(ack: reply) }
            lines.append(reply)
        }
        throw .connectionLost(path: path)
    }

    /// A reply with a binary chunk (`albumart`, `readpicture`): its `key: value` lines and
    /// the chunk (empty when the reply has none). A chunk longer than `maximumBytes`
    /// ends the connection: a client that asked for less cannot trust the rest.
    public func sendForBinary(_ words: [String], maximumBytes: Int) throws(Failure) -> (fields: [String], data: [UInt8]) {
        try write(words)
        let until = deadline()
        var lines: [String] = []
        while let reply = try readLine(deadline: until) {
            if reply == "OK" { return (lines, []) }
            if reply.hasPrefix("ACK") { throw .refused(ack: reply) }
            guard reply.hasPrefix("binary: ") else { lines.append(reply); continue }
            guard let count = Int(reply.dropFirst(8)), count >= 0, count <= maximumBytes else { throw .connectionLost(path: path) }
            let data = try readBytes(count + 1, deadline: until)
            guard data.last == UInt8(ascii: "\n"), try readLine(deadline: until) == "OK" else { throw .connectionLost(path: path) }
            return (lines, Array(data.dropLast()))
        }
        throw .connectionLost(path: path)
    }

    private func deadline() -> UInt64 { MonotonicClock.now() + UInt64(timeoutSeconds * 1e9) }

    /// The next line, nil at end of stream; waits until `deadline` at most.
    private func readLine(deadline: UInt64) throws(Failure) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard try fill(deadline: deadline) else { return nil }
        }
    }

    /// Exactly `count` bytes, as a binary chunk is read.
    private func readBytes(_ count: Int, deadline: UInt64) throws(Failure) -> [UInt8] {
        while buffer.count < count {
            guard try fill(deadline: deadline) else { throw .connectionLost(path: path) }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeSubrange(..<count)
        return bytes
    }

    /// Reads what has arrived into `buffer`; false at end of stream.
    private func fill(deadline: UInt64) throws(Failure) -> Bool {
        while true {
            let now = MonotonicClock.now()
            guard now < deadline else { throw .noAnswer(path: path, seconds: timeoutSeconds) }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max)))
            do {
                guard try systemCall(retryOnInterrupt: false, { poll(&ready, 1, milliseconds) }) > 0 else { continue }
            } catch where error == .interrupted {
                continue
            } catch {
                throw .connectionLost(path: path)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n: Int
            do {
                n = try systemCall { recv(fd, &chunk, chunk.count, 0) }
            } catch {
                throw .connectionLost(path: path)
            }
            if n == 0 { return false }
            buffer += chunk[0..<n]
            return true
        }
    }
}
