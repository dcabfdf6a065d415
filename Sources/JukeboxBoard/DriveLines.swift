import ArgumentParser
import JukeboxCore

#if canImport(Glibc)
import Glibc
#endif

/// Drives the GPIO simulator's lines from outside, as buttons and encoders would, with
/// sub-millisecond timing no shell can give (a fork costs about 10 ms in the guest).
///
/// The script is a list of steps: `N=0` pulls line N down (a button to ground pressed),
/// `N=1` pulls it up (released), `+5ms` or `+300us` waits. A wait counts from when the step
/// before it was done: if the guest stalls, later steps come later rather than bunched
/// together (which would be a different, faster gesture). Each line is found under
/// /sys/devices/platform/gpio-sim.*/CHIP/sim_gpioN.
struct DriveLines: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpio", abstract: "Pull simulated GPIO lines up and down on a timed script.")

    @Option(help: "The simulated chip (as in /dev).") var chip = "gpiochip0"
    @Argument(help: "Steps: N=0, N=1, +Dms, +Dus.") var steps: [String]

    func run() throws {
        var files: [Int: Int32] = [:]
        for step in steps.flatMap({ $0.split(separator: " ").map(String.init) }) {
            if step.hasPrefix("+") {
                MonotonicClock.sleep(until: MonotonicClock.now() + (try Self.duration(step)))
                continue
            }
            let parts = step.split(separator: "=")
            guard parts.count == 2, let line = Int(parts[0]), parts[1] == "0" || parts[1] == "1" else {
                throw ValidationError("\(step): a step is N=0, N=1, +Dms or +Dus")
            }
            if files[line] == nil { files[line] = try open(line: line) }
            let text = parts[1] == "1" ? "pull-up" : "pull-down"
            guard pwrite(files[line]!, text, text.utf8.count, 0) == text.utf8.count else {
                throw ValidationError("cannot pull \(chip) line \(line): \(Errno.current)")
            }
        }
        for fd in files.values { close(fd) }
    }

    private func open(line: Int) throws -> Int32 {
        var found = glob_t()
        defer { globfree(&found) }
        let pattern = "/sys/devices/platform/gpio-sim.*/\(chip)/sim_gpio\(line)/pull"
        guard glob(pattern, 0, nil, &found) == 0, found.gl_pathc > 0, let path = found.gl_pathv[0] else {
            throw ValidationError("no simulated line \(pattern)")
        }
        let fd = Glibc.open(path, O_WRONLY)
        guard fd >= 0 else { throw ValidationError("cannot open \(String(cString: path)): \(Errno.current)") }
        return fd
    }

    static func duration(_ step: String) throws -> UInt64 {
        let body = step.dropFirst()
        if body.hasSuffix("ms"), let n = Double(body.dropLast(2)) { return UInt64(n * 1_000_000) }
        if body.hasSuffix("us"), let n = Double(body.dropLast(2)) { return UInt64(n * 1000) }
        throw ValidationError("\(step): a wait is +Dms or +Dus")
    }
}
