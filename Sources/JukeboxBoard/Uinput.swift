import ArgumentParser
import CJukeboxShim
import JukeboxCore

#if canImport(Glibc)
import Glibc
#endif

/// Makes an evdev device through uinput and sends a timed script of events, as a USB
/// keypad, media keys or the kernel's rotary-encoder driver would.
///
/// Steps: `KEY_NAME=1` (down), `KEY_NAME=0` (up), `REL_NAME=N` (move), `+Dms` (wait).
/// A SYN_REPORT follows each key or axis step.
struct Uinput: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create a uinput device and send events to it.")

    @Option(help: "The device's name.") var name = "jukebox-board keys"
    @Option(help: "Wait this long after creating it, so readers can open it.") var settleMs = 1000
    @Option(help: "Keep it this long after the last step.") var lingerMs = 500
    @Argument(help: "Steps: KEY_X=1, KEY_X=0, REL_X=N, +Dms.") var steps: [String]

    func run() throws {
        let words = steps.flatMap { $0.split(separator: " ").map(String.init) }
        var events: [(type: Int32, code: Int32, value: Int32)?] = []  // nil: a wait, taken from waits
        var waits: [UInt64] = []
        for word in words {
            if word.hasPrefix("+") { events.append(nil); waits.append(try DriveLines.duration(word)); continue }
            let parts = word.split(separator: "=")
            var type: Int32 = 0, code: Int32 = 0
            guard parts.count == 2, let value = Int32(parts[1]), jukebox_evdev_code_named(String(parts[0]), &type, &code) != 0 else {
                throw ValidationError("\(word): a step is CODE=VALUE or +Dms")
            }
            events.append((type, code, value))
        }
        let codes = events.compactMap { $0 }
        let keys = Array(Set(codes.filter { $0.type == Int32(EV_KEY) }.map(\.code)))
        let rels = Array(Set(codes.filter { $0.type == Int32(EV_REL) }.map(\.code)))
        let fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK)
        guard fd >= 0 else { throw ValidationError("cannot open /dev/uinput: \(Errno.current)") }
        defer { close(fd) }
        guard jukebox_uinput_create(fd, name, keys, Int32(keys.count), rels, Int32(rels.count)) == 0 else {
            throw ValidationError("cannot create the uinput device: \(Errno.current)")
        }
        var at = MonotonicClock.now() + UInt64(settleMs) * 1_000_000
        MonotonicClock.sleep(until: at)
        var waitIndex = 0
        for event in events {
            guard let event else {
                at += waits[waitIndex]
                waitIndex += 1
                MonotonicClock.sleep(until: at)
                continue
            }
            try send(fd, event.type, event.code, event.value)
            try send(fd, Int32(EV_SYN), Int32(SYN_REPORT), 0)
        }
        MonotonicClock.sleep(until: MonotonicClock.now() + UInt64(lingerMs) * 1_000_000)
        _ = jukebox_uinput_destroy(fd)
    }

    private func send(_ fd: Int32, _ type: Int32, _ code: Int32, _ value: Int32) throws {
        var event = input_event()
        event.type = UInt16(type)
        event.code = UInt16(code)
        event.value = value
        let n = withUnsafeBytes(of: &event) { write(fd, $0.baseAddress, $0.count) }
        guard n == MemoryLayout<input_event>.size else { throw ValidationError("cannot write to uinput: \(Errno.current)") }
    }
}
