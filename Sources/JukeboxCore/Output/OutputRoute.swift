/// The outputs a box may play to, in the order the admin prefers them, and the one open
/// now. It is the output the audio thread writes to: `configure` opens the first device
/// present, and everything else goes to the open one. The audio thread asks it whether a
/// better device has appeared and lets go of a device that went away; which device to
/// open is decided only here, and when to look and what a loss means in `DevicePolicy`.
public final class OutputRoute: AudioOutput {
    public struct Candidate {
        public let output: AudioOutput
        /// Whether the device is there now, without taking it (called on the audio thread).
        public let isPresent: () -> Bool

        public init(_ output: AudioOutput, isPresent: @escaping () -> Bool) {
            self.output = output
            self.isPresent = isPresent
        }
    }

    public let candidates: [Candidate]
    /// The candidate open now (configured), if any.
    public private(set) var activeIndex: Int?

    public init(_ candidates: [Candidate]) {
        precondition(!candidates.isEmpty, "a route needs at least one output")
        self.candidates = candidates
    }

    /// A route of one output that is always there (a null sink, a file, a test output).
    public convenience init(fixed output: AudioOutput) {
        self.init([Candidate(output, isPresent: { true })])
    }

    /// The configured devices in order of preference: ALSA devices, each present when it
    /// can be opened, and Snapcast streams (`snapcast:...`), present while snapserver takes
    /// them. The devices' names are checked when the config is read.
    public static func devices(_ devices: [String], settings: ALSAOutput.Settings,
                               snapcast: SnapcastOutput.Settings = .init()) -> OutputRoute {
        OutputRoute(devices.map { device in
            if let target = try? SnapcastTarget(device: device) {
                var snapcast = snapcast
                snapcast.fixedVolume = settings.mixer == .none
                let output = SnapcastOutput(target, settings: snapcast, bufferMilliseconds: settings.bufferMilliseconds,
                                            periodMilliseconds: settings.periodMilliseconds)
                return Candidate(output, isPresent: { output.isPresent() })
            }
            var one = settings
            one.device = device
            return Candidate(ALSAOutput(one), isPresent: { ALSAOutput.canOpen(device) })
        })
    }

    private var active: AudioOutput { candidates[activeIndex ?? 0].output }
    public var deviceNames: [String] { candidates.map(\.output.name) }
    public var name: String { active.name }
    public var negotiated: String { active.negotiated }
    public var periodFrames: Int { active.periodFrames }
    public var underruns: Int { candidates.reduce(0) { $0 + $1.output.underruns } }
    public var latencyFrames: Int { activeIndex == nil ? 0 : active.latencyFrames }
    public var mixer: Mixer? { activeIndex.flatMap { candidates[$0].output.mixer } }
    /// Why volume is in software on the open device though a control was wanted.
    var mixerNote: String? { activeIndex.flatMap { (candidates[$0].output as? ALSAOutput)?.mixerNote } }
    public var isDisconnected: Bool { activeIndex.map { candidates[$0].output.isDisconnected } ?? false }

    /// The devices present now, in order of preference.
    public func presentIndices() -> [Int] { candidates.indices.filter { candidates[$0].isPresent() } }

    /// The first device present, or nil when none is.
    public func firstPresent() -> Int? { candidates.indices.first { candidates[$0].isPresent() } }

    /// A present device the admin prefers to the open one.
    public func betterThanActive() -> Int? {
        guard let activeIndex, activeIndex > 0 else { return nil }
        return candidates.indices.prefix(activeIndex).first { candidates[$0].isPresent() }
    }

    /// Opens the first device present for `format` (or sets the open one up again). With
    /// none present it throws the first choice's reason (absent, busy).
    public func configure(_ format: OutputFormat) throws(OutputError) {
        if let activeIndex {
            try candidates[activeIndex].output.configure(format)
            return
        }
        // One device: opening it is the look, and looking first would open it twice (each
        // open of an ALSA device reads its configuration again).
        if candidates.count == 1 {
            try candidates[0].output.configure(format)
            activeIndex = 0
            return
        }
        var lastError: OutputError?
        for index in candidates.indices where candidates[index].isPresent() {
            do {
                try candidates[index].output.configure(format)
                activeIndex = index
                return
            } catch where error.isTransient {
                lastError = error  // gone or taken between the look and the open: try the next
            }
        }
        if let lastError { throw lastError }
        // None looked present: opening the first choice says why (absent, or busy with
        // another program), or finds it after all.
        try candidates[0].output.configure(format)
        activeIndex = 0
    }

    /// Closes the open device, so the next `configure` chooses again.
    public func release() {
        if let activeIndex { candidates[activeIndex].output.close() }
        activeIndex = nil
    }

    public func writableFrames() -> Int { active.writableFrames() }
    public var bufferFrames: Int { active.bufferFrames }
    public func nanosecondsUntilWritable(_ frames: Int) -> UInt64 { activeIndex == nil ? 0 : active.nanosecondsUntilWritable(frames) }
    public func write(_ frames: UnsafeRawBufferPointer) throws(OutputError) { try active.write(frames) }
    public func delay() -> Int { activeIndex == nil ? 0 : active.delay() }
    public func delayWhenLost() -> Int? { activeIndex == nil ? nil : active.delayWhenLost() }
    public func rewind(_ frames: Int) -> Int { activeIndex == nil ? 0 : active.rewind(frames) }
    public func dropAndPrepare() { if activeIndex != nil { active.dropAndPrepare() } }
    public func drain() { if activeIndex != nil { active.drain() } }
    public func close() { release() }
}
