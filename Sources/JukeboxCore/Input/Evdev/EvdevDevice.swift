import CJukeboxShim

#if canImport(Glibc)
import Glibc
#endif

/// An input device under /dev/input (gpio-keys, rotary-encoder, a USB keypad, media keys,
/// an IR receiver), read without grabbing it. Timestamps are switched to CLOCK_MONOTONIC
/// so they compare with GPIO edge times and the player's clock.
public final class EvdevDevice {
    public struct Event: Sendable, Equatable {
        public var type: Int
        public var code: Int
        public var value: Int32
        /// CLOCK_MONOTONIC nanoseconds.
        public var at: UInt64
    }

    public let path: String
    public let name: String
    public let fd: Int32

    public init(path: String) throws(GPIOError) {
        let fd: Int32
        do { fd = try systemCall { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) } } catch { throw .failed("cannot open \(path)", error) }
        var buffer = [CChar](repeating: 0, count: 256)
        do {
            try systemCall { jukebox_evdev_name(fd, &buffer, buffer.count) }
        } catch {
            close(fd)
            throw .failed("\(path) is not an input device", error)
        }
        _ = jukebox_evdev_set_clock(fd, CLOCK_MONOTONIC)
        self.fd = fd
        self.path = path
        name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { close(fd) }

    /// Whether the device can send this event type and code.
    public func has(type: Int, code: Int) -> Bool {
        var bits = [UInt8](repeating: 0, count: 0x300 / 8 + 1)
        guard jukebox_evdev_bits(fd, Int32(type), &bits, bits.count) >= 0, code / 8 < bits.count else { return false }
        return bits[code / 8] & (1 << (code % 8)) != 0
    }

    /// Which keys are down now.
    public func keysDown() -> Set<Int> {
        var bits = [UInt8](repeating: 0, count: 0x300 / 8 + 1)
        guard jukebox_evdev_key_state(fd, &bits, bits.count) >= 0 else { return [] }
        var down = Set<Int>()
        for (i, byte) in bits.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { down.insert(i * 8 + bit) }
        }
        return down
    }

    public func absoluteValue(code: Int) -> Int32? {
        var value: Int32 = 0
        return jukebox_evdev_abs_value(fd, Int32(code), &value) >= 0 ? value : nil
    }

    /// The events waiting (call when poll says readable). Throws when the device is gone.
    public func events() throws(GPIOError) -> [Event] {
        var buffer = [input_event](repeating: input_event(), count: 64)
        let n: Int
        do {
            n = try systemCall { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
        } catch .wouldBlock {
            return []
        } catch {
            throw .failed("\(name) (\(path))", error)
        }
        return buffer.prefix(n / MemoryLayout<input_event>.stride).map {
            Event(type: Int($0.type), code: Int($0.code), value: $0.value,
                  at: UInt64($0.time.tv_sec) * 1_000_000_000 + UInt64($0.time.tv_usec) * 1000)
        }
    }

    /// The event device nodes there are now.
    public static func nodes() -> [String] {
        guard let dir = opendir("/dev/input") else { return [] }
        defer { closedir(dir) }
        var paths: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("event") { paths.append("/dev/input/" + name) }
        }
        return paths.sorted()
    }
}
