import CGpiod

#if canImport(Glibc)
import Glibc
#endif

/// A GPIO chip opened through libgpiod 1.6 (the version Debian 12 and Raspberry Pi OS
/// Bookworm ship): the character device, not the sysfs or /dev/mem interfaces that broke
/// with newer kernels. Lines are requested for both-edge events; each line's event file
/// descriptor joins the input thread's poll loop.
public final class GPIOChip {
    private let chip: OpaquePointer
    public let name: String
    public let label: String
    public let lineCount: Int

    /// Opens a chip by name (`gpiochip0`), label (`pinctrl-bcm2835`), path or number.
    public init(_ spec: String) throws(GPIOError) {
        do {
            chip = try systemCall { gpiod_chip_open_lookup(spec) }
        } catch let e where [.noEntry, .noDevice, Errno(ENOTTY)].contains(e) {
            throw .noChip(spec)
        } catch {
            throw .failed("cannot open GPIO chip \"\(spec)\"", error)
        }
        name = String(cString: gpiod_chip_name(chip))
        label = String(cString: gpiod_chip_label(chip))
        lineCount = Int(gpiod_chip_num_lines(chip))
    }

    deinit { gpiod_chip_close(chip) }

    /// Requests `offset` for edge events in both directions, as consumer "jukebox".
    public func requestEvents(offset: Int, bias: InputConfig.Bias, activeLow: Bool) throws(GPIOError) -> GPIOLineEvents {
        guard offset >= 0, offset < lineCount, let line = gpiod_chip_get_line(chip, UInt32(offset)) else {
            throw .noSuchLine(chip: name, offset: offset, lineCount: lineCount)
        }
        if gpiod_line_is_used(line) {
            let consumer = gpiod_line_consumer(line).map { String(cString: $0) } ?? "the kernel"
            throw .lineInUse(chip: name, offset: offset, consumer: consumer.isEmpty ? "the kernel" : consumer)
        }
        var flags: Int32 = 0
        if activeLow { flags |= Int32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) }
        switch bias {
        case .pullUp: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .pullDown: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        case .disabled: flags |= Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        case .asIs: break
        }
        do {
            try systemCall { gpiod_line_request_both_edges_events_flags(line, "jukebox", flags) }
        } catch .busy {
            throw .lineInUse(chip: name, offset: offset, consumer: "another program")
        } catch {
            throw .failed("cannot request \(name) line \(offset) for events", error)
        }
        return GPIOLineEvents(line: line, chip: self, offset: offset)
    }
}

/// One requested line. Released when dropped.
public final class GPIOLineEvents {
    public struct Edge: Sendable, Equatable {
        /// The line's logical level after the edge (active-low already applied).
        public var active: Bool
        /// Kernel timestamp, CLOCK_MONOTONIC nanoseconds.
        public var at: UInt64
    }

    private let line: OpaquePointer
    /// Holds the chip open while its line is in use.
    private let chip: GPIOChip
    public let offset: Int
    public let fd: Int32

    init(line: OpaquePointer, chip: GPIOChip, offset: Int) {
        self.line = line
        self.chip = chip
        self.offset = offset
        fd = gpiod_line_event_get_fd(line)
    }

    deinit { gpiod_line_release(line) }

    public var chipName: String { chip.name }

    /// The logical level now.
    public func read() throws(GPIOError) -> Bool {
        do {
            return try systemCall { gpiod_line_get_value(line) } == 1
        } catch {
            throw .failed("cannot read \(chip.name) line \(offset)", error)
        }
    }

    /// The edges waiting on the line's file descriptor (call when poll says it is readable).
    public func edges() throws(GPIOError) -> [Edge] {
        var buffer = [gpiod_line_event](repeating: gpiod_line_event(), count: 16)
        let n: Int32
        do {
            n = try systemCall { gpiod_line_event_read_fd_multiple(fd, &buffer, UInt32(buffer.count)) }
        } catch .wouldBlock {
            return []
        } catch {
            throw .failed("cannot read events of \(chip.name) line \(offset)", error)
        }
        return buffer.prefix(Int(n)).map {
            Edge(active: $0.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE),
                 at: UInt64($0.ts.tv_sec) * 1_000_000_000 + UInt64($0.ts.tv_nsec))
        }
    }
}
