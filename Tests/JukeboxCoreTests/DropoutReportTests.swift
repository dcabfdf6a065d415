import Testing
@testable import JukeboxCore

/// An output that runs dry on every write, as a starved board would.
final class RunsDryOutput: AudioOutput, @unchecked Sendable {
    let name = "runs dry"
    var negotiated: String { name }
    var periodFrames: Int { 441 }
    private(set) var underruns = 0
    func configure(_ format: OutputFormat) throws(OutputError) {}
    func writableFrames() -> Int { 4096 }
    func nanosecondsUntilWritable(_ frames: Int) -> UInt64 { 0 }
    func write(_ frames: UnsafeRawBufferPointer) throws(OutputError) { underruns += 1 }
    func delay() -> Int { 0 }
    func rewind(_ frames: Int) -> Int { 0 }
    func dropAndPrepare() {}
    func drain() {}
    func close() {}
}

@Suite struct DropoutReportTests {
    @Test func firstUnderrunAtOnceThenOneReportPerInterval() {
        var report = DropoutReport(interval: 10)
        #expect(report.due(total: 0, now: 100) == nil)
        #expect(report.due(total: 1, now: 100) == 1)
        #expect(report.due(total: 3, now: 105) == nil)  // too soon: counted, not said
        #expect(report.due(total: 3, now: 110) == 3)
        #expect(report.due(total: 3, now: 200) == nil)  // nothing new
        #expect(report.due(total: 4, now: 200) == 4)
    }

    @Test func engineReportsTheOutputsUnderrunsOnceWithinTheInterval() throws {
        let log = EventLog()
        let engine = AudioEngine(output: RunsDryOutput()) { log.append($0) }
        try engine.start()
        engine.play(TrackRef(token: 1, path: Fixtures.shared.path("music16.flac")))
        #expect(log.wait { $0.isFinished })
        engine.shutdown()
        let reports = log.all.compactMap { if case .underrun(let total) = $0 { total } else { nil } }
        #expect(reports == [1])
    }
}
