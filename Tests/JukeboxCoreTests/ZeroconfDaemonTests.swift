import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// The box announced through a real avahi-daemon and found by avahi-browse, as a phone
/// app finds it: all on a private system bus, so the machine's own D-Bus and network see
/// nothing of it. Also what happens when the daemon is missing, comes late, restarts, or
/// when D-Bus itself is gone.
@Suite(.serialized) struct ZeroconfDaemonTests {
    static let toolsPresent = ["/usr/bin/dbus-daemon", "/usr/sbin/avahi-daemon", "/usr/bin/avahi-browse", "/usr/bin/unshare"]
        .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    static let isRoot = geteuid() == 0

    @Test(.enabled(if: toolsPresent, "dbus-daemon, avahi-daemon or avahi-browse is missing (apt install dbus avahi-daemon avahi-utils)"),
          .enabled(if: isRoot, "avahi-daemon's own network namespace needs root"))
    func announcedFoundAndWithdrawn() throws {
        let home = NSTemporaryDirectory() + "jukebox-zeroconf-\(getpid())"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let bus = try PrivateSystemBus(home: home)
        defer { bus.kill() }
        // libdbus reads the system bus's address once per process, at its first
        // connection: set before any, and the same for the whole test.
        setenv("DBUS_SYSTEM_BUS_ADDRESS", bus.address, 1)
        defer { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        let log = LogLines()
        let logger = Logger(label: "zeroconf-test") { _ in LogCapture(lines: log) }
        let mpd = ZeroconfAnnouncement(type: "_mpd._tcp", port: 6612)
        let web = ZeroconfAnnouncement(type: "_http._tcp", port: 8092, txt: ["path=/"])
        let absent = "zeroconf: avahi-daemon is not running; the box is not announced (install avahi-daemon"

        // No avahi-daemon yet: start returns at once, says so once, and waits for it.
        let box = ZeroconfService(name: "JukeboxTest", announcements: [mpd, web], logger: logger)
        let began = Date()
        try box.start { _ in }
        #expect(Date().timeIntervalSince(began) < 1)
        #expect(log.count(absent) == 1)

        var avahi = try AvahiDaemon(home: home)
        defer { avahi.kill() }
        #expect(try Browse.find("_mpd._tcp", named: "JukeboxTest")?.port == 6612)
        let page = try Browse.find("_http._tcp", named: "JukeboxTest")
        #expect(page?.port == 8092 && page?.txt == "\"path=/\"")
        #expect(log.waitFor("zeroconf: announced as JukeboxTest: _mpd._tcp port 6612, _http._tcp port 8092"))

        // A second box of the same name takes avahi's next one.
        let twin = ZeroconfService(name: "JukeboxTest", announcements: [ZeroconfAnnouncement(type: "_mpd._tcp", port: 6613)], logger: logger)
        try twin.start { _ in }
        #expect(try Browse.find("_mpd._tcp", named: "JukeboxTest #2")?.port == 6613)
        #expect(log.waitFor("zeroconf: announced as JukeboxTest #2: _mpd._tcp port 6613"))
        twin.stop()

        // avahi-daemon restarts (an upgrade): announced again, with no second "not running".
        avahi.kill()
        #expect(log.waitFor("zeroconf: avahi-daemon stopped"), "\(log.all)")
        avahi = try AvahiDaemon(home: home)
        #expect(try Browse.find("_mpd._tcp", named: "JukeboxTest")?.port == 6612)
        #expect(log.count(absent) == 1)

        // Stopped: withdrawn from the network.
        box.stop()
        #expect(try Browse.gone("_mpd._tcp", named: "JukeboxTest"))

        // No D-Bus at all: said once, and start still returns at once.
        avahi.kill()
        bus.kill()
        let alone = ZeroconfService(name: "JukeboxTest", announcements: [mpd], logger: logger)
        let before = log.count(absent)
        let again = Date()
        try alone.start { _ in }
        #expect(Date().timeIntervalSince(again) < 1)
        #expect(log.count(absent) == before + 1)
        #expect(log.all.last?.contains("no D-Bus system bus") == true, "\(log.all)")
        alone.stop()
    }
}

/// A dbus-daemon of the test's own, as a system bus: a config that lets everyone own
/// and call everything (avahi-daemon must own org.freedesktop.Avahi), on a socket path
/// in `home` so a process in another network namespace reaches it too.
private final class PrivateSystemBus: @unchecked Sendable {
    let address: String
    private let child: Child

    init(home: String) throws {
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(home)/system_bus_socket</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
              </policy>
            </busconfig>
            """
        try config.write(toFile: "\(home)/bus.conf", atomically: true, encoding: .utf8)
        // In the foreground, as our child; it prints its address once it listens.
        child = try Child(["dbus-daemon", "--config-file=\(home)/bus.conf", "--nofork", "--print-address=1"], output: "\(home)/bus.out")
        let deadline = Date().addingTimeInterval(10)
        var printed = ""
        while Date() < deadline, child.isRunning {
            printed = (try? String(contentsOfFile: "\(home)/bus.out", encoding: .utf8)) ?? ""
            if printed.hasSuffix("\n") { break }
            usleep(20_000)
        }
        guard printed.hasPrefix("unix:"), printed.hasSuffix("\n") else {
            child.kill()
            throw Tools.ToolFailure(description: "dbus-daemon printed no address: \(printed)")
        }
        address = String(printed.split(separator: "\n")[0])
    }

    deinit { kill() }

    func kill() { child.kill() }
}

/// avahi-daemon on the private bus, in a network and mount namespace of its own.
/// mDNS needs an interface with the MULTICAST flag; loopback lacks it, and the host's
/// real interfaces would announce the test to the whole network. A fresh namespace
/// (`unshare -n`) has only its own loopback, which may be given the flag: avahi then
/// registers and resolves on it, and avahi-browse asks the daemon over D-Bus, so it
/// needs no network of its own. The mount namespace puts a tmpfs over
/// /run/avahi-daemon, where the pid file would meet the machine's own daemon's.
private struct AvahiDaemon {
    private let child: Child

    init(home: String) throws {
        let config = """
            [server]
            host-name=jukebox-test
            use-ipv4=yes
            use-ipv6=no
            enable-dbus=yes
            [publish]
            publish-hinfo=no
            publish-workstation=no
            """
        try config.write(toFile: "\(home)/avahi.conf", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: "/run/avahi-daemon", withIntermediateDirectories: true)
        let script = """
            mount -t tmpfs tmpfs /run/avahi-daemon && ip link set lo up && ip link set lo multicast on \
            && exec avahi-daemon --no-drop-root --no-chroot --no-rlimits -f \(home)/avahi.conf
            """
        // `unshare` and `sh` exec, so the child is avahi-daemon itself. It finds the bus
        // through this process's DBUS_SYSTEM_BUS_ADDRESS, set before.
        let child = try Child(["unshare", "-n", "-m", "sh", "-c", script], output: "\(home)/avahi.log")
        self.child = child
        // Up once it answers on the bus.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, child.isRunning {
            if Child.run(["avahi-browse", "-a", "-t", "-p", "-k"], output: "\(home)/probe.out") == 0 { return }
            usleep(100_000)
        }
        let said = (try? String(contentsOfFile: "\(home)/avahi.log", encoding: .utf8)) ?? ""
        child.kill()
        throw Tools.ToolFailure(description: "avahi-daemon did not come up on the private bus: \(said)")
    }

    func kill() { child.kill() }
}

/// avahi-browse, as a phone app looks: resolved services of one type, parsable output.
private enum Browse {
    struct Found { var name: String; var port: Int; var txt: String }

    /// The service `name` of `type`, resolved, once it is there (within 15 s).
    static func find(_ type: String, named name: String) throws -> Found? {
        let deadline = Date().addingTimeInterval(15)
        repeat {
            if let found = try resolved(type).first(where: { $0.name == name }) { return found }
            usleep(200_000)
        } while Date() < deadline
        return nil
    }

    /// Whether `name` is gone from `type` (within 15 s).
    static func gone(_ type: String, named name: String) throws -> Bool {
        let deadline = Date().addingTimeInterval(15)
        repeat {
            if try !resolved(type).contains(where: { $0.name == name }) { return true }
            usleep(200_000)
        } while Date() < deadline
        return false
    }

    /// `=;lo;IPv4;NAME;TYPE;local;HOST;ADDRESS;PORT;TXT`, names escaped as `\DDD`.
    private static func resolved(_ type: String) throws -> [Found] {
        let file = NSTemporaryDirectory() + "jukebox-zeroconf-browse-\(getpid())"
        defer { unlink(file) }
        Child.run(["timeout", "10", "avahi-browse", "-r", "-t", "-p", "-k", type], output: file)
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 10, fields[0] == "=", let port = Int(fields[8]) else { return nil }
            return Found(name: unescaped(fields[3]), port: port, txt: fields[9...].joined(separator: ";"))
        }
    }

    /// avahi's `\DDD` (a decimal byte) and `\C` escapes undone.
    private static func unescaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "\\"), !rest.isEmpty else { bytes.append(byte); continue }
            let digits = rest.prefix(3)
            if digits.count == 3, digits.allSatisfy({ (48...57).contains($0) }), let value = UInt8(String(decoding: digits, as: UTF8.self)) {
                bytes.append(value)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(rest.removeFirst())
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A process started with posix_spawn, its output to a file, killed and reaped by pid.
/// Not Foundation's Process: its waitUntilExit did not return here for children that
/// had exited (and never for one that forks to the background, which keeps Process's
/// watch open).
private final class Child: @unchecked Sendable {
    private let pid: pid_t
    private var reaped = false

    init(_ arguments: [String], output: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        guard result == 0 else { throw Tools.ToolFailure(description: "cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
        self.pid = pid
    }

    /// Runs `arguments` to the end; its exit status, or -1.
    @discardableResult
    static func run(_ arguments: [String], output: String) -> Int32 {
        guard let child = try? Child(arguments, output: output) else { return -1 }
        return child.wait()
    }

    var isRunning: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 { return true }
        reaped = true
        return false
    }

    /// SIGKILL: a child of the test runner starts with SIGTERM held.
    func kill() {
        guard !reaped else { return }
        Glibc.kill(pid, SIGKILL)
        wait()
    }

    @discardableResult
    func wait() -> Int32 {
        guard !reaped else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { reaped = true; return -1 }
        }
        reaped = true
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}

private final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
    func count(_ prefix: String) -> Int { all.filter { $0.hasPrefix(prefix) }.count }

    /// Whether a line starting with `prefix` comes within 15 s.
    func waitFor(_ prefix: String) -> Bool {
        let deadline = Date().addingTimeInterval(15)
        repeat {
            if count(prefix) > 0 { return true }
            usleep(50_000)
        } while Date() < deadline
        return false
    }
}

private struct LogCapture: LogHandler {
    let lines: LogLines
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { lines.append("\(event.message)") }
}
