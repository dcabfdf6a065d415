import ArgumentParser
import JukeboxCore

#if canImport(Glibc)
import Glibc
#endif

/// Moves a card's volume control as another program would (alsamixer), alternating
/// between two volumes, and measures how long until the jukebox's status shows it. The
/// status is polled over the socket in-process every millisecond.
struct OutsideVolume: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "outside-volume",
                                                    abstract: "Turn a card's control behind the jukebox's back; print how soon its status follows.")
    @Option var socket: String
    @Option var device: String
    @Option var control: String
    @Option(help: "The two volumes to alternate between.") var volumes: [Int] = [30, 60]
    @Option var times = 10

    func run() throws {
        let client = try ControlClient(socketPath: socket)
        var latencies: [Double] = []
        for turn in 0..<times {
            let volume = volumes[turn % volumes.count]
            let started = MonotonicClock.now()
            _ = try MixerReport.set(device: device, control: control, index: 0, volume: volume)
            // The control's steps round it: within 3 of what was set.
            let deadline = started + 3_000_000_000
            var seen: UInt64?
            while MonotonicClock.now() < deadline {
                let line = try client.send(["status"]).first { $0.hasPrefix("volume: ") }
                if let shown = line.flatMap({ Int($0.dropFirst(8)) }), abs(shown - volume) <= 3 { seen = MonotonicClock.now(); break }
                usleep(1000)
            }
            guard let seen else {
                print("FAILED turn \(turn + 1): set to \(volume), the status did not follow within 3 s")
                throw ExitCode(1)
            }
            latencies.append(Double(seen - started) / 1e6)
            usleep(200_000)
        }
        print("outside change to status: median \(UnplugCycles.median(latencies)) ms, max \(((latencies.max() ?? 0) * 10).rounded() / 10) ms over \(times)")
    }
}
