import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Serves the control protocol on a Unix socket (and, if configured, TCP on 127.0.0.1)
/// from one thread with one poll loop. Sockets are non-blocking and each client has its
/// own buffers and limits, so a slow, silent or garbage-sending client only ever affects
/// its own connection.
public final class ControlServer: @unchecked Sendable {
    private let player: Player
    private let logger: Logger
    private var listeners: [Int32] = []
    private var socketPath: String?
    private var wake: (read: Int32, write: Int32) = (-1, -1)
    private var thread: pthread_t?

    static let maximumClients = 64
    static let maximumPendingOutput = 4 << 20

    private final class Client {
        let fd: Int32
        let session: ControlSession
        var input: [UInt8] = []
        var output: [UInt8] = []
        var closing = false
        init(fd: Int32, session: ControlSession) { self.fd = fd; self.session = session }
    }

    public init(player: Player, logger: Logger) {
        self.player = player
        self.logger = logger
    }

    public func start(socketPath: String, tcpPort: Int) throws {
        if !socketPath.isEmpty {
            listeners.append(try Self.listenUnix(socketPath))
            self.socketPath = socketPath
            logger.info("control socket: \(socketPath) (try: MPD_HOST=\(socketPath) mpc status)")
        }
        if tcpPort > 0 {
            listeners.append(try Self.listenTCP(port: tcpPort))
            logger.info("control: also on 127.0.0.1:\(tcpPort)")
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Errno.current }
        fds.forEach(Self.makeNonBlocking)
        wake = (fds[0], fds[1])
        thread = try WorkerThread.start(name: "jukebox-control") { [self] in serve() }
    }

    public func stop() {
        guard let thread else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        pthread_join(thread, nil)
        self.thread = nil
        for fd in listeners { close(fd) }
        close(wake.read)
        close(wake.write)
        if let socketPath { unlink(socketPath) }
    }

    private func serve() {
        var clients: [Int32: Client] = [:]
        while true {
            var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            fds += listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            for client in clients.values {
                fds.append(pollfd(fd: client.fd, events: Int16(POLLIN) | (client.output.isEmpty ? 0 : Int16(POLLOUT)), revents: 0))
            }
            let n = poll(&fds, nfds_t(fds.count), -1)
            if n < 0 { if errno == EINTR { continue } else { break } }
            if fds[0].revents != 0 { break }
            for entry in fds.dropFirst() where entry.revents != 0 {
                if listeners.contains(entry.fd) {
                    accept(on: entry.fd, into: &clients)
                } else if let client = clients[entry.fd] {
                    if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { receive(client) }
                    if !client.output.isEmpty { send(client) }
                    if client.closing && client.output.isEmpty {
                        close(client.fd)
                        clients[client.fd] = nil
                    }
                }
            }
        }
        for client in clients.values { close(client.fd) }
    }

    private func accept(on listener: Int32, into clients: inout [Int32: Client]) {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return }
        Self.makeNonBlocking(fd)
        guard clients.count < Self.maximumClients else {
            logger.warning("control: too many clients (\(Self.maximumClients)); refusing one")
            close(fd)
            return
        }
        let client = Client(fd: fd, session: ControlSession(player: player))
        client.output = Array(MPDProtocol.greeting.utf8)
        clients[fd] = client
        send(client)
    }

    private func receive(_ client: Client) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(client.fd, &buffer, buffer.count)
            if n == 0 { client.closing = true; client.output.removeAll(); return }
            if n < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN { client.closing = true; client.output.removeAll() }
                break
            }
            client.input += buffer[0..<n]
        }
        while let newline = client.input.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: client.input[..<newline], as: UTF8.self)
            client.input.removeSubrange(...newline)
            switch client.session.handle(line: line) {
            case .reply(let text): client.output += Array(text.utf8)
            case .close: client.closing = true; client.input.removeAll(); return
            case .none: break
            }
        }
        if client.input.count > ControlSession.maximumLineLength {
            client.output += Array("ACK [2@0] {} line too long\n".utf8)
            client.closing = true
            client.input.removeAll()
        }
        if client.output.count > Self.maximumPendingOutput {
            client.closing = true  // not reading its replies
            client.output.removeAll()
        }
    }

    private func send(_ client: Client) {
        while !client.output.isEmpty {
            let n = client.output.withUnsafeBytes { Glibc.send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN { client.output.removeAll(); client.closing = true }
                return
            }
            client.output.removeFirst(n)
        }
    }

    // MARK: Listening sockets

    /// Non-blocking and closed on exec (pipe2/accept4 need _GNU_SOURCE, which Swift lacks).
    static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    static func listenUnix(_ path: String) throws -> Int32 {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        if !folder.isEmpty { mkdir(folder, 0o755) }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else { throw ControlError("\(path) exists and is not a socket") }
            unlink(path)  // left over from a previous run
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw ControlError("socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = try listening(AF_UNIX, &address, describedAs: path)
        chmod(path, 0o666)  // anyone logged in to the box may control the music
        return fd
    }

    static func listenTCP(port: Int) throws -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1 only
        return try listening(AF_INET, &address, describedAs: "127.0.0.1:\(port)")
    }

    /// A non-blocking stream socket bound to `address` and listening.
    private static func listening<Address>(_ family: Int32, _ address: inout Address, describedAs name: String) throws -> Int32 {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ControlError("socket: \(Errno.current)") }
        makeNonBlocking(fd)
        var yes: Int32 = 1
        if family == AF_INET { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)) }
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
        guard ok == 0, listen(fd, 16) == 0 else {
            let error = Errno.current
            close(fd)
            throw ControlError("cannot listen on \(name): \(error)")
        }
        return fd
    }
}

public struct ControlError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
