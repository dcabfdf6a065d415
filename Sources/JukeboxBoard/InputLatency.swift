import ArgumentParser
import JukeboxCore
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Edge-to-effect latency of a button, in one process with the real input thread, player,
/// audio engine and output: edges go in through a pipe standing in for the GPIO chip (this
/// machine has none), each stamped when written, and the effect is the moment the output
/// reports the pause or resume audible. What it leaves out is the kernel's own edge
/// delivery; the virtual board measures that path (bench/input-latency).
struct InputLatency: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "input-latency", abstract: "Measure button edge to audible pause/resume.")

    @Option var presses = 100
    @Option(help: "Time between presses.") var intervalMs = 250
    @Option var debounceMs = 20
    @Option(help: "An ALSA PCM, or null-sink.") var device = "null-sink"

    func run() throws {
        var outPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0 else { throw ValidationError("pipe: \(Errno.current)") }
        let folder = "/tmp/jukebox-input-latency-\(getpid())"
        mkdir(folder, 0o755)
        defer { _ = try? DemoLibrary.write(to: folder).forEach { unlink($0) }; rmdir(folder) }
        let tracks = try DemoLibrary.write(to: folder)

        let effects = EffectTimes()
        let output: AudioOutput = device == "null-sink" ? NullOutput() : ALSAOutput(ALSAOutput.Settings(device: device))
        let box = PlayerReference()
        let engine = AudioEngine(output: output) { event in
            if case .commandApplied(let command, let postedAt, let audibleAt) = event, command == .pause || command == .resume {
                effects.add(postedAt: postedAt, audibleAt: audibleAt)
            }
            box.player?.engineEvent(event)
        }
        var settings = Player.Settings()
        settings.mode = .repeatAll
        let player = Player(engine: engine, settings: settings)
        box.player = player
        try engine.start()
        player.setTracks(tracks)
        player.send(.play)

        let config = try ConfigLoader.parse("""
            [[input.button]]
            line = 5
            press = "play-pause"
            debounce_ms = \(debounceMs)
            """, path: "input-latency").input
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let inputs = InputLoop(pipedButtons: config, readFrom: outPipe[0], logger: logger) {
            effects.sent(MonotonicClock.now() - $0.edgeAt)
            if case .player(let command) = $0.command { player.performUnlessBusy(command) }  // as the daemon does
        }
        try inputs.start()
        MonotonicClock.sleep(until: MonotonicClock.now() + 1_000_000_000)

        var edges: [UInt64] = []
        for _ in 0..<presses {
            edges.append(InputLoop.sendEdge(to: outPipe[1], offset: 5, active: true))
            MonotonicClock.sleep(until: MonotonicClock.now() + 60_000_000)
            _ = InputLoop.sendEdge(to: outPipe[1], offset: 5, active: false)
            MonotonicClock.sleep(until: MonotonicClock.now() + UInt64(max(100, intervalMs) - 60) * 1_000_000)
        }
        MonotonicClock.sleep(until: MonotonicClock.now() + 300_000_000)
        inputs.stop()
        engine.shutdown()

        let latencies = effects.match(edges).sorted()
        guard !latencies.isEmpty else { throw ValidationError("no effects were reported") }
        let median = latencies[latencies.count / 2], maximum = latencies.last!
        let window = Double(debounceMs)
        let input = effects.inputTimes.sorted()
        print("output: \(output.name); \(latencies.count) of \(presses) presses took effect")
        print(String(format: "edge to command sent (debounce included): median %.2f ms, max %.2f ms", input[input.count / 2], input.last ?? 0))
        print("| path | presses | median ms | max ms | median beyond debounce | max beyond debounce |")
        print("|---|---|---|---|---|---|")
        print(String(format: "| pipe → input thread → player → %@ | %d | %.2f | %.2f | %.2f | %.2f |",
                     device, latencies.count, median, maximum, median - window, maximum - window))
    }
}

private final class PlayerReference: @unchecked Sendable { var player: Player? }

/// The output's reports, matched to presses: the first report posted after each edge.
private final class EffectTimes: @unchecked Sendable {
    private let lock = ConditionLock()
    private var reports: [(postedAt: UInt64, audibleAt: UInt64)] = []
    private var input: [Double] = []

    func sent(_ nanoseconds: UInt64) { lock.withLock { input.append(Double(nanoseconds) / 1_000_000) } }
    var inputTimes: [Double] { lock.withLock { input } }

    func add(postedAt: UInt64, audibleAt: UInt64) { lock.withLock { reports.append((postedAt, audibleAt)) } }

    func match(_ edges: [UInt64]) -> [Double] {
        lock.withLock {
            edges.compactMap { edge in
                reports.first { $0.postedAt >= edge }.map { Double($0.audibleAt - edge) / 1_000_000 }
            }
        }
    }
}
