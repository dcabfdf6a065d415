import Foundation

/// Debian's snapserver on the host, with a config file, pipe, ports and data folder of
/// its own (never /etc/snapserver.conf or /var/lib/snapserver): one stream, "Jukebox",
/// read from a fifo that snapserver makes (mode=create). Killed by `deinit`; `kill` and
/// `start` again make the server that vanishes and comes back.
final class SnapServer {
    let directory: String
    let fifo: String
    let streamPort: Int
    let controlPort: Int
    /// snapserver's `[stream] buffer`: how far behind the pipe the rooms play.
    let bufferMs: Int
    let sampleFormat = "48000:16:2"
    private var process: Process?
    private let logPath: String

    /// The box's end of the stream: the fifo (`pipe`), or with `tcpSource` snapserver's
    /// tcp source in server mode on 127.0.0.1 at `tcpPort`.
    var device: String { tcpPort.map { "snapcast:tcp://127.0.0.1:\($0)" } ?? "snapcast:\(fifo)" }
    let tcpPort: Int?

    /// The pipe source's parameters as `scripts/install --snapcast` sets them.
    static let installedPipeOptions = "&dryout_ms=3600000"

    /// `sourceOptions` are more of the source URI's parameters: by default the install's
    /// for a pipe ("" gives snapserver's own defaults).
    init(name: String, bufferMs: Int = 1000, sourceOptions: String? = nil, tcpSource: Bool = false) throws {
        directory = Fixtures.shared.path("snapserver-\(name)")
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        fifo = "\(directory)/fifo"
        logPath = "\(directory)/snapserver.log"
        self.bufferMs = bufferMs
        streamPort = try LoopbackListener.freePort()
        controlPort = try LoopbackListener.freePort()
        let httpPort = try LoopbackListener.freePort()
        tcpPort = tcpSource ? try LoopbackListener.freePort() : nil
        let source = tcpPort.map { "tcp://127.0.0.1:\($0)?name=Jukebox&sampleformat=\(sampleFormat)&mode=server" }
            ?? "pipe://\(fifo)?name=Jukebox&sampleformat=\(sampleFormat)&mode=create\(sourceOptions ?? Self.installedPipeOptions)"
        // The rooms reach the stream port over their veth links: it listens on all addresses.
        try """
            [server]
            datadir = \(directory)/data
            [http]
            enabled = false
            port = \(httpPort)
            [tcp]
            enabled = true
            port = \(controlPort)
            [stream]
            port = \(streamPort)
            source = \(source)
            buffer = \(bufferMs)
            [logging]
            sink = stderr
            filter = *:info
            """.write(toFile: "\(directory)/snapserver.conf", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        try start()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var isRunning: Bool { process?.isRunning ?? false }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    var control: SnapcastControl { SnapcastControl(port: controlPort) }

    /// Starts it (again) and waits until its control port answers.
    func start() throws {
        guard !isRunning else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Tools.path(of: "snapserver"))
        process.arguments = ["-c", "\(directory)/snapserver.conf"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        process.standardError = log
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while (try? control.call("Server.GetRPCVersion")) == nil {
            guard Date() < deadline, process.isRunning else {
                throw Tools.ToolFailure(description: "snapserver did not answer on port \(controlPort):\n\(self.log)")
            }
            usleep(20_000)
        }
    }

    /// SIGKILL, as a crash: no goodbye to the rooms, the fifo left behind.
    func kill() {
        guard let process, process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The host names (`--hostID`) of the rooms connected now, from `Server.GetStatus`.
    func connectedRooms() -> Set<String> {
        guard let status = try? control.call("Server.GetStatus"),
              let server = status["server"] as? [String: Any],
              let groups = server["groups"] as? [[String: Any]] else { return [] }
        var rooms = Set<String>()
        for group in groups {
            for client in group["clients"] as? [[String: Any]] ?? [] where client["connected"] as? Bool == true {
                if let id = client["id"] as? String { rooms.insert(id) }
            }
        }
        return rooms
    }

    /// `Stream.Control` on the Jukebox stream ("play", "pause", "next", …): snapserver
    /// passes it to the stream's plugin, or answers an error when the stream cannot.
    func control(_ command: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        var arguments: [String: Any] = ["id": "Jukebox", "command": command]
        if !params.isEmpty { arguments["params"] = params }
        return try control.call("Stream.Control", arguments)
    }

    /// The Jukebox stream's status ("idle", "playing"), from `Server.GetStatus`.
    func streamStatus() -> String? {
        guard let status = try? control.call("Server.GetStatus"),
              let server = status["server"] as? [String: Any],
              let streams = server["streams"] as? [[String: Any]] else { return nil }
        return streams.first { $0["id"] as? String == "Jukebox" }?["status"] as? String
    }
}

/// snapserver's JSON-RPC control port: one JSON object a line each way. Notifications
/// (no "id") arrive on the same connection and are skipped; one connection a call.
struct SnapcastControl {
    let port: Int

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// The call's "result" object; its "error" thrown.
    func call(_ method: String, _ params: [String: Any] = [:], timeout: Double = 5) throws -> [String: Any] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw Failure(description: "connect to port \(port): \(errno)") }
        var request: [String: Any] = ["id": 1, "jsonrpc": "2.0", "method": method]
        if !params.isEmpty { request["params"] = params }
        var line = try JSONSerialization.data(withJSONObject: request)
        line.append(0x0A)
        guard line.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == line.count else {
            throw Failure(description: "send to port \(port): \(errno)")
        }
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            while let newline = pending.firstIndex(of: 0x0A) {
                let text = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                guard let reply = try? JSONSerialization.jsonObject(with: text) as? [String: Any], reply["id"] != nil else { continue }
                if let error = reply["error"] { throw Failure(description: "\(method): \(error)") }
                return reply["result"] as? [String: Any] ?? [:]
            }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { throw Failure(description: "\(method): no answer from port \(port)") }
            pending.append(contentsOf: buffer[0..<count])
        }
    }
}
