import Foundation

/// nginx, as people serve music from a NAS, started on a loopback port for one test:
/// `/` serves `folder` with real Range support, `/slow/` the same throttled to
/// `slowRate` bytes a second per connection, `/trickle/` to 16 KiB a second. Its access logs
/// tell which requests came, and which ranges they asked for.
final class WebServer: @unchecked Sendable {
    let folder: String
    let port: Int
    private let home: String
    private var process: Process?

    /// `inside` runs it in that network namespace, on the namespace's own loopback.
    private let namespace: String?

    init(serving folder: String, slowRate: Int = 48 << 10, inside namespace: String? = nil) throws {
        self.folder = folder
        self.namespace = namespace
        home = NSTemporaryDirectory() + "jukebox-web-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        port = try Self.freePort()
        let config = """
            daemon off;
            worker_processes 1;
            error_log \(home)/error.log;
            pid \(home)/nginx.pid;
            events { worker_connections 64; }
            http {
                access_log \(home)/access.log;
                log_format ranged '$request_method $uri $status $http_range';
                access_log \(home)/ranges.log ranged;
                client_body_temp_path \(home)/body; proxy_temp_path \(home)/proxy; fastcgi_temp_path \(home)/fastcgi;
                uwsgi_temp_path \(home)/uwsgi; scgi_temp_path \(home)/scgi;
                types { audio/flac flac; audio/mpeg mp3; audio/ogg ogg opus; audio/mp4 m4a m4b; text/html html; audio/x-mpegurl m3u; audio/x-scpls pls; }
                server {
                    listen 127.0.0.1:\(port);
                    root \(folder);
                    location /slow/ { alias \(folder)/; limit_rate \(slowRate); }
                    location /trickle/ { alias \(folder)/; limit_rate 16k; }
                    # No ranges: a Range request gets the whole file (200), at full speed.
                    location /noranges/ { alias \(folder)/; max_ranges 0; limit_rate 16k; if ($http_range) { limit_rate 0; } }
                    location /loop { return 302 /loop; }
                }
            }
            """
        try config.write(toFile: "\(home)/nginx.conf", atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: home)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Starts it (again, after `stop`, on the same port) and waits until it answers.
    func start() throws {
        let process = Process()
        let nginx = ["-c", "\(home)/nginx.conf", "-e", "\(home)/error.log"]
        if let namespace {
            process.executableURL = URL(fileURLWithPath: try Tools.path(of: "ip"))
            process.arguments = ["netns", "exec", namespace, try Tools.path(of: "nginx")] + nginx
        } else {
            process.executableURL = URL(fileURLWithPath: try Tools.path(of: "nginx"))
            process.arguments = nginx
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if answers { return }
            usleep(20_000)
        }
        throw Tools.ToolFailure(description: "nginx did not start: \((try? String(contentsOfFile: "\(home)/error.log", encoding: .utf8)) ?? "")")
    }

    /// Stops it at once, cutting any transfer under way.
    func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        while answers { usleep(10_000) }
        self.process = nil
    }

    /// The request lines and statuses so far, e.g. `GET /slow/a.flac 206`.
    var requests: [String] {
        let log = (try? String(contentsOfFile: "\(home)/access.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\"")
            guard parts.count > 2 else { return nil }
            let request = parts[1].split(separator: " ").prefix(2).joined(separator: " ")
            let status = parts[2].split(separator: " ").first ?? ""
            return "\(request) \(status)"
        }
    }

    /// Each request with its status and the range it asked for, e.g.
    /// `GET /slow/a.flac 206 bytes=1000-` (`-` when it asked for the whole file).
    var rangeRequests: [String] {
        let log = (try? String(contentsOfFile: "\(home)/ranges.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init)
    }

    /// Whether it accepts connections (asked from inside its namespace when it has one).
    private var answers: Bool {
        guard let namespace else { return Self.answers(port) }
        let probe = try? Tools.run("ip", ["netns", "exec", namespace, "bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/\(port)"], check: false)
        return probe?.status == 0
    }

    /// Whether something on this machine accepts connections on `port`.
    static func answers(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A port nothing listens on now (the kernel's choice, let go at once).
    static func freePort() throws -> Int {
        let (fd, port) = try LoopbackListener.open()
        close(fd)
        return port
    }
}
