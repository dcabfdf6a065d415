import Foundation
import Testing
@testable import JukeboxCore

/// Records what the audio thread does to its output, in order.
final class RecordingOutput: AudioOutput, @unchecked Sendable {
    enum Step: Equatable { case configure(OutputFormat), drain, drop }
    private let lock = NSLock()
    private var _steps: [Step] = []
    private var _data: [OutputFormat: Data] = [:]
    private var format: OutputFormat?
    let name = "recording"
    var negotiated: String { "recording" }
    var periodFrames: Int { 441 }

    var steps: [Step] { lock.withLock { _steps } }
    func data(_ format: OutputFormat) -> Data { lock.withLock { _data[format] ?? Data() } }

    func configure(_ format: OutputFormat) throws(OutputError) { lock.withLock { _steps.append(.configure(format)); self.format = format } }
    func writableFrames() -> Int { 4096 }
    func nanosecondsUntilWritable(_ frames: Int) -> UInt64 { 0 }
    func write(_ frames: UnsafeRawBufferPointer) throws(OutputError) { lock.withLock { _data[format!, default: Data()].append(contentsOf: frames) } }
    func delay() -> Int { 0 }
    func rewind(_ frames: Int) -> Int { 0 }
    func dropAndPrepare() { lock.withLock { _steps.append(.drop) } }
    func drain() { lock.withLock { _steps.append(.drain) } }
    func close() {}
}


@Suite struct FormatChangeTests {
    @Test func outputIsReconfiguredBetweenTracksOfDifferentFormats() throws {
        let fx = Fixtures.shared
        let output = RecordingOutput()
        let log = EventLog()
        let engine = AudioEngine(output: output) { log.append($0) }
        try engine.start()
        engine.play(TrackRef(token: 1, path: fx.path("music16.flac")), next: TrackRef(token: 2, path: fx.path("music24.flac")))
        #expect(log.wait { $0.isFinished })
        engine.shutdown()
        let cd = OutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .s16)
        let hires = OutputFormat(sampleRate: 96_000, channels: 2, sampleFormat: .s24)
        // The first track plays out before the device changes format.
        #expect(Array(output.steps.prefix(3)) == [.configure(cd), .drain, .configure(hires)])
        // The first format's audio then silence to the end of its period; the last one's
        // then the closing silence.
        let first = try fx.flacReference("music16.flac")
        #expect(isAudioThenSilence(output.data(cd), first))
        #expect(output.data(cd).count - first.count < 441 * 4)
        #expect(isAudioThenSilence(output.data(hires), try fx.flacReference("music24.flac"), bytesPerFrame: 6, sampleRate: 96_000))
        #expect(log.all.contains { if case .trackStarted(2) = $0 { true } else { false } })
    }

    @Test func keys() {
        var keys = KeySequence()
        func feed(_ bytes: [UInt8]) -> [KeyboardInput.Action] { bytes.compactMap { keys.feed($0, skipSeconds: 10) } }
        #expect(feed(Array(" npm+-q".utf8)) == [.command(.toggle), .command(.next), .command(.previous), .command(.cycleMode),
                                                 .command(.volumeStep(1)), .command(.volumeStep(-1)), .quit])
        #expect(feed([0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44]) == [.command(.skip(seconds: 10)), .command(.skip(seconds: -10))])
        #expect(feed([0x1B, 0x78, 0x20]) == [.command(.toggle)])  // a stray escape is dropped
        // A card's number and Enter; Enter alone, or after more digits than a card has, is nothing.
        #expect(feed(Array("0012345678\n".utf8)) == [.card(CardID("0012345678")!)])
        #expect(feed(Array("\r".utf8) + Array(String(repeating: "7", count: 40).utf8) + [0x0D] + Array("42\r".utf8)) == [.card(CardID("42")!)])
    }
}
