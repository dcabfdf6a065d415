import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// The daemon's lyrics lookups are time-boxed: a file that takes too long is reported
/// and dropped, and the next track still gets its lyrics.
@Suite struct NowPlayingLyricsTests {
    let fx = Fixtures.shared

    /// Keeps every message logged.
    final class CapturedLog: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }

        /// Waits (bounded) until a line satisfies `match`.
        func wait(seconds: Double = 20, for match: (String) -> Bool) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if all.contains(where: match) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return false
        }
    }

    struct CapturingHandler: LogHandler {
        let log: CapturedLog
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { log.append("\(event.level) \(event.message)") }
    }

    func playing(_ path: String, title: String, elapsed: Double = 0) -> PlayerEvent {
        var status = PlayerStatus()
        status.state = .playing
        status.path = path
        status.queuePosition = 0
        status.queueLength = 2
        var metadata = TrackMetadata()
        metadata.title = title
        status.metadata = metadata
        status.elapsed = elapsed
        return .changed([.track, .tags], status)
    }

    @Test func aLookupPastItsBudgetGivesUpAndTheNextTrackGetsItsLyrics() throws {
        let folder = try fx.scratchFolder("now-playing-lyrics")
        let slow = "\(folder)/slow.flac"
        let fine = "\(folder)/fine.flac"
        for path in [slow, fine] {
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: fx.path("music16.flac"), toPath: path)
        }
        // Past the first deadline check (64 KiB), so a budget of 0 ms gives up on it.
        try String(repeating: "[00:00.10]slow line\n", count: 10_000).write(toFile: "\(folder)/slow.lrc", atomically: true, encoding: .utf8)
        try "[00:00.10]fine line\n".write(toFile: "\(folder)/fine.lrc", atomically: true, encoding: .utf8)

        let captured = CapturedLog()
        let log = NowPlayingLog(logger: Logger(label: "test") { _ in CapturingHandler(log: captured) }, lyricsBudgetMs: 0)
        log.handle(playing(slow, title: "Slow"))
        #expect(captured.wait { $0.hasPrefix("warning lyrics: \(folder)/slow.lrc: gave up after ") && $0.hasSuffix(" ms") },
                "\(captured.all)")

        log.handle(playing(fine, title: "Fine"))
        // The lookup runs on its own queue: keep reporting progress until the line shows.
        var shown = false
        for _ in 0..<1000 where !shown {
            log.handle(playing(fine, title: "Fine", elapsed: 0.5))
            shown = captured.all.contains("info ♪ fine line")
            if !shown { Thread.sleep(forTimeInterval: 0.02) }
        }
        #expect(shown, "\(captured.all)")
    }
}
