import Foundation

/// A room: snapclient in a network namespace of its own, joined to the host by a veth
/// pair (host side HOST_ADDRESS/30, room side ROOM_ADDRESS/30, on a subnet made from the
/// test's process id and the room's index), recording what it plays with the file player.
/// Its link can go down and up. `deinit` stops the client, removes the namespace (and
/// with it the veth pair) and deletes the recording, which grows by 192 kB a second.
final class SnapRoom {
    let name: String
    let namespace: String
    let hostAddress: String
    let roomAddress: String
    let recording: String
    private let hostInterface: String
    private let client = Process()
    private let logPath: String
    private let watcher: RecordingWatcher

    /// `latencyMs` is snapclient's `--latency` (its device's delay, played that much
    /// earlier).
    init(_ name: String, index: Int, server: SnapServer, latencyMs: Int = 0) throws {
        self.name = name
        let tag = "\(getpid() % 100_000)\(index)"
        namespace = "jukebox-snap-\(tag)"
        hostInterface = "jbs\(tag)"
        let subnet = "10.\(100 + getpid() % 100).\(index * 4)"
        hostAddress = "\(subnet).1"
        roomAddress = "\(subnet).2"
        let folder = "\(server.directory)/room-\(name)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        recording = "\(folder)/recording.raw"
        logPath = "\(folder)/snapclient.log"

        _ = try? Tools.run("ip", ["netns", "del", namespace], check: false)
        _ = try? Tools.run("ip", ["link", "del", hostInterface], check: false)
        try Tools.run("ip", ["netns", "add", namespace])
        try Tools.run("ip", ["link", "add", hostInterface, "type", "veth", "peer", "name", "eth0", "netns", namespace])
        try Tools.run("ip", ["addr", "add", "\(hostAddress)/30", "dev", hostInterface])
        try Tools.run("ip", ["link", "set", hostInterface, "up"])
        for command in [["ip", "addr", "add", "\(roomAddress)/30", "dev", "eth0"], ["ip", "link", "set", "lo", "up"], ["ip", "link", "set", "eth0", "up"]] {
            try Tools.run("ip", ["netns", "exec", namespace] + command)
        }

        watcher = try RecordingWatcher(folder: folder, file: "recording.raw")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        client.executableURL = URL(fileURLWithPath: try Tools.path(of: "ip"))
        // mode=a: a client that reconnects makes its player anew, which would empty a "w" file.
        // No mixer: nothing scales the samples, so they stay bit-exact.
        client.arguments = ["netns", "exec", namespace, try Tools.path(of: "snapclient"),
                            "-h", hostAddress, "-p", "\(server.streamPort)", "--hostID", name,
                            "--player", "file:filename=\(recording),mode=a", "--mixer", "none",
                            "--latency", "\(latencyMs)", "--logsink", "stderr"]
        client.standardInput = FileHandle.nullDevice
        client.standardOutput = FileHandle.nullDevice
        client.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        try client.run()
    }

    deinit {
        if client.isRunning {
            kill(client.processIdentifier, SIGKILL)
            client.waitUntilExit()
        }
        watcher.stop()
        _ = try? Tools.run("ip", ["netns", "del", namespace], check: false)
        _ = try? Tools.run("ip", ["link", "del", hostInterface], check: false)
        try? FileManager.default.removeItem(atPath: recording)
    }

    @discardableResult
    func inside(_ command: [String]) throws -> Tools.Output {
        try Tools.run("ip", ["netns", "exec", namespace] + command)
    }

    /// The room's side of its link, down (cable pulled) and up again.
    func linkDown() throws { try inside(["ip", "link", "set", "eth0", "down"]) }
    func linkUp() throws { try inside(["ip", "link", "set", "eth0", "up"]) }

    var isRunning: Bool { client.isRunning }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// What it has recorded so far, and when each frame was meant to be heard.
    func recorded() throws -> (pcm: StereoPCM, clock: FilePlayerClock) {
        let clock = watcher.clock
        let pcm = FileManager.default.fileExists(atPath: recording) ? try StereoPCM(contentsOf: recording) : StereoPCM(frames: [])
        return (pcm, clock)
    }
}

/// Stamps a recording's growth as it happens: inotify wakes a thread at each write into
/// the folder, which notes the file's size on CLOCK_MONOTONIC (`FilePlayerClock`).
final class RecordingWatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var stamps = FilePlayerClock()
    private var running = true
    private let fd: Int32
    private var thread: Thread?

    /// The thread holds the watcher until `stop`.
    init(folder: String, file: String) throws {
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0, inotify_add_watch(fd, folder, UInt32(IN_MODIFY | IN_CREATE)) >= 0 else {
            throw Tools.ToolFailure(description: "inotify on \(folder): \(errno)")
        }
        let thread = Thread { [self] in watch("\(folder)/\(file)") }
        thread.name = "recording-watcher"
        self.thread = thread
        thread.start()
    }

    private func watch(_ path: String) {
        var events = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while isRunning {
            guard poll(&poller, 1, 100) > 0, read(fd, &events, events.count) > 0 else { continue }
            let now = monotonicSeconds()
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            lock.lock()
            stamps.saw(bytes: Int(info.st_size), at: now)
            lock.unlock()
        }
    }

    private var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    var clock: FilePlayerClock {
        lock.lock()
        defer { lock.unlock() }
        return stamps
    }

    /// Ends the thread (within its 100 ms poll) and closes the inotify descriptor.
    func stop() {
        lock.lock()
        let was = running
        running = false
        lock.unlock()
        guard was else { return }
        while thread?.isFinished == false { usleep(10_000) }
        close(fd)
    }
}
