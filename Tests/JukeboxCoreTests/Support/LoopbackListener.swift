import Foundation

/// A listening TCP socket on 127.0.0.1 at a port the kernel chose, for the tests' servers.
enum LoopbackListener {
    static func open() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 8) == 0 else {
            close(fd)
            throw Tools.ToolFailure(description: "cannot listen on 127.0.0.1")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port nobody listens on now, for a server under test that binds its own: the
    /// kernel hands out ports in turn, so parallel tests do not meet on it, as they did
    /// on ports made from the process id.
    static func freePort() throws -> Int {
        let (fd, port) = try open()
        close(fd)
        return port
    }
}
