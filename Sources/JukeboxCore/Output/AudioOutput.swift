/// The PCM layout an output is set up for.
public struct OutputFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int
    public var sampleFormat: SampleFormat

    public init(sampleRate: Int, channels: Int, sampleFormat: SampleFormat) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
    }

    public init(_ info: StreamInfo) {
        self.init(sampleRate: info.sampleRate, channels: info.channels, sampleFormat: info.sampleFormat)
    }

    public var bytesPerFrame: Int { channels * sampleFormat.bytesPerSample }
    public func frames(milliseconds: Int) -> Int { sampleRate * milliseconds / 1000 }
    public var description: String { "\(sampleRate) Hz, \(channels) ch, \(sampleFormat.bitsPerSample)-bit" }
}

/// Where the audio thread sends PCM: an ALSA PCM, or a null sink paced in real time.
/// Only the audio thread calls it. The tests drive the player through this seam.
public protocol AudioOutput: AnyObject {
    var name: String { get }
    /// The format actually configured, and how it got there (for the log).
    var negotiated: String { get }
    /// Frames one period holds: the unit the audio thread writes in.
    var periodFrames: Int { get }

    /// Sets the device up for `format`, reopening it if it was set up for another.
    func configure(_ format: OutputFormat) throws(OutputError)
    /// Frames the device can take now without blocking (at least one period is always
    /// allowed: writing it blocks for at most one period).
    func writableFrames() -> Int
    /// Frames the device's buffer holds.
    var bufferFrames: Int { get }
    /// How long until `frames` of room are free (0: now). The audio thread waits this long
    /// where a command can wake it, so a command does not wait behind a blocked write.
    func nanosecondsUntilWritable(_ frames: Int) -> UInt64
    /// Writes whole frames, blocking until the device has room; recovers underruns.
    func write(_ frames: UnsafeRawBufferPointer) throws(OutputError)
    /// The device went away while open (its card was unplugged).
    var isDisconnected: Bool { get }
    /// The device's own volume control, if volume is applied there (nil: in software).
    var mixer: Mixer? { get }
    /// Underruns recovered since the output was made: each one is a dropout the listener heard.
    var underruns: Int { get }
    /// Frames written but not yet heard, which the device still holds.
    func delay() -> Int
    /// Frames the listener is behind the device beyond `delay`, which nothing can take
    /// back: a network player's own buffer (Snapcast's). A pause still sounds for this
    /// long, and the position shown runs this far behind what was written.
    var latencyFrames: Int { get }
    /// On a device that went away while playing: the frames written that it had not
    /// played, from the last position its driver reported (nil: not known).
    func delayWhenLost() -> Int?
    /// Takes back up to `frames` written but unplayed frames; returns how many it took.
    func rewind(_ frames: Int) -> Int
    /// Discards what is queued at once and readies the device for more.
    func dropAndPrepare()
    /// Plays out what is queued.
    func drain()
    func close()
}

extension AudioOutput {
    /// Outputs that pace themselves (the null sink, files) never run dry.
    public var underruns: Int { 0 }
    public var isDisconnected: Bool { false }
    public var bufferFrames: Int { periodFrames * 2 }
    public var mixer: Mixer? { nil }
    public var latencyFrames: Int { 0 }
    public func delayWhenLost() -> Int? { nil }
}

