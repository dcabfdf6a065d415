import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// The RDM6300 reader's real code on a real tty: a pseudo-terminal plays the module,
/// through a link that stands for /dev/ttyUSB0, so the adapter can be unplugged (the
/// terminal's master closed) and plugged back (a new terminal behind the link).
@Suite struct RDM6300PortTests {
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [ReaderReport] = []
        private var lines: [String] = []
        func report(_ r: ReaderReport) { lock.withLock { reports.append(r) } }
        func log(_ line: String) { lock.withLock { lines.append(line) } }
        var sightings: [CardSighting] { lock.withLock { reports.map(\.sighting) } }
        var log: [String] { lock.withLock { lines } }
    }

    struct Capture: LogHandler {
        let seen: Seen
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { seen.log("\(event.level) \(event.message)") }
    }

    /// A pseudo-terminal's master, and the path of its other end.
    static func terminal() throws -> (master: Int32, path: String) {
        var master: Int32 = -1, other: Int32 = -1
        guard openpty(&master, &other, nil, nil, nil) == 0 else { throw Errno.current }
        // The reader opens the other end by its path, as it would a real port.
        defer { close(other) }
        guard let name = ttyname(other) else { throw Errno.current }
        return (master, String(cString: name))
    }

    /// Plays the module until `done` (or 10 s): noise, then the frame in two writes, every 65 ms.
    static func play(_ master: Int32, _ frame: [UInt8], until done: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(10)
        while Date() < end {
            if done() { return true }
            _ = [UInt8](arrayLiteral: 0x55, 0xAA).withUnsafeBytes { write(master, $0.baseAddress, 2) }
            _ = frame.prefix(6).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            _ = frame.dropFirst(6).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            usleep(65_000)
        }
        return done()
    }

    static func wait(for done: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(10)
        while Date() < end, !done() { usleep(20_000) }
        return done()
    }

    @Test func framesArePresenceAndAnUnpluggedPortIsWaitedFor() throws {
        let folder = try Fixtures.shared.scratchFolder("rdm6300-port")
        let link = folder + "/ttyUSB0"
        unlink(link)
        var (master, path) = try Self.terminal()
        #expect(symlink(path, link) == 0)
        let seen = Seen()
        let logger = Logger(label: "test") { _ in Capture(seen: seen) }
        let reader = PolledReaderThread(RDM6300Reader(name: "lid", port: link, logger: logger, report: { seen.report($0) }), logger: logger)
        try reader.start()
        defer { reader.stop() }
        let card = CardID("0A00C3F1E2")!
        let frame = CardReaderTests.frame(card.text)

        // The card lies on it: present with every frame; taken away: absent, once.
        #expect(Self.play(master, frame) { seen.sightings.filter { $0 == .present(card) }.count >= 3 })
        #expect(Self.wait { seen.sightings.last == .absent })
        #expect(seen.sightings.allSatisfy { $0 == .present(card) || $0 == .absent })
        #expect(seen.sightings.filter { $0 == .absent }.count == 1)

        // A bad checksum is said once and skipped.
        var bad = frame
        bad[11] ^= 0x01
        for _ in 0..<3 { _ = bad.withUnsafeBytes { write(master, $0.baseAddress, $0.count) } }
        #expect(Self.wait { seen.log.contains { $0.contains("checksum does not match") } })

        // Unplugged with the card on it: gone, and the card with it.
        let before = seen.sightings.count
        #expect(Self.play(master, frame) { seen.sightings.count > before })
        close(master)
        #expect(Self.wait { seen.log.contains { $0.contains("went away") } && seen.sightings.last == .absent })

        // Plugged back (a new terminal behind the link): found again, and read.
        (master, path) = try Self.terminal()
        defer { close(master) }
        unlink(link)
        #expect(symlink(path, link) == 0)
        let again = seen.sightings.count
        #expect(Self.play(master, frame) { seen.sightings.dropFirst(again).contains(.present(card)) })
        let log = seen.log
        #expect(log.filter { $0.contains("reading \(link)") }.count == 2)
        #expect(log.filter { $0.contains("checksum") }.count == 1)
        #expect(log.filter { $0.contains("went away") }.count == 1)
    }
}
