/// An output that feeds a Snapcast stream, so every room plays the box's music in step:
/// the music goes to snapserver's pipe (or TCP source) in the stream's one format, and
/// snapserver sends it on to the rooms' snapclients. It sits in the route like a sound
/// card: snapserver not running is a device absent, snapserver stopping a device lost,
/// and it coming back a device found again.
///
/// snapserver reads by its own clock, so the pipe paces the box like a card's buffer.
/// The output keeps `[audio] buffer_ms` queued and no more, and a pause or seek takes
/// back what snapserver has not read yet: what the rooms still hear after a pause is
/// snapserver's own buffer (`latency_ms`), which nothing can take back.
public final class SnapcastOutput: AudioOutput {
    public struct Settings: Sendable, Equatable {
        /// The stream's format: snapserver's `sampleformat` for this source.
        public var format = SnapcastFormat()
        /// snapserver's `buffer`: how long after leaving the box the rooms play a sample.
        /// The position the box shows runs this much behind what it wrote.
        public var latencyMilliseconds = 1000
        /// TPDF dither where bits are lost (resampled audio, deeper sources).
        public var dither = true

        public init() {}
    }

    public let name: String
    public let target: SnapcastTarget
    private let settings: Settings
    private let bufferMilliseconds: Int
    private let periodMilliseconds: Int
    private let link: SnapcastLink
    private var converter: StreamConverter?
    private var converted: [UInt8] = []
    public private(set) var negotiated = "not configured"
    public private(set) var periodFrames = 0
    public private(set) var bufferFrames = 0

    /// A write that makes no progress this long means snapserver stopped reading.
    static let stallMilliseconds = 2000

    public init(_ target: SnapcastTarget, settings: Settings, bufferMilliseconds: Int = 200, periodMilliseconds: Int = 10) {
        self.target = target
        name = target.description
        self.settings = settings
        self.bufferMilliseconds = bufferMilliseconds
        self.periodMilliseconds = periodMilliseconds
        link = switch target {
        case .pipe(let path): SnapcastPipe(path: path)
        case .tcp(let host, let port): SnapcastSocket(host: host, port: port)
        }
    }

    /// Whether snapserver is there (a look on the audio thread; it never waits).
    public func isPresent() -> Bool { link.isPresent() }

    private var stream: SnapcastFormat { settings.format }

    public func configure(_ format: OutputFormat) throws(OutputError) {
        let bufferBytes = stream.sampleRate * bufferMilliseconds / 1000 * stream.bytesPerFrame
        try link.open(bufferBytes: bufferBytes)
        guard converter?.input != format else { return }
        let made = try StreamConverter(from: format, to: stream, dither: settings.dither)
        converter = made
        periodFrames = format.frames(milliseconds: periodMilliseconds)
        bufferFrames = format.frames(milliseconds: bufferMilliseconds)
        negotiated = "Snapcast stream \(stream) via \(name): \(format) \(made.summary)"
    }

    /// Input frames (the music's rate) standing for `streamFrames` of the stream's.
    private func inputFrames(_ streamFrames: Int) -> Int {
        guard let converter else { return 0 }
        return streamFrames * converter.input.sampleRate / stream.sampleRate
    }

    /// The music's frames written that snapserver has not read yet.
    private func queuedFrames() -> Int {
        inputFrames(link.unread() / stream.bytesPerFrame + (converter?.heldFrames ?? 0))
    }

    public func writableFrames() -> Int { max(periodFrames, bufferFrames - queuedFrames()) }

    public func nanosecondsUntilWritable(_ frames: Int) -> UInt64 {
        guard let converter else { return 0 }
        let missing = frames - (bufferFrames - queuedFrames())
        return missing <= 0 ? 0 : UInt64(missing) * 1_000_000_000 / UInt64(converter.input.sampleRate)
    }

    public func write(_ frames: UnsafeRawBufferPointer) throws(OutputError) {
        guard let converter else { return }
        if converter.isPassthrough {
            try send(frames)
            return
        }
        converted.removeAll(keepingCapacity: true)
        converter.convert(frames, into: &converted)
        try sendConverted()
    }

    private func sendConverted() throws(OutputError) {
        var failure: OutputError?
        converted.withUnsafeBytes { bytes in
            do throws(OutputError) { try send(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes all of `bytes`, waiting for room a period at a time.
    private func send(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        var offset = 0
        var waited = 0
        while offset < bytes.count {
            let written = try link.writeSome(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            offset += written
            if written > 0 {
                waited = 0
                continue
            }
            let wait = max(periodMilliseconds, 5)
            if try !link.waitForRoom(milliseconds: wait) {
                waited += wait
                if waited >= Self.stallMilliseconds { throw .disconnected(device: name) }
            }
        }
    }

    public func delay() -> Int { queuedFrames() }

    public var latencyFrames: Int { inputFrames(stream.sampleRate * settings.latencyMilliseconds / 1000) }

    public func rewind(_ frames: Int) -> Int {
        guard let converter else { return 0 }
        let streamFrames = frames * stream.sampleRate / converter.input.sampleRate
        let taken = link.takeBack(streamFrames * stream.bytesPerFrame, frameBytes: stream.bytesPerFrame) / stream.bytesPerFrame
        guard taken > 0 || converter.heldFrames > 0 else { return 0 }
        let held = converter.heldFrames
        converter.reset()
        return min(frames, inputFrames(taken + held))
    }

    public func dropAndPrepare() {
        _ = link.takeBack(Int.max / 2, frameBytes: stream.bytesPerFrame)
        converter?.reset()
    }

    /// Sends what the resampler still holds. It does not wait for snapserver to read the
    /// pipe: that goes on by snapserver's clock whatever the box does, and a new format
    /// (a 44.1 kHz track after a 48 kHz one) joins the same stream without a gap.
    public func drain() {
        guard let converter, !converter.isPassthrough else { return }
        converted.removeAll(keepingCapacity: true)
        converter.flush(into: &converted)
        try? sendConverted()
    }

    public func close() {
        link.close()
        converter = nil
        negotiated = "not configured"
    }
}
