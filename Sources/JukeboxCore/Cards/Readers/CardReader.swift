import Logging

/// A card reader as the inputs run it: started and stopped with them (a live reload
/// restarts them), each on a thread of its own, so a slow or blocking device (libnfc
/// waits on its bus) never holds up the input loop, the player or the audio. What it
/// sees goes to the `report` callback it was made with.
public protocol CardReader: AnyObject {
    /// Starts its thread. A device that is not there is no error: it is looked for until
    /// it appears. Throws only when the system cannot make the thread.
    func start() throws(Errno)
    func stop()
    /// The hotplug monitor saw a device appear: look for a missing one now.
    func devicesAppeared()
}

extension CardReader {
    public func devicesAppeared() {}
}

/// The configured readers, made, started and stopped together.
final class CardReaders {
    private let readers: [CardReader]
    private let logger: Logger

    init(_ configs: [InputConfig.Reader], logger: Logger, report: @escaping @Sendable (ReaderReport) -> Void) {
        self.logger = logger
        readers = configs.compactMap { Self.make($0, logger: logger, report: report) }
    }

    /// The reader for one `[[input.reader]]` entry; nil for a kind not built in.
    static func make(_ config: InputConfig.Reader, logger: Logger, report: @escaping @Sendable (ReaderReport) -> Void) -> CardReader? {
        switch config.kind {
        case .hid(let device):
            return PolledReaderThread(HIDCardReader(name: config.name, device: device, logger: logger, report: report), logger: logger)
        case .rdm6300(let port):
            return PolledReaderThread(RDM6300Reader(name: config.name, port: port, logger: logger, report: report), logger: logger)
        case .pn532(let connection):
            // Its own thread already: libnfc's calls block, and it polls on its own clock.
            return PN532Reader(name: config.name, connection: connection, report: report, logger: logger)
        }
    }

    /// Starts each reader; one that cannot start is logged and the others run.
    func start() {
        for reader in readers {
            do { try reader.start() } catch { logger.error("card reader: cannot start its thread: \(error)") }
        }
    }

    func stop() { for reader in readers { reader.stop() } }

    func devicesAnnounced(_ events: [UeventMonitor.Uevent]) {
        guard events.contains(where: { $0.action == "add" && ($0.subsystem == "input" || $0.subsystem == "tty") }) else { return }
        for reader in readers { reader.devicesAppeared() }
    }
}
