import Foundation
import Testing
@testable import JukeboxCore

/// An output whose write never returns until released: a USB DAC wedged in the kernel.
final class WedgedOutput: AudioOutput, @unchecked Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    let name = "wedged"
    var negotiated: String { "wedged" }
    var periodFrames: Int { 441 }

    func configure(_ format: OutputFormat) throws(OutputError) {}
    func writableFrames() -> Int { 4096 }
    func nanosecondsUntilWritable(_ frames: Int) -> UInt64 { 0 }
    func write(_ frames: UnsafeRawBufferPointer) throws(OutputError) {
        entered.signal()
        release.wait()
        release.signal()  // once released, every later write returns too
    }
    func delay() -> Int { 0 }
    func rewind(_ frames: Int) -> Int { 0 }
    func dropAndPrepare() {}
    func drain() {}
    func close() {}

    func waitUntilWedged(seconds: Double) -> Bool { entered.wait(timeout: .now() + seconds) == .success }
    func unwedge() { release.signal() }
}

/// Shutdown must finish whatever a thread is stuck in: bounded, and then the caller (the
/// daemon) exits anyway. Before, it joined the threads and waited forever.
@Suite struct ShutdownBoundTests {
    @Test func shutdownReturnsAndNamesTheThreadThatIsStuck() throws {
        let output = WedgedOutput()
        let engine = AudioEngine(output: output) { _ in }
        try engine.start()
        engine.play(TrackRef(token: 1, path: Fixtures.shared.path("music16.flac")))
        #expect(output.waitUntilWedged(seconds: 20))
        nonisolated(unsafe) var stuck: [String] = []
        #expect(HostileFileTests.finishes(within: 20) { stuck = engine.shutdown(within: 0.5) })
        #expect(stuck == ["jukebox-audio"])
        // Let the thread go, so it does not outlive the test doing anything.
        output.unwedge()
        #expect(engine.shutdown(within: 20).isEmpty)
    }
}
