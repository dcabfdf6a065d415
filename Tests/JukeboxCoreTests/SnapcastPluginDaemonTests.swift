import Foundation
import Testing
@testable import JukeboxCore

/// The real `jukebox snapcast-plugin` against a real daemon, spoken to over its stdin and
/// stdout as snapserver does.
@Suite(.serialized) struct SnapcastPluginDaemonTests {
    /// The plugin as a child process: JSON lines in, JSON lines out, stderr to a file.
    final class Plugin {
        let process = Process()
        let input = Pipe(), output = Pipe()
        let logPath: String
        private var buffer: [UInt8] = []
        /// Every message read, for failure messages.
        private(set) var seen: [String] = []

        init(executable: String, arguments: [String], environment: [String: String] = [:], logName: String) throws {
            logPath = Fixtures.shared.path(logName)
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardInput = input
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
            try process.run()
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

        func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

        func request(_ id: Int, _ method: String, _ params: Any? = nil) {
            var message: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method]
            if let params { message["params"] = params }
            send(String(decoding: try! JSONSerialization.data(withJSONObject: message), as: UTF8.self))
        }

        /// The next message that satisfies `match`, waiting up to `seconds` for it.
        func next(seconds: Double = 30, _ match: ([String: Any]) -> Bool) -> [String: Any]? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = Array(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    seen.append(String(decoding: line, as: UTF8.self))
                    if let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any], match(object) { return object }
                    continue
                }
                var ready = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 200) > 0 else { continue }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return nil }
                buffer += chunk
            }
            return nil
        }

        func closeInput() { try? input.fileHandleForWriting.close() }
    }

    static func method(_ name: String) -> ([String: Any]) -> Bool { { $0["method"] as? String == name } }
    static func reply(_ id: Int) -> ([String: Any]) -> Bool { { $0["id"] as? Int == id } }
    static func properties(_ match: @escaping ([String: Any]) -> Bool) -> ([String: Any]) -> Bool {
        { $0["method"] as? String == "Plugin.Stream.Player.Properties" && match($0["params"] as? [String: Any] ?? [:]) }
    }

    static func status(_ socket: String) -> [String: String] {
        guard let lines = try? ControlClient(socketPath: socket).send(["status"]) else { return [:] }
        return MPDFields(lines).pairs.reduce(into: [:]) { $0[$1.key] = $1.value }
    }

    /// Two long tracks, the first with the fixtures' cover embedded, played by a daemon;
    /// `control` is added to its [control] table.
    /// `folderCover` is the folder's cover.jpg, which only the second track shows.
    static func startDaemon(_ name: String, artist: String? = "Test Band", control: String = "", folderCover: [UInt8]? = nil) throws -> (RunningDaemon, cover: Data) {
        let fx = Fixtures.shared
        let music = try fx.scratchFolder("\(name)-music")
        let wav = music + "/tone.wav"
        if !FileManager.default.fileExists(atPath: music + "/2.flac") {
            try Tools.run("sox", ["-n", "-r", "8000", "-c", "1", "-b", "16", wav, "synth", "300", "sine", "440"])
            // Without an artist, meta_mpd.py asks MusicBrainz for nothing.
            let tags = artist.map { ["-T", "ARTIST=\($0)"] } ?? []
            try Tools.run("flac", ["-s", "-f", "-T", "TITLE=First", "-T", "ALBUM=Plugin"] + tags + [
                                   "--picture", "3|image/png|front|100x64x24|\(fx.path("cover.png"))", "-o", music + "/1.flac", wav])
            try Tools.run("flac", ["-s", "-f", "-T", "TITLE=Second"] + tags + ["-o", music + "/2.flac", wav])
            try FileManager.default.removeItem(atPath: wav)
            if let folderCover { try Data(folderCover).write(to: URL(fileURLWithPath: music + "/cover.jpg")) }
        }
        let config = try fx.scratchFolder("\(name)-config") + "/jukebox.toml"
        try "[playback]\nautoplay = true\nmode = \"once\"\n[control]\nkeyboard = false\n\(control)[audio]\ndevice = \"\(NullOutput.deviceName)\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: name, config: config, musicDirectory: music, device: nil)
        return (daemon, try Data(contentsOf: URL(fileURLWithPath: fx.path("cover.png"))))
    }

    @Test func snapserversRequestsReachTheBoxAndItsChangesComeBack() throws {
        // The folder's cover is over the plugin's 1 MiB: the second track goes without.
        let (daemon, cover) = try Self.startDaemon("snapcast-plugin", folderCover: [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 1_500_000))
        #expect(daemon.wait(seconds: 30) { Self.status(daemon.socket)["state"] == "play" }, "never played: \(daemon.log)")
        // Started as snapserver 0.26 starts it: a link whose name ends in snapcast-plugin,
        // the stream and port arguments, and one more it does not know.
        let link = try Fixtures.shared.scratchFolder("snapcast-plugin-link") + "/jukebox-snapcast-plugin"
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Tools.jukebox)
        let plugin = try Plugin(executable: link, arguments: ["--stream=Jukebox", "--snapcast-port=1780", "--future-option=1"],
                                environment: ["JUKEBOX_SOCKET": daemon.socket], logName: "snapcast-plugin-link.log")

        #expect(plugin.next(Self.method("Plugin.Stream.Ready")) != nil, "no Ready: \(plugin.seen) \(plugin.log)")
        let first = plugin.next(Self.properties { ($0["metadata"] as? [String: Any])?["title"] as? String == "First" })
        #expect(first != nil, "no properties with the title: \(plugin.seen) \(plugin.log)")
        let metadata = first?["params"].flatMap { $0 as? [String: Any] }?["metadata"] as? [String: Any] ?? [:]
        let art = metadata["artData"] as? [String: Any] ?? [:]
        #expect(art["extension"] as? String == "png")
        #expect((art["data"] as? String).flatMap { Data(base64Encoded: $0) } == cover)
        #expect(metadata["artist"] as? [String] == ["Test Band"])

        plugin.request(1, "Plugin.Stream.Player.GetProperties")
        let got = plugin.next(Self.reply(1))?["result"] as? [String: Any] ?? [:]
        #expect(got["playbackStatus"] as? String == "playing" && got["canControl"] as? Bool == true, "\(got)")
        #expect((got["metadata"] as? [String: Any])?["title"] as? String == "First")

        // Garbage gets JSON-RPC errors and the plugin goes on.
        func errorCode() -> Int? { (plugin.next { $0["error"] != nil }?["error"] as? [String: Any])?["code"] as? Int }
        plugin.send("hello {")
        #expect(errorCode() == -32700, "\(plugin.seen)")
        plugin.send(String(repeating: "x", count: 200_000))
        #expect(errorCode() == -32700, "\(plugin.seen)")
        plugin.send("[]")
        #expect(errorCode() == -32600, "\(plugin.seen)")
        #expect(plugin.log.contains("dropped a line of 200000 bytes"), "\(plugin.log)")

        plugin.request(2, "Plugin.Stream.Player.Control", ["command": "next"])
        #expect(plugin.next(Self.reply(2))?["result"] as? String == "ok", "\(plugin.seen)")
        #expect(daemon.wait(seconds: 30) { Self.status(daemon.socket)["song"] == "1" })
        let second = plugin.next(Self.properties { ($0["metadata"] as? [String: Any])?["title"] as? String == "Second" })
        #expect(second != nil, "\(plugin.seen)")
        #expect((second?["params"] as? [String: Any]).flatMap { ($0["metadata"] as? [String: Any])?["artData"] } == nil)

        // A change made on the box is pushed.
        #expect(daemon.ctl(["setvol", "37"]) != nil)
        #expect(plugin.next(Self.properties { $0["volume"] as? Int == 37 }) != nil, "\(plugin.seen)")

        plugin.request(3, "Plugin.Stream.Player.SetProperty", ["volume": 55, "shuffle": true])
        #expect(plugin.next(Self.reply(3))?["result"] as? String == "ok")
        #expect(Self.status(daemon.socket)["volume"] == "55" && Self.status(daemon.socket)["random"] == "1")
        // The box's refusal comes back with its words.
        plugin.request(4, "Plugin.Stream.Player.SetProperty", ["rate": 7])
        let refused = plugin.next(Self.reply(4))?["error"] as? [String: Any] ?? [:]
        #expect((refused["message"] as? String ?? "").contains("Speed from 0.5 to 2 expected"), "\(refused)")

        // snapserver going away ends the plugin cleanly.
        plugin.closeInput()
        #expect(daemon.wait(seconds: 30) { !plugin.process.isRunning })
        #expect(plugin.process.terminationStatus == 0, "\(plugin.log)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30))
    }

    @Test func theBoxGoingAwayIsRetriedAndReadyIsSentAgain() throws {
        let name = "snapcast-plugin-restart"
        // The daemon's socket is known before it starts: the plugin starts first and waits.
        let socket = NSTemporaryDirectory() + "jukebox-\(name)-\(getpid()).sock"
        let plugin = try Plugin(executable: Tools.jukebox, arguments: ["snapcast-plugin", "--socket", socket], logName: "\(name)-plugin.log")
        plugin.request(1, "Plugin.Stream.Player.GetProperties")
        let early = plugin.next(Self.reply(1))?["error"] as? [String: Any] ?? [:]
        #expect((early["message"] as? String ?? "").contains("not reachable"), "\(early)")

        let folderCover: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var (daemon, _) = try Self.startDaemon(name, folderCover: folderCover)
        #expect(plugin.next(Self.method("Plugin.Stream.Ready")) != nil, "\(plugin.seen) \(plugin.log)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30))
        (daemon, _) = try Self.startDaemon(name, folderCover: folderCover)
        #expect(plugin.next(Self.method("Plugin.Stream.Ready")) != nil, "\(plugin.seen) \(plugin.log)")
        #expect(plugin.next(Self.properties { ($0["metadata"] as? [String: Any])?["title"] as? String == "First" }) != nil)
        #expect(plugin.process.isRunning)
        // The second track has no picture of its own: the folder's cover.jpg, in chunks.
        plugin.request(2, "Plugin.Stream.Player.Control", ["command": "next"])
        let second = plugin.next(Self.properties { ($0["metadata"] as? [String: Any])?["title"] as? String == "Second" })
        let art = (second?["params"] as? [String: Any]).flatMap { ($0["metadata"] as? [String: Any])?["artData"] as? [String: Any] } ?? [:]
        #expect(art["extension"] as? String == "jpg", "\(plugin.seen)")
        #expect((art["data"] as? String).flatMap { Data(base64Encoded: $0) } == Data(folderCover))
        plugin.closeInput()
        #expect(daemon.wait(seconds: 30) { !plugin.process.isRunning })
        #expect(plugin.process.terminationStatus == 0)
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit(seconds: 30))
    }

    /// Where the socket comes from: --socket, then JUKEBOX_SOCKET, then the config's
    /// [control] socket; a broken config falls back to the default with its message.
    /// With stdin empty the plugin tries once, says where, and ends with 0.
    @Test func theSocketIsFoundInOptionEnvironmentOrConfig() throws {
        let folder = try Fixtures.shared.scratchFolder("snapcast-plugin-socket")
        try "[control]\nsocket = \"\(folder)/from-config.sock\"\n".write(toFile: folder + "/good.toml", atomically: true, encoding: .utf8)
        try "[control]\nsockt = 1\n".write(toFile: folder + "/bad.toml", atomically: true, encoding: .utf8)
        func tried(_ arguments: [String], environment: [String] = []) throws -> (status: Int32, log: String) {
            let out = try Tools.run("env", ["-u", "JUKEBOX_SOCKET"] + environment + [Tools.jukebox, "snapcast-plugin"] + arguments, stdin: Data(), check: false)
            return (out.status, out.stderr)
        }
        let fromConfig = try tried(["--config", folder + "/good.toml", "--stream=Jukebox", "--snapcast-port=1780", "--newer=1"])
        #expect(fromConfig.status == 0 && fromConfig.log.contains("cannot connect to \(folder)/from-config.sock"), "\(fromConfig)")
        let fromEnvironment = try tried(["--config", folder + "/good.toml"], environment: ["JUKEBOX_SOCKET=\(folder)/from-env.sock"])
        #expect(fromEnvironment.log.contains("cannot connect to \(folder)/from-env.sock"), "\(fromEnvironment)")
        let fromOption = try tried(["--socket", folder + "/from-option.sock"], environment: ["JUKEBOX_SOCKET=\(folder)/from-env.sock"])
        #expect(fromOption.log.contains("cannot connect to \(folder)/from-option.sock"), "\(fromOption)")
        let broken = try tried(["--config", folder + "/bad.toml"])
        #expect(broken.status == 0 && broken.log.contains("bad.toml:2:1: unknown key \"sockt\"") && broken.log.contains("using /run/jukebox/control"),
                "\(broken)")
    }
}
