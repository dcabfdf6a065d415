import Foundation

/// `jukebox run` as a child process, for tests that poke it from outside (signals, a
/// folder that appears later). Its log goes to a file so nothing blocks on a full pipe.
final class RunningDaemon {
    let socket: String
    let logPath: String
    private let process = Process()

    /// `stateFile` "" keeps no state, so tests never resume each other's places. A nil
    /// `device` leaves the device to the config file.
    /// `inside` runs it in that network namespace (`ip netns exec`).
    init(name: String, config: String, musicDirectory: String, device: String? = "file:FILE=/dev/null,FORMAT=raw",
         stateFile: String = "", environment: [String: String] = [:], inside namespace: String? = nil) throws {
        let fx = Fixtures.shared
        socket = NSTemporaryDirectory() + "jukebox-\(name)-\(getpid()).sock"
        logPath = fx.path("\(name).log")
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let arguments = ["run", "--state", stateFile, "--config", config, "--music-dir", musicDirectory,
                         "--socket", socket] + (device.map { ["--device", $0] } ?? [])
        if let namespace {
            // `ip netns exec` execs the command: the process is the jukebox itself.
            process.executableURL = URL(fileURLWithPath: try Tools.path(of: "ip"))
            process.arguments = ["netns", "exec", namespace, Tools.jukebox] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Tools.jukebox)
            process.arguments = arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var isRunning: Bool { process.isRunning }
    var pid: Int32 { process.processIdentifier }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    var status: Int32 { process.terminationStatus }

    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// The daemon's resident memory now and at its peak (VmRSS, VmHWM), in bytes: read
    /// from /proc, which starts the peak afresh at exec (the test runner's is not in it).
    func memory() -> (now: Int, peak: Int) {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func kib(_ key: String) -> Int {
            let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return (kib("VmRSS"), kib("VmHWM"))
    }

    /// `jukebox status` through the socket, or nil when it does not answer.
    func statusReply() -> String? {
        guard let out = try? Tools.run("timeout", ["10", Tools.jukebox, "status", "--socket", socket], check: false),
              out.status == 0 else { return nil }
        return out.text
    }

    /// `jukebox ctl ARGS...` through the socket, or nil when it does not answer.
    func ctl(_ arguments: [String]) -> String? {
        guard let out = try? Tools.run("timeout", ["10", Tools.jukebox, "ctl", "--socket", socket] + arguments, check: false),
              out.status == 0 else { return nil }
        return out.text
    }

    /// Polls `condition` every 100 ms for up to `seconds`; true once it holds.
    func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(100_000)
        }
        return condition()
    }

    /// True once the process has ended, within `seconds`.
    func waitForExit(seconds: Double) -> Bool {
        wait(seconds: seconds) { !process.isRunning }
    }
}
