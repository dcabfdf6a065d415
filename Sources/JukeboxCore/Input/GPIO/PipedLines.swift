#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for a GPIO chip on machines that have none: edges arrive on a pipe as
/// 16-byte records (line offset: Int32, level: Int32, CLOCK_MONOTONIC ns: UInt64) and go
/// to the configured buttons by offset, through the same poll loop, debounce and gestures
/// as kernel edges. Used by the input latency benchmark on the build machine.
final class PipedLines: InputHardware {
    private let fd: Int32
    private var buttons: [Int: ButtonUnit] = [:]

    init(fd: Int32, config: InputConfig) {
        self.fd = fd
        for button in config.buttons {
            buttons[button.line.offset] = ButtonUnit(source: "button \"\(button.name)\"", debounceMilliseconds: button.debounceMilliseconds,
                                                    gestures: button.gestures)
        }
    }

    var descriptors: [Int32] { [fd] }
    var units: [InputUnit] { Array(buttons.values) }
    var waiting: Bool { false }
    func rescan(now: UInt64) -> [InputAction] { [] }

    func readable(_ fd: Int32, now: UInt64, batch: inout [PendingEdge]) -> [InputAction] {
        var records = [UInt64](repeating: 0, count: 64)
        let n = records.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return [] }
        for i in stride(from: 0, to: n / 8 - 1, by: 2) {
            let offset = Int(Int32(truncatingIfNeeded: records[i] & 0xFFFF_FFFF))
            let active = (records[i] >> 32) != 0
            let at = records[i + 1]
            guard let unit = buttons[offset] else { continue }
            batch.append(PendingEdge(at: at) { unit.edge(active: active, at: at) })
        }
        return []
    }

    /// Writes one edge record to `fd`, stamped now (for the benchmark's side of the pipe).
    static func send(fd: Int32, offset: Int32, active: Bool) -> UInt64 {
        let at = MonotonicClock.now()
        var record: [UInt64] = [UInt64(UInt32(bitPattern: offset)) | (active ? 1 << 32 : 0), at]
        _ = record.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
        return at
    }
}
