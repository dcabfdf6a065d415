#if canImport(Glibc)
import Glibc
#endif
import CJukeboxShim

/// A connection to snapserver's `tcp` source in server mode. The connect runs without
/// blocking and is finished by later looks, so looking for snapserver on another machine
/// never holds up the audio thread. What the kernel has sent cannot be taken back: the
/// send buffer is kept to the output's buffer, and what the receiver holds beyond it is
/// heard after a pause (the README gives the figure).
final class SnapcastSocket: SnapcastLink {
    let host: String
    let port: Int
    private var fd: Int32 = -1
    private var connected = false
    private var startedAt: UInt64 = 0
    /// How long a connect may take before a look starts another.
    private static let connectNanoseconds: UInt64 = 3_000_000_000
    /// How long `open` waits for a connect (on a route of this device alone).
    private static let openWaitMilliseconds: Int32 = 500

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    deinit { close() }

    private var device: String { SnapcastTarget.tcp(host: host, port: port).description }
    var isOpen: Bool { connected }

    func open(bufferBytes: Int) throws(OutputError) {
        if !connected {
            if fd < 0 { try startConnect() }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, Self.openWaitMilliseconds)
            try finishConnect()
            guard connected else {
                close()
                throw .absent(device: device)
            }
        }
        var size = Int32(clamping: bufferBytes)
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    func isPresent() -> Bool {
        if connected { return true }
        if fd >= 0, MonotonicClock.now() - startedAt > Self.connectNanoseconds { close() }
        if fd < 0 { guard (try? startConnect()) != nil else { return false } }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        guard (try? finishConnect()) != nil, connected else {
            close()
            return false
        }
        return true
    }

    private func startConnect() throws(OutputError) {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let isV4 = inet_pton(AF_INET, host, &v4.sin_addr) == 1
        guard isV4 || inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 else {
            throw .failed(device: device, what: "read the address", code: Errno(EINVAL))
        }
        let made = socket(isV4 ? AF_INET : AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard made >= 0 else { throw .failed(device: device, what: "make a socket", code: .current) }
        fd = made
        startedAt = MonotonicClock.now()
        let result: Int32
        if isV4 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            result = withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(made, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        } else {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            result = withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(made, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        }
        if result == 0 { connected = true }
    }

    /// Reads how a connect in progress ended: connected, still going, or refused.
    private func finishConnect() throws(OutputError) {
        guard fd >= 0, !connected else { return }
        var problem: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &problem, &length) == 0 else { return }
        switch problem {
        case 0:
            // Still in progress unless a peer address is there.
            var peer = sockaddr_storage()
            var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            connected = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &peerLength) == 0 }
            }
        case ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, EHOSTDOWN, ENETDOWN:
            close()
            throw .absent(device: device)
        default:
            close()
            throw .failed(device: device, what: "connect", code: Errno(problem))
        }
    }

    func writeSome(_ bytes: UnsafeRawBufferPointer) throws(OutputError) -> Int {
        while true {
            let written = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if written >= 0 { return written }
            switch errno {
            case EINTR: continue
            case EAGAIN: return 0
            case EPIPE, ECONNRESET, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH: throw .disconnected(device: device)
            default: throw .failed(device: device, what: "send", code: .current)
            }
        }
    }

    func waitForRoom(milliseconds: Int) throws(OutputError) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&poller, 1, Int32(milliseconds))
        if ready > 0, poller.revents & Int16(POLLERR | POLLHUP) != 0 { throw .disconnected(device: device) }
        return ready > 0
    }

    func unread() -> Int { connected ? max(0, Int(jukebox_socket_unsent(fd))) : 0 }

    func takeBack(_ bytes: Int, frameBytes: Int) -> Int { 0 }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        connected = false
    }
}
