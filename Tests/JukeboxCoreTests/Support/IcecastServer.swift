import Foundation

/// Icecast 2 (Debian's `icecast2`), as stations run it, started on a loopback port for one
/// test from a config the test writes. Run as root it must drop to another user
/// (`<changeowner>`: it refuses to run as root otherwise), so its folder is left open to
/// that user. Its mounts are fed by `IcecastSource`.
final class IcecastServer: @unchecked Sendable {
    let port: Int
    let password = "jukebox-test-\(getpid())"
    private let home: String
    private let process = Process()

    init() throws {
        home = NSTemporaryDirectory() + "jukebox-icecast-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        port = try LoopbackListener.freePort()
        let root = geteuid() == 0
        if root { chmod(home, 0o777) }  // its logs, written as nobody
        let config = """
            <icecast>
                <location>test</location>
                <admin>test@localhost</admin>
                <hostname>127.0.0.1</hostname>
                <limits>
                    <clients>16</clients>
                    <sources>4</sources>
                    <source-timeout>10</source-timeout>
                    <header-timeout>5</header-timeout>
                    <burst-size>65536</burst-size>
                </limits>
                <authentication>
                    <source-password>\(password)</source-password>
                    <admin-user>admin</admin-user>
                    <admin-password>\(password)</admin-password>
                </authentication>
                <listen-socket>
                    <port>\(port)</port>
                    <bind-address>127.0.0.1</bind-address>
                </listen-socket>
                <fileserve>1</fileserve>
                <paths>
                    <basedir>/usr/share/icecast2</basedir>
                    <logdir>\(home)</logdir>
                    <webroot>/etc/icecast2/web</webroot>
                    <adminroot>/etc/icecast2/admin</adminroot>
                    <pidfile>\(home)/icecast.pid</pidfile>
                </paths>
                <logging>
                    <accesslog>access.log</accesslog>
                    <errorlog>error.log</errorlog>
                    <loglevel>3</loglevel>
                </logging>
                <security>
                    <chroot>0</chroot>
                    \(root ? "<changeowner><user>nobody</user><group>nogroup</group></changeowner>" : "")
                </security>
            </icecast>
            """
        try config.write(toFile: "\(home)/icecast.xml", atomically: true, encoding: .utf8)
        chmod("\(home)/icecast.xml", 0o644)
        process.executableURL = URL(fileURLWithPath: try Tools.path(of: "icecast2"))
        process.arguments = ["-c", "\(home)/icecast.xml"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<500 {
            if answers { return }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        stop()
        throw Tools.ToolFailure(description: "icecast2 did not start: \(log)")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: home)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Its error log, for a failed test's message.
    var log: String { (try? String(contentsOfFile: "\(home)/error.log", encoding: .utf8)) ?? "" }

    private func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    private var answers: Bool { WebServer.answers(port) }
}

/// A station's encoder, as ezstream or butt feed Icecast: the source protocol is an HTTP
/// PUT to the mount with basic auth, then the audio, here an MP3 in a loop at about
/// `bytesPerSecond`. `stop` drops it (the mount then has no source: Icecast answers 404
/// to listeners until one comes back).
final class IcecastSource: @unchecked Sendable {
    private let fd: Int32
    private let stopping = ConditionFlag()
    private let finished = ConditionFlag()

    init(to server: IcecastServer, mount: String, playing file: String, bytesPerSecond: Int = 16 << 10, name: String = "Jukebox Icecast FM") throws {
        let audio = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(server.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        let credentials = Data("source:\(server.password)".utf8).base64EncodedString()
        let request = "PUT \(mount) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Basic \(credentials)\r\n"
            + "Content-Type: audio/mpeg\r\nIce-Name: \(name)\r\nIce-Public: 0\r\nExpect: 100-continue\r\n\r\n"
        // Icecast answers before the audio: 100 Continue (or 200), or why it refuses.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var answer = [UInt8](repeating: 0, count: 1024)
        let sent = connected && Self.send(fd, Array(request.utf8))
        let got = sent ? recv(fd, &answer, answer.count, 0) : -1
        let text = got > 0 ? String(decoding: answer[..<got], as: UTF8.self) : ""
        guard text.hasPrefix("HTTP/1.1 100") || text.hasPrefix("HTTP/1.0 200") || text.hasPrefix("HTTP/1.1 200") else {
            close(fd)
            throw Tools.ToolFailure(description: "icecast2 refused the source on \(mount): \(text)\n\(server.log)")
        }
        let stream = fd
        let (stopping, finished) = (self.stopping, self.finished)
        Thread {
            defer { finished.set() }
            let started = Date()
            var sent = 0
            var position = 0
            while !stopping.isSet {
                let due = Int(Date().timeIntervalSince(started) * Double(bytesPerSecond)) + 16 << 10
                if sent >= due {
                    usleep(20_000)
                    continue
                }
                let chunk = min(2048, audio.count - position)
                guard Self.send(stream, Array(audio[position..<(position + chunk)])) else { return }
                sent += chunk
                position = (position + chunk) % audio.count
            }
        }.start()
    }

    deinit { stop() }

    /// Drops the connection, as a crashed or restarted encoder does.
    func stop() {
        guard !stopping.isSet else { return }
        stopping.set()
        while !finished.isSet { usleep(5_000) }
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }
}
