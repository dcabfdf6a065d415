import Foundation
import Testing
@testable import JukeboxCore

/// The stream plugin as Snapcast's apps reach it: a real snapserver 0.26 runs it as its
/// controlscript (a link whose name ends in snapcast-plugin), and is asked over its own
/// JSON-RPC. And the box as an MPD server for Snapcast's own meta_mpd.py.
@Suite(.serialized) struct SnapcastPluginSnapserverTests {
    typealias Daemon = SnapcastPluginDaemonTests

    /// Newline-delimited JSON-RPC over TCP on loopback (snapserver's control port).
    final class LineClient {
        private let fd: Int32
        private var buffer: [UInt8] = []

        init?(port: Int) {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { close(fd); return nil }
        }

        deinit { close(fd) }

        /// Sends a request and returns its reply (notifications in between are skipped).
        func call(_ id: Int, _ method: String, _ params: Any? = nil, seconds: Double = 30) -> [String: Any]? {
            var message: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method]
            if let params { message["params"] = params }
            let line = Array((try! JSONSerialization.data(withJSONObject: message)) + Data("\n".utf8))
            guard send(fd, line, line.count, Int32(MSG_NOSIGNAL)) == line.count else { return nil }
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let reply = Data(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    if let object = (try? JSONSerialization.jsonObject(with: reply)) as? [String: Any], object["id"] as? Int == id { return object }
                    continue
                }
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 200) > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let n = recv(fd, &chunk, chunk.count, 0)
                guard n > 0 else { return nil }
                buffer += chunk[..<n]
            }
            return nil
        }
    }

    /// The Jukebox stream's properties as snapserver shows them.
    static func streamProperties(_ client: LineClient, id: Int) -> [String: Any] {
        let status = client.call(id, "Server.GetStatus")?["result"] as? [String: Any]
        let streams = (status?["server"] as? [String: Any])?["streams"] as? [[String: Any]] ?? []
        return streams.first { $0["id"] as? String == "Jukebox" }?["properties"] as? [String: Any] ?? [:]
    }

    static func title(_ properties: [String: Any]) -> String? { (properties["metadata"] as? [String: Any])?["title"] as? String }

    @Test func snapserverShowsTheBoxAndMovesIt() throws {
        let snapserver = try Tools.path(of: "snapserver")
        let (daemon, _) = try Daemon.startDaemon("snapserver-plugin")
        #expect(daemon.wait(seconds: 30) { Daemon.status(daemon.socket)["state"] == "play" }, "never played: \(daemon.log)")
        let folder = try Fixtures.shared.scratchFolder("snapserver-plugin-server")
        let link = folder + "/jukebox-snapcast-plugin"
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Tools.jukebox)
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        let (http, tcp, stream) = (try LoopbackListener.freePort(), try LoopbackListener.freePort(), try LoopbackListener.freePort())
        // Everything on loopback, its data in the test's folder; the plugin finds the
        // daemon through JUKEBOX_SOCKET, which snapserver passes on to it.
        let config = """
            [server]
            datadir = \(folder)/data
            [http]
            enabled = true
            bind_to_address = 127.0.0.1
            port = \(http)
            doc_root =
            [tcp]
            enabled = true
            bind_to_address = 127.0.0.1
            port = \(tcp)
            [stream]
            bind_to_address = 127.0.0.1
            port = \(stream)
            source = pipe://\(folder)/fifo?name=Jukebox&controlscript=\(link)
            [logging]
            sink = stderr
            filter = *:info

            """
        try config.write(toFile: folder + "/snapserver.conf", atomically: true, encoding: .utf8)
        let logPath = folder + "/snapserver.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: snapserver)
        server.arguments = ["-c", folder + "/snapserver.conf"]
        server.environment = ProcessInfo.processInfo.environment.merging(["JUKEBOX_SOCKET": daemon.socket]) { $1 }
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = FileHandle.nullDevice
        server.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        try server.run()
        // SIGKILL: children of the test runner start with SIGTERM blocked, and snapserver
        // only waits for it. Its plugin then sees stdin end and exits by itself.
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() } }
        func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

        var client: LineClient?
        #expect(daemon.wait(seconds: 30) { client = LineClient(port: tcp); return client != nil }, "\(log())")
        guard let client else { return }
        var id = 0
        var properties: [String: Any] = [:]
        #expect(daemon.wait(seconds: 30) { id += 1; properties = Self.streamProperties(client, id: id); return Self.title(properties) == "First" },
                "\(properties) \(log())")
        #expect(properties["canControl"] as? Bool == true && properties["playbackStatus"] as? String == "playing")
        // Snapserver keeps the cover and serves it over HTTP.
        let artURL = (properties["metadata"] as? [String: Any])?["artUrl"] as? String ?? ""
        #expect(artURL.contains("__image_cache"), "\(properties)")

        id += 1
        let moved = client.call(id, "Stream.Control", ["id": "Jukebox", "command": "next"])
        #expect(moved?["result"] as? String == "ok", "\(moved ?? [:]) \(log())")
        #expect(daemon.wait(seconds: 30) { Daemon.status(daemon.socket)["song"] == "1" })
        #expect(daemon.wait(seconds: 30) { id += 1; return Self.title(Self.streamProperties(client, id: id)) == "Second" }, "\(log())")
        id += 1
        let volume = client.call(id, "Stream.SetProperty", ["id": "Jukebox", "property": "volume", "value": 23])
        #expect(volume?["result"] as? String == "ok", "\(volume ?? [:])")
        #expect(Daemon.status(daemon.socket)["volume"] == "23")
        // A knob turned on the box shows in the stream's properties.
        let box = try RawMPDConnection(socket: daemon.socket)
        #expect(box.reply(to: "setvol 41").last == "OK")
        #expect(daemon.wait(seconds: 30) { id += 1; return Self.streamProperties(client, id: id)["volume"] as? Int == 41 }, "\(log())")

        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30))
    }

    /// Snapcast's own plugin for MPD, run against the box's TCP port: every command it
    /// sends (commands, urlhandlers, status, currentsong, idle, noidle, next, pause,
    /// seekcur, repeat, single, random, setvol) is answered as MPD would.
    @Test func snapcastsMPDPluginReadsAndControlsTheBox() throws {
        let python = try Tools.path(of: "/usr/bin/python3")
        let script = "/usr/share/snapserver/plug-ins/meta_mpd.py"
        guard FileManager.default.fileExists(atPath: script) else { throw Tools.ToolFailure(description: "\(script) is missing: install snapserver") }
        let port = try LoopbackListener.freePort()
        let (daemon, _) = try Daemon.startDaemon("meta-mpd", artist: nil, control: "tcp_port = \(port)\ntcp_address = \"127.0.0.1\"\n")
        #expect(daemon.wait(seconds: 30) { Daemon.status(daemon.socket)["state"] == "play" }, "never played: \(daemon.log)")
        let plugin = try Daemon.Plugin(executable: python, arguments: [script, "--mpd-host=127.0.0.1", "--mpd-port=\(port)", "--stream=Jukebox"],
                                       logName: "meta-mpd-plugin.log")
        // meta_mpd.py sends its first properties before Ready.
        #expect(plugin.next(Daemon.properties { ($0["metadata"] as? [String: Any])?["title"] as? String == "First" }) != nil, "\(plugin.seen) \(plugin.log)")
        #expect(plugin.next(Daemon.method("Plugin.Stream.Ready")) != nil, "\(plugin.seen) \(plugin.log)")
        plugin.request(1, "Plugin.Stream.Player.GetProperties")
        let got = plugin.next(Daemon.reply(1))?["result"] as? [String: Any] ?? [:]
        #expect(got["playbackStatus"] as? String == "playing", "\(got) \(plugin.log)")
        plugin.request(2, "Plugin.Stream.Player.Control", ["command": "next"])
        #expect(plugin.next(Daemon.reply(2))?["result"] as? String == "ok")
        #expect(plugin.next(Daemon.properties { ($0["metadata"] as? [String: Any])?["title"] as? String == "Second" }) != nil, "\(plugin.seen) \(plugin.log)")
        #expect(Daemon.status(daemon.socket)["song"] == "1")
        plugin.request(3, "Plugin.Stream.Player.SetProperty", ["loopStatus": "playlist"])
        #expect(plugin.next(Daemon.reply(3))?["result"] as? String == "ok")
        plugin.request(4, "Plugin.Stream.Player.SetProperty", ["volume": 31])
        #expect(plugin.next(Daemon.reply(4))?["result"] as? String == "ok")
        plugin.request(5, "Plugin.Stream.Player.Control", ["command": "setPosition", "params": ["position": 42]])
        #expect(plugin.next(Daemon.reply(5))?["result"] as? String == "ok")
        let status = Daemon.status(daemon.socket)
        #expect(status["repeat"] == "1" && status["single"] == "0" && status["volume"] == "31", "\(status)")
        #expect(daemon.wait(seconds: 30) { (Double(Daemon.status(daemon.socket)["elapsed"] ?? "") ?? 0) >= 42 }, "\(Daemon.status(daemon.socket))")
        // The box's own changes reach it through idle.
        #expect(daemon.ctl(["pause", "1"]) != nil)
        #expect(plugin.next(Daemon.properties { $0["playbackStatus"] as? String == "paused" }) != nil, "\(plugin.seen) \(plugin.log)")
        // SIGKILL: children of the test runner start with SIGTERM blocked.
        kill(plugin.process.processIdentifier, SIGKILL)
        plugin.process.waitUntilExit()
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30))
    }
}
