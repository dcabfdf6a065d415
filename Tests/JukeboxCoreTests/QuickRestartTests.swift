#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import JukeboxCore

/// Keeps no audio, and each write takes 5 ms, as a busy box's might: commands posted
/// meanwhile reach the audio thread together, once it looks again.
final class SlowOutput: AudioOutput, @unchecked Sendable {
    let name = "slow"
    var negotiated: String { "slow" }
    var periodFrames: Int { 441 }
    func configure(_ format: OutputFormat) throws(OutputError) {}
    func writableFrames() -> Int { 4096 }
    func nanosecondsUntilWritable(_ frames: Int) -> UInt64 { 0 }
    func write(_ frames: UnsafeRawBufferPointer) throws(OutputError) { usleep(5000) }
    func delay() -> Int { 0 }
    func rewind(_ frames: Int) -> Int { 0 }
    func dropAndPrepare() {}
    func drain() {}
    func close() {}
}

/// A play posted right behind a stop or a pause (a child pressing stop then play; the
/// play/stop soak, bench/soak) can reach the audio thread in the same batch as it: the
/// track must still play. Before, the stop or pause's own request to the decode thread
/// replaced the newer play's, and the status said "play" over silence until the next
/// command (1 cycle in about 1,500 of the soak).
@Suite struct QuickRestartTests {
    @Test func aPlayRightAfterAStopOrAPauseAlwaysPlaysToTheEnd() throws {
        let fx = Fixtures.shared
        let log = EventLog()
        let engine = AudioEngine(output: SlowOutput()) { log.append($0) }
        try engine.start()
        defer { engine.shutdown() }
        let track = fx.path("music16.flac")  // 6 s: longer than the 3 s decoded ahead
        engine.play(TrackRef(token: 0, path: track))
        #expect(log.wait { if case .trackStarted(0) = $0 { true } else { false } })
        for token in 1...40 {
            let endsBefore = log.all.filter(\.isFinished).count
            // While the audio thread is inside a write, so both reach it together.
            if token % 2 == 0 { engine.stop() } else { engine.pause() }
            engine.play(TrackRef(token: token, path: track))
            let playedOut = Self.poll { $0.filter(\.isFinished).count > endsBefore && $0.contains { if case .trackStarted(token) = $0 { true } else { false } } }
            let ok = playedOut(log)
            #expect(ok, "play \(token), posted right after a \(token % 2 == 0 ? "stop" : "pause"), did not play to its end")
            if !ok { break }
            // The next stop or pause comes while this play is heard.
            engine.play(TrackRef(token: 1000 + token, path: track))
            #expect(log.wait { if case .trackStarted(1000 + token) = $0 { true } else { false } })
        }
    }

    /// Waits up to 20 s for the events to satisfy `condition`.
    static func poll(_ condition: @escaping ([EngineEvent]) -> Bool) -> (EventLog) -> Bool {
        { log in
            for _ in 0..<2000 {
                if condition(log.all) { return true }
                usleep(10_000)
            }
            return condition(log.all)
        }
    }
}
