import Logging

#if canImport(Glibc)
import Glibc
#endif

/// An RDM6300 on a serial port (the Pi's UART, a USB-serial adapter): opened raw at 9600
/// 8N1, its frames parsed by `RDM6300Frames`. Each good frame reports the card present;
/// when the frames stop, the field is reported empty once. A port that cannot be opened
/// or goes away (an adapter unplugged) is said once and tried again until it is back.
final class RDM6300Reader: PolledReader {
    private let name: String
    private let port: String
    private let logger: Logger
    private let report: @Sendable (ReaderReport) -> Void
    private var fd: Int32?
    private var frames = RDM6300Frames()
    private var field = RDM6300Field()
    /// A failure was said (the port missing, gone, or a bad frame); said again only after
    /// things went well once more, so a noisy line or a long absence is one line.
    private var portTroubleSaid = false
    private var badFrameSaid = false

    init(name: String, port: String, logger: Logger, report: @escaping @Sendable (ReaderReport) -> Void) {
        self.name = name
        self.port = port
        self.logger = logger
        self.report = report
    }

    var descriptor: Int32? { fd }
    var deadline: UInt64? { field.deadline }

    func open() {
        guard fd == nil else { return }
        do {
            fd = try Self.openRaw(port)
        } catch {
            if !portTroubleSaid {
                portTroubleSaid = true
                logger.warning("card reader \"\(name)\": cannot open \(port): \(error); tried again until it works")
            }
            return
        }
        frames = RDM6300Frames()
        portTroubleSaid = false
        logger.info("card reader \"\(name)\": reading \(port)")
    }

    func readable(now: UInt64) {
        guard let fd else { return }
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n: Int
            do {
                n = try systemCall { read(fd, &buffer, buffer.count) }
            } catch .wouldBlock {
                return
            } catch {
                lose(now: now, why: "\(error)")
                return
            }
            // End of file: the tty hung up (its adapter unplugged).
            guard n > 0 else { lose(now: now, why: "hung up"); return }
            for item in frames.feed(buffer[0..<n]) {
                switch item {
                case .card(let id):
                    field.frame(at: now)
                    badFrameSaid = false
                    report(ReaderReport(reader: name, sighting: .present(id), at: now))
                case .bad(let why):
                    if !badFrameSaid {
                        badFrameSaid = true
                        logger.warning("card reader \"\(name)\": \(why) on \(port); skipped (a card at the edge of the field, or noise on the line)")
                    }
                }
            }
            if n < buffer.count { return }
        }
    }

    func advance(to now: UInt64) {
        if field.advance(to: now) { report(ReaderReport(reader: name, sighting: .absent, at: now)) }
    }

    func close() {
        if let fd { Glibc.close(fd) }
        fd = nil
    }

    private func lose(now: UInt64, why: String) {
        logger.warning("card reader \"\(name)\": \(port) went away (\(why)); it is opened again when it is back")
        close()
        portTroubleSaid = true
        if field.lost() { report(ReaderReport(reader: name, sighting: .absent, at: now)) }
    }

    /// The port, raw: 9600 baud, 8 data bits, no parity, one stop bit; no echo, no line
    /// editing, no flow control; not our controlling terminal; reads never block.
    static func openRaw(_ path: String) throws(Errno) -> Int32 {
        let fd = try systemCall { Glibc.open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) }
        var settings = termios()
        do {
            try systemCall { tcgetattr(fd, &settings) }
            cfmakeraw(&settings)
            settings.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(PARENB) | tcflag_t(CRTSCTS))
            settings.c_cflag |= tcflag_t(CS8) | tcflag_t(CLOCAL) | tcflag_t(CREAD)
            try systemCall { cfsetispeed(&settings, speed_t(B9600)) }
            try systemCall { cfsetospeed(&settings, speed_t(B9600)) }
            try systemCall { tcsetattr(fd, TCSANOW, &settings) }
            // What the line held before the port was opened is stale.
            _ = tcflush(fd, TCIFLUSH)
        } catch {
            Glibc.close(fd)
            throw error
        }
        return fd
    }
}
