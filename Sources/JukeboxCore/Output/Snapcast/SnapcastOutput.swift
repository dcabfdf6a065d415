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
        /// `[audio] mixer = "none"`: the stream at full scale, each room's volume set in
        /// Snapcast; otherwise the box's volume is software gain on the stream.
        public var fixedVolume = false

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
    public let mixer: Mixer?
    public private(set) var periodFrames = 0
    public private(set) var bufferFrames = 0

    /// Stream bytes a write could not hand to snapserver within a period: kept here, and
    /// sent first by the next write, so a write never waits longer than a period.
    private var unsent: [UInt8] = []
    /// Since when snapserver has taken nothing though there was audio for it.
    private var stalledSince: UInt64?
    /// Taking nothing this long means snapserver stopped reading (hung): a device lost.
    static let stallNanoseconds: UInt64 = 2_000_000_000

    public init(_ target: SnapcastTarget, settings: Settings, bufferMilliseconds: Int = 200, periodMilliseconds: Int = 10) {
        self.target = target
        name = target.description
        self.settings = settings
        self.bufferMilliseconds = bufferMilliseconds
        self.periodMilliseconds = periodMilliseconds
        mixer = settings.fixedVolume ? FixedVolume() : nil
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
        inputFrames((link.unread() + unsent.count) / stream.bytesPerFrame + (converter?.heldFrames ?? 0))
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

    /// Hands `bytes` to snapserver, after what an earlier write left: what does not fit
    /// within a period is kept for the next write.
    private func send(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        if !unsent.isEmpty {
            unsent.append(contentsOf: bytes)
            var result: Result<Int, OutputError> = .success(0)
            unsent.withUnsafeBytes { all in
                result = Result { () throws(OutputError) in try sendWithinAPeriod(all) }
            }
            unsent.removeFirst(try result.get())
        } else {
            let moved = try sendWithinAPeriod(bytes)
            unsent.append(contentsOf: bytes[moved...])
        }
        let now = MonotonicClock.now()
        if unsent.isEmpty {
            stalledSince = nil
        } else if let since = stalledSince, now - since > Self.stallNanoseconds {
            throw .disconnected(device: name)
        } else if stalledSince == nil {
            stalledSince = now
        }
    }

    /// Writes what fits, waiting a period at most for room; returns the bytes written.
    private func sendWithinAPeriod(_ bytes: UnsafeRawBufferPointer) throws(OutputError) -> Int {
        var offset = try link.writeSome(bytes)
        if offset < bytes.count, try link.waitForRoom(milliseconds: max(periodMilliseconds, 5)) {
            offset += try link.writeSome(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
        return offset
    }

    public func delay() -> Int { queuedFrames() }

    public var latencyFrames: Int { inputFrames(stream.sampleRate * settings.latencyMilliseconds / 1000) }

    public func rewind(_ frames: Int) -> Int {
        guard let converter else { return 0 }
        let streamFrames = frames * stream.sampleRate / converter.input.sampleRate
        // The newest first: what snapserver was not handed yet, then what it has not read.
        let fromUnsent = min(unsent.count / stream.bytesPerFrame, streamFrames)
        unsent.removeLast(fromUnsent * stream.bytesPerFrame)
        let taken = fromUnsent + link.takeBack((streamFrames - fromUnsent) * stream.bytesPerFrame,
                                               frameBytes: stream.bytesPerFrame) / stream.bytesPerFrame
        guard taken > 0 || converter.heldFrames > 0 else { return 0 }
        let held = converter.heldFrames
        converter.reset()
        return min(frames, inputFrames(taken + held))
    }

    public func dropAndPrepare() {
        unsent.removeAll()
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
        unsent.removeAll()
        stalledSince = nil
        link.close()
        converter = nil
        negotiated = "not configured"
    }
}
