import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// The PN532 reader's pure parts: a UID as a card number, what a poll reports, when a
/// failing device is logged and tried again. The reader against libnfc and a PN532 (an
/// emulated one on a serial port) runs on the virtual board (scenarios/card-pn532.sh).
@Suite struct PN532ReaderTests {
    @Test func aUIDIsItsBytesInUpperCaseHexInTheOrderRead() {
        #expect(CardID(uid: [0x04, 0xA2, 0x2B, 0x1A])?.text == "04A22B1A")
        #expect(CardID(uid: [0x04, 0x5F, 0x7E, 0xC2, 0x33, 0x61, 0x80])?.text == "045F7EC2336180")
        #expect(CardID(uid: [0x00, 0xFF])?.text == "00FF")
        #expect(CardID(uid: [UInt8](repeating: 0xAB, count: 10))?.text == String(repeating: "AB", count: 10))
        #expect(CardID(uid: []) == nil)
    }

    @Test func aPollReportsTheCardOrAnEmptyField() {
        #expect(PN532Reader.sighting([0xDE, 0xAD, 0xBE, 0xEF]) == .present(CardID("DEADBEEF")!))
        #expect(PN532Reader.sighting(nil) == .absent)
        #expect(PN532Reader.sighting([]) == nil)
    }

    @Test func theDevicePathOfAConnectionString() {
        #expect(NFCDevice.port(of: "pn532_uart:/dev/ttyS1") == "/dev/ttyS1")
        #expect(NFCDevice.port(of: "pn532_uart:/dev/ttyUSB0:115200") == "/dev/ttyUSB0")
        #expect(NFCDevice.port(of: "pn532_i2c:/dev/i2c-1") == "/dev/i2c-1")
        #expect(NFCDevice.port(of: "pn53x_usb:") == nil)
        #expect(NFCDevice.port(of: "pn532_uart") == nil)
    }

    @Test func failedOpensAreLoggedOnceAndWaitLongerEachTimeUpToALimit() {
        var retry = ReaderRetry()
        let tries = (0..<7).map { _ in retry.openFailed() }
        #expect(tries.map(\.log) == [true, false, false, false, false, false, false])
        #expect(tries.map { $0.wait / 1_000_000 } == [500, 1000, 2000, 4000, 4000, 4000, 4000])
        let returned = retry.opened()
        #expect(returned, "its return after a logged failure is logged")
        let again = retry.openFailed()
        #expect(again.log, "a new outage is logged again")
    }

    @Test func aDeviceThatOpensAtOnceHasNoReturnToLog() {
        var retry = ReaderRetry()
        let returned = retry.opened()
        #expect(!returned)
    }

    @Test func threePollsFailingInARowLoseTheDeviceOneDoesNot() {
        var retry = ReaderRetry()
        _ = retry.opened()
        var lost = [retry.pollFailed(), retry.pollFailed()]
        retry.pollSucceeded()
        lost += [retry.pollFailed(), retry.pollFailed(), retry.pollFailed()]
        #expect(lost == [false, false, false, false, true], "lost at the third in a row")
        // The loss was logged: the opens that fail after it are the same outage.
        let reopen = retry.openFailed()
        #expect(!reopen.log)
        let returned = retry.opened()
        #expect(returned, "and its return is logged")
    }

    /// libnfc itself, on a port that does not exist: one warning however many retries,
    /// no report, and stop() ends the thread.
    @Test func aMissingPortIsLoggedOnceAndStopEndsTheReader() async throws {
        let log = Lines()
        let reports = Lines()
        var logger = Logger(label: "test") { _ in Capture(lines: log) }
        logger.logLevel = .info
        let reader = PN532Reader(name: "box", connection: "pn532_uart:/dev/no-such-pn532",
                                 report: { reports.append("\($0.sighting)") }, logger: logger)
        try reader.start()
        try await Task.sleep(nanoseconds: 2_000_000_000)  // the first try and two more
        reader.stop()
        let lines = log.all
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("warning card reader \"box\": cannot open the PN532 on pn532_uart:/dev/no-such-pn532 (/dev/no-such-pn532: No such file or directory)") == true, "\(lines)")
        #expect(reports.all.isEmpty)
    }
}

private final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

private struct Capture: LogHandler {
    let lines: Lines
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { lines.append("\(event.level) \(event.message)") }
}
