import ArgumentParser
import JukeboxCore
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Runs a PN532Reader for a while and prints what it reports, a line each time that
/// changes (the reader reports every poll): for the board's card-pn532 scenario, before
/// the daemon reads cards. Its log (a device lost, back) goes to stderr.
struct PN532Watch: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pn532",
                                                    abstract: "Poll a PN532 through libnfc; print each change of what it sees, with times.")
    @Option(help: "libnfc's connection string.") var connection = "pn532_uart:/dev/ttyS1"
    @Option(help: "The longest it polls.") var seconds: Double
    @Option(help: "Stop when this file appears.") var stopFile: String?

    func run() throws {
        var logger = Logger(label: "pn532") { StderrLogHandler(label: $0) }
        logger.logLevel = .info
        let start = MonotonicClock.now()
        let seen = ConditionLocked<(last: CardSighting?, polls: Int)>((nil, 0))
        let reader = PN532Reader(name: "pn532", connection: connection, report: { report in
            let changed = seen.withLock { access -> Bool in
                access.polls += 1
                guard access.last != report.sighting else { return false }
                access.last = report.sighting
                return true
            }
            guard changed else { return }
            let at = Double(report.at - start) / 1e9
            switch report.sighting {
            case .present(let card): say("\(clock(at)) present \(card)")
            case .absent: say("\(clock(at)) absent")
            case .read(let card): say("\(clock(at)) read \(card)")
            }
        }, logger: logger)
        try reader.start()
        let end = start + UInt64(seconds * 1e9)
        while MonotonicClock.now() < end, stopFile.map({ access($0, F_OK) != 0 }) ?? true {
            MonotonicClock.sleep(until: min(end, MonotonicClock.now() + 100_000_000))
        }
        reader.stop()
        let polls = seen.current.polls
        // What polling costs the box: the process's CPU time (the reader's thread is all
        // this tool runs besides waiting).
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        say("polls \(polls) in \(clock(Double(MonotonicClock.now() - start) / 1e9)) s, cpu \(clock(cpu)) s")
    }
}

/// Seconds with three decimals, without Foundation's String(format:).
private func clock(_ value: Double) -> String {
    let millis = Int((value * 1000).rounded())
    let fraction = String(millis % 1000)
    return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}

/// A line on stdout at once (a scenario reads the file while this runs).
private func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = write(STDOUT_FILENO, &bytes, bytes.count)
}
