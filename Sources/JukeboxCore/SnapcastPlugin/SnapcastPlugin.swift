#if canImport(Glibc)
import Glibc
#endif

/// Snapcast's stream plugin for the box: snapserver speaks JSON-RPC on stdin and stdout,
/// the box is followed over its control socket with `idle`. One thread waits on both.
///
/// The box going away (a restart) is logged and retried with back-off; `Ready` is sent
/// again once it is back. The end of stdin (snapserver stopped) ends the plugin.
public final class SnapcastPlugin {
    public struct Settings: Sendable {
        public var socketPath: String
        /// A longer line from snapserver is dropped with a parse error, so memory stays bounded.
        public var maximumLineBytes = 65536
        /// A larger cover is not sent: Snapcast then shows none.
        public var maximumArtBytes = 1 << 20
        public var input: Int32 = STDIN_FILENO
        public var output: Int32 = STDOUT_FILENO

        public init(socketPath: String) {
            self.socketPath = socketPath
        }
    }

    private let settings: Settings
    private var splitter: LineSplitter
    private var link: BoxLink?
    private var failures = 0
    private var retryAt: UInt64 = 0
    /// What snapserver was told last, so only changes are sent.
    private var sentProperties: PlayerProperties?
    private var sentSong: MPDFields?
    private var metadata = SnapcastMetadata(song: MPDFields([]))
    private var outputClosed = false

    public init(settings: Settings) {
        self.settings = settings
        splitter = LineSplitter(maximumBytes: settings.maximumLineBytes)
    }

    /// Runs until stdin ends (0) or stdout cannot be written to (1).
    public func run() -> Int32 {
        while !outputClosed {
            if link == nil, MonotonicClock.now() >= retryAt { connect() }
            var fds = [pollfd(fd: settings.input, events: Int16(POLLIN), revents: 0)]
            if let link, link.idling { fds.append(pollfd(fd: link.client.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            let timeout = link == nil ? MonotonicClock.pollTimeout(until: [retryAt]) : -1
            guard (try? systemCall(retryOnInterrupt: false, { poll(&fds, nfds_t(fds.count), timeout) })) ?? 0 > 0 else { continue }
            if fds.count > 1, fds[1].revents != 0 { boxChanged() }
            if fds[0].revents != 0, !readInput() { return 0 }
        }
        return 1
    }

    // MARK: The box

    private func connect() {
        do throws(ControlClient.Failure) {
            let link = try BoxLink(socketPath: settings.socketPath)
            self.link = link
            if failures > 0 { log("connected to the jukebox at \(settings.socketPath) again") }
            failures = 0
            send(JSONRPC.notification("Plugin.Stream.Ready"))
            sentProperties = nil
            sentSong = nil
            try refresh(Set(BoxLink.subsystems), link: link)
            try link.enterIdle()
        } catch {
            // Said once per outage, not at every retry.
            if failures == 0 { log("\(error); retrying") }
            lost()
        }
    }

    /// Forgets the connection and waits before the next try: 0.5 s doubling to 10 s.
    private func lost() {
        link = nil
        let seconds = min(0.5 * Double(1 << min(failures, 5)), 10)
        failures += 1
        retryAt = MonotonicClock.now() + UInt64(seconds * 1e9)
    }

    private func boxChanged() {
        guard let link else { return }
        do throws(ControlClient.Failure) {
            let changed = try link.idleAnswer()
            try refresh(changed, link: link)
            try link.enterIdle()
        } catch {
            log("lost the jukebox: \(error)")
            lost()
        }
    }

    /// Reads again what `changed` touches and tells snapserver what differs: the status
    /// for any change, the song only when the player or the queue changed, and the
    /// metadata (with the cover) only for another song.
    private func refresh(_ changed: Set<String>, link: BoxLink) throws(ControlClient.Failure) {
        guard !changed.isEmpty else { return }
        let properties = PlayerProperties(status: try link.send(["status"]))
        var newMetadata: SnapcastMetadata?
        if changed.contains("player") || changed.contains("playlist") || sentSong == nil {
            let song = try link.send(["currentsong"])
            if song != sentSong {
                var next = SnapcastMetadata(song: song)
                if next.identity == metadata.identity {
                    next.art = metadata.art  // the same track, retitled (a radio): the same cover
                } else if let uri = song["file"] {
                    next.art = try link.picture(of: uri, maximumBytes: settings.maximumArtBytes)
                }
                metadata = next
                newMetadata = next
                sentSong = song
            }
        }
        guard newMetadata != nil || properties != sentProperties else { return }
        var params = properties.json
        if let newMetadata { params["metadata"] = .object(newMetadata.json) }
        sentProperties = properties
        send(JSONRPC.notification("Plugin.Stream.Player.Properties", .object(params)))
    }

    // MARK: Snapserver

    /// False once stdin has ended.
    private func readInput() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = (try? systemCall { read(settings.input, &chunk, chunk.count) }) ?? 0
        let pieces = n > 0 ? splitter.feed(chunk[..<n]) : splitter.finish()
        for piece in pieces {
            switch piece {
            case .line(let line):
                if !line.isEmpty { handle(line) }
            case .overlong(let bytes):
                log("dropped a line of \(bytes) bytes from snapserver (at most \(settings.maximumLineBytes))")
                send(JSONRPC.error(id: .null, .init(code: JSONRPC.Failure.parseErrorCode, message: "Parse error: line longer than \(settings.maximumLineBytes) bytes")))
            }
        }
        return n > 0
    }

    private func handle(_ line: String) {
        switch JSONRPC.read(line) {
        case .ignored: return
        case .invalid(let id, let failure):
            log("\(failure.message): \(line.prefix(120))")
            send(JSONRPC.error(id: id, failure))
        case .request(let request):
            let reply = answer(request)
            guard let id = request.id else { return }  // a notification: no reply
            switch reply {
            case .success(let value): send(JSONRPC.result(id: id, value))
            case .failure(let failure): send(JSONRPC.error(id: id, failure))
            }
        }
    }

    private func answer(_ request: JSONRPC.Request) -> Result<JSONValue, JSONRPC.Failure> {
        let asked: PluginRequest
        do { asked = try PluginRequest.from(request) } catch { return .failure(error) }
        guard let link else {
            return .failure(.init(code: JSONRPC.Failure.boxCode, message: "the jukebox at \(settings.socketPath) is not reachable; retrying"))
        }
        do throws(ControlClient.Failure) {
            let changed = try link.leaveIdle()
            defer { try? link.enterIdle() }
            let result: JSONValue
            do throws(ControlClient.Failure) {
                switch asked {
                case .getProperties:
                    var properties = PlayerProperties(status: try link.send(["status"])).json
                    properties["metadata"] = .object(metadata.json)
                    result = .object(properties)
                case .run(let commands):
                    for words in commands { _ = try link.send(words) }
                    result = .string("ok")
                case .playPause:
                    let playing = try link.send(["status"])["state"] == "play"
                    _ = try link.send(playing ? ["pause", "1"] : ["play"])
                    result = .string("ok")
                }
            } catch .refused(let ack) {
                return .failure(.init(code: JSONRPC.Failure.boxCode, message: "the jukebox refused: \(ack)"))
            }
            // What the noidle answer reported is followed now; the command's own changes
            // come back through idle.
            if !changed.isEmpty { try refresh(changed, link: link) }
            return .success(result)
        } catch {
            log("lost the jukebox: \(error)")
            lost()
            return .failure(.init(code: JSONRPC.Failure.boxCode, message: "the jukebox at \(settings.socketPath) went away: \(error)"))
        }
    }

    // MARK: Output

    /// Writes one message; a failed write (snapserver gone) ends the plugin.
    private func send(_ line: String) {
        guard !outputClosed else { return }
        let bytes = Array((line + "\n").utf8)
        do {
            try bytes.withUnsafeBytes { try writeAll(settings.output, $0) }
        } catch {
            log("cannot write to snapserver: \(error)")
            outputClosed = true
        }
    }

    /// Snapserver logs the plugin's stderr as its own.
    private func log(_ message: String) {
        var line = "jukebox snapcast-plugin: \(message)\n"
        _ = line.withUTF8 { try? writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }
}
