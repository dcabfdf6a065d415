import ArgumentParser
import JukeboxCore

#if canImport(Glibc)
import Glibc
#endif

/// Pulls the jukebox's sound card and puts it back, again and again, while it plays, and
/// measures what a listener would: how long until the player is paused, how long from
/// replug until it plays again, whether it went on from where it paused, and how the
/// daemon's memory moved. The status is polled over the control socket in-process (every
/// 2 ms), so the figures are not swamped by starting a client per look.
struct UnplugCycles: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unplug-cycles",
                                                    abstract: "Unplug and replug a card while the jukebox plays; print the timings.")
    @Option var socket: String
    @Option(help: "The jukebox's process id (for its memory).") var pid: Int32
    @Option var cycles = 10
    @Option(help: "Shell command that unplugs the card (returns once done).") var unplug: String
    @Option(help: "Shell command that plugs it back.") var plug: String
    @Option(help: "Seconds to let it play between cycles.") var play = 0.5

    func run() throws {
        let client = try ControlClient(socketPath: socket)
        let startRSS = Self.residentKilobytes(pid), startAnon = Self.residentKilobytes(pid, "RssAnon")
        var toPaused: [Double] = [], toPlaying: [Double] = [], failures: [String] = []
        for cycle in 1...cycles {
            guard try waitFor(client, state: "play", seconds: 10) != nil else {
                failures.append("cycle \(cycle): not playing before the unplug")
                break
            }
            usleep(UInt32(play * 1e6))
            guard system(unplug) == 0 else { throw ValidationError("the unplug command failed: \(unplug)") }
            let unplugged = MonotonicClock.now()
            guard let paused = try waitFor(client, state: "pause", seconds: 10) else {
                failures.append("cycle \(cycle): not paused 10 s after the unplug")
                break
            }
            toPaused.append(Double(paused.at - unplugged) / 1e6)
            guard system(plug) == 0 else { throw ValidationError("the plug command failed: \(plug)") }
            let plugged = MonotonicClock.now()
            guard let playing = try waitFor(client, state: "play", seconds: 10) else {
                failures.append("cycle \(cycle): not playing 10 s after the replug")
                break
            }
            toPlaying.append(Double(playing.at - plugged) / 1e6)
            if cycle % 25 == 0 { print("rss after \(cycle) cycles: \(Self.residentKilobytes(pid)) KB (anonymous \(Self.residentKilobytes(pid, "RssAnon")) KB)") }
            // It goes on from the place it paused at: no further back than that, and not
            // further on than the time since it resumed.
            let sinceResume = Double(MonotonicClock.now() - playing.at) / 1e9
            if playing.elapsed < paused.elapsed - 0.001 || playing.elapsed > paused.elapsed + sinceResume + 0.05 {
                failures.append("cycle \(cycle): paused at \(paused.elapsed) s, resumed at \(playing.elapsed) s")
            }
        }
        let endRSS = Self.residentKilobytes(pid), endAnon = Self.residentKilobytes(pid, "RssAnon")
        print("cycles: \(toPaused.count) unplugged, \(toPlaying.count) resumed")
        print("unplug to paused: median \(Self.median(toPaused)) ms, max \(toPaused.max() ?? 0) ms")
        print("replug to playing: median \(Self.median(toPlaying)) ms, max \(toPlaying.max() ?? 0) ms")
        print("rss: \(startRSS) KB before, \(endRSS) KB after (\(endRSS - startRSS) KB)")
        // The rest of RSS is the binary's and libraries' pages, read in once as new code runs.
        print("anonymous rss (heap and stacks): \(startAnon) KB before, \(endAnon) KB after (\(endAnon - startAnon) KB)")
        for failure in failures { print("FAILED \(failure)") }
        if !failures.isEmpty { throw ExitCode(1) }
    }

    /// Polls until `state`; returns when it was seen and the elapsed time then.
    private func waitFor(_ client: ControlClient, state: String, seconds: Double) throws -> (at: UInt64, elapsed: Double)? {
        let deadline = MonotonicClock.now() + UInt64(seconds * 1e9)
        while MonotonicClock.now() < deadline {
            let fields = Dictionary(try client.send(["status"]).compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), String(line[line.index(colon, offsetBy: 2)...]))
            }, uniquingKeysWith: { a, _ in a })
            if fields["state"] == state { return (MonotonicClock.now(), Double(fields["elapsed"] ?? "0") ?? 0) }
            usleep(2000)
        }
        return nil
    }

    /// A field of /proc/PID/status in kB: VmRSS, or RssAnon (heap and stacks only).
    static func residentKilobytes(_ pid: Int32, _ field: String = "VmRSS") -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        let value = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return (value * 10).rounded() / 10
    }
}
