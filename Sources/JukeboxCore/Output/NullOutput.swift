#if canImport(Glibc)
import Glibc
#endif

/// A sink that discards audio at the pace a sound card would play it, so that everything
/// else (progress, lyrics, the socket) works on a machine with no sound card.
public final class NullOutput: AudioOutput {
    /// The device name that asks for it in the config (`device = "null-sink"`).
    public static let deviceName = "null-sink"
    public let name = "null sink"
    public private(set) var negotiated = "null sink (no sound card): audio is discarded in real time"
    public private(set) var periodFrames = 441
    public private(set) var bufferFrames = 8820
    private var format: OutputFormat?
    /// When the frames written so far will have "played", in monotonic nanoseconds.
    private var playedUntil: UInt64 = 0

    public init() {}

    public func configure(_ format: OutputFormat) throws(OutputError) {
        self.format = format
        periodFrames = format.frames(milliseconds: 10)
        bufferFrames = format.frames(milliseconds: 200)
    }

    public func write(_ frames: UnsafeRawBufferPointer) throws(OutputError) {
        guard let format else { return }
        let duration = UInt64(frames.count / format.bytesPerFrame) * 1_000_000_000 / UInt64(format.sampleRate)
        let now = MonotonicClock.now()
        if playedUntil < now { playedUntil = now }
        // A buffer as the default device's (200 ms): block until this much fits.
        if playedUntil + duration > now + capacity { MonotonicClock.sleep(until: playedUntil + duration - capacity) }
        playedUntil += duration
    }

    /// The room left, rounded down (the frames still to play rounded up), so a write of
    /// this much never has to wait.
    public func writableFrames() -> Int {
        guard let format else { return periodFrames }
        let now = MonotonicClock.now()
        let pending = playedUntil > now ? Int(((playedUntil - now) * UInt64(format.sampleRate) + 999_999_999) / 1_000_000_000) : 0
        return max(periodFrames, bufferFrames - pending)
    }

    public func nanosecondsUntilWritable(_ frames: Int) -> UInt64 {
        guard let format else { return 0 }
        let wanted = UInt64(frames) * 1_000_000_000 / UInt64(format.sampleRate)
        let now = MonotonicClock.now()
        return playedUntil + wanted > now + capacity ? playedUntil + wanted - capacity - now : 0
    }

    private var capacity: UInt64 {
        guard let format else { return 0 }
        return UInt64(bufferFrames) * 1_000_000_000 / UInt64(format.sampleRate)
    }

    public func delay() -> Int {
        guard let format else { return 0 }
        let now = MonotonicClock.now()
        return playedUntil > now ? Int((playedUntil - now) * UInt64(format.sampleRate) / 1_000_000_000) : 0
    }

    public func rewind(_ frames: Int) -> Int { 0 }
    public func dropAndPrepare() { playedUntil = 0 }
    public func drain() { MonotonicClock.sleep(until: playedUntil); playedUntil = 0 }
    public func close() { format = nil }
}
