import Logging

#if canImport(Glibc)
import Glibc
#endif

/// A PN532 card reader (NFC, ISO14443A: MIFARE cards and tags), through libnfc on a
/// thread of its own, since libnfc's calls block. It polls the field every 100 ms and
/// reports what each poll found: `.present` with the card's UID, or `.absent`. What a
/// run of those means (a card placed, lifted, put back) is the card logic's to decide.
///
/// A device that cannot be opened, or stops answering (unplugged, its UART gone), is
/// logged once and tried again with a growing wait until it answers, which is logged
/// too (`ReaderRetry`).
public final class PN532Reader: CardReader, Sendable {
    /// Between the starts of two polls. A poll with no card takes a few milliseconds, so
    /// a lifted card is known within about this much.
    public static let pollInterval: UInt64 = 100_000_000
    /// How long `stop()` waits for the thread; libnfc's longest call (opening a device
    /// that does not answer) takes about 1.5 s.
    static let stopWait: UInt64 = 3_000_000_000

    private let name: String
    private let connection: String
    private let report: @Sendable (ReaderReport) -> Void
    private let logger: Logger

    private struct Control {
        var stopping = false
        var running = false
        /// A device appeared somewhere: a reader waiting to try its device again tries now.
        var lookNow = false
    }
    private let control = ConditionLocked(Control())

    /// `connection` is libnfc's connection string, e.g. `pn532_uart:/dev/ttyS1`.
    public init(name: String, connection: String, report: @escaping @Sendable (ReaderReport) -> Void, logger: Logger) {
        self.name = name
        self.connection = connection
        self.report = report
        self.logger = logger
    }

    /// Starts polling on its own thread; returns at once. Starting a running reader does
    /// nothing. Throws only when the system cannot make the thread.
    public func start() throws(Errno) {
        let starting = control.withLock { access -> Bool in
            guard !access.running else { return false }
            access.running = true
            access.stopping = false
            return true
        }
        guard starting else { return }
        do {
            let thread = try WorkerThread.start(name: "jukebox-pn532") { [self] in
                run()
                control.withLock { access in
                    access.running = false
                    access.broadcast()
                }
            }
            pthread_detach(thread)
        } catch {
            control.withLock { $0.running = false }
            throw error
        }
    }

    /// A device appeared (a USB-serial adapter plugged in): a reader waiting to try its
    /// device again tries it now instead of at the end of its wait.
    public func devicesAppeared() {
        control.withLock { access in
            access.lookNow = true
            access.broadcast()
        }
    }

    /// Stops polling and closes the device; returns once the thread has, or after a few
    /// seconds if libnfc is still in a call (the thread then closes the device when the
    /// call returns, and reports nothing more).
    public func stop() {
        let stopped = control.withLock { access -> Bool in
            access.stopping = true
            access.broadcast()
            let deadline = MonotonicClock.now() + Self.stopWait
            while access.running {
                let now = MonotonicClock.now()
                guard now < deadline else { return false }
                access.wait(nanoseconds: deadline - now)
            }
            return true
        }
        if !stopped { logger.warning("card reader \"\(name)\": libnfc is still busy with \(connection); the device is closed when it returns") }
    }

    private var stopping: Bool { control.withLock { $0.stopping } }

    /// Waits until `deadline` or a stop (or, with `orDevice`, a device appearing); true
    /// when stopping.
    private func wait(until deadline: UInt64, orDevice: Bool = false) -> Bool {
        control.withLock { access -> Bool in
            while !access.stopping {
                if orDevice, access.lookNow {
                    access.lookNow = false
                    return false
                }
                let now = MonotonicClock.now()
                guard now < deadline else { return false }
                access.wait(nanoseconds: deadline - now)
            }
            return true
        }
    }

    private func run() {
        var retry = ReaderRetry()
        var device: NFCDevice?
        while !stopping {
            guard let open = device else {
                do throws(NFCError) {
                    device = try NFCDevice(connection: connection)
                    if retry.opened() {
                        logger.notice("card reader \"\(name)\": the PN532 on \(connection) answers again")
                    } else {
                        logger.info("card reader \"\(name)\": PN532 on \(connection)")
                    }
                } catch {
                    let (pause, log) = retry.openFailed()
                    if log { logger.warning("card reader \"\(name)\": cannot open the PN532 on \(connection) (\(error)); trying again until it answers") }
                    if wait(until: MonotonicClock.now() + pause, orDevice: true) { break }
                }
                continue
            }
            let polledAt = MonotonicClock.now()
            do throws(NFCError) {
                let uid = try open.poll()
                retry.pollSucceeded()
                // Checked again: a report after stop() returned would reach a daemon that
                // no longer expects this reader.
                if let sighting = Self.sighting(uid), !stopping {
                    report(ReaderReport(reader: name, sighting: sighting, at: MonotonicClock.now()))
                }
            } catch where error.isRadio {
                // A card half in the field, or two colliding: the chip works, and this
                // poll says nothing either way.
                retry.pollSucceeded()
            } catch {
                if retry.pollFailed() {
                    logger.warning("card reader \"\(name)\": lost the PN532 on \(connection) (\(error)); trying again until it answers")
                    device = nil
                    continue
                }
            }
            if wait(until: polledAt + Self.pollInterval) { break }
        }
        device = nil
    }

    /// What a poll's answer says: a card's UID, or an empty field (nil). A UID that is no
    /// card number (empty) says nothing.
    static func sighting(_ uid: [UInt8]?) -> CardSighting? {
        guard let uid else { return .absent }
        return CardID(uid: uid).map { .present($0) }
    }
}
