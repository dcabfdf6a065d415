import CAlsa
import CJukeboxShim
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// An ALSA PCM for playback.
///
/// Format negotiation asks the device for the stream's own format with alsa-lib's
/// resampling off. If the device refuses and conversion is allowed, it reopens through
/// the `plug` layer (`hw:X` becomes `plughw:X`, anything else `plug:NAME`), which converts
/// only what the hardware cannot take.
///
/// Recovery: an underrun (-EPIPE) prepares and carries on; a suspend (-ESTRPIPE) resumes,
/// else prepares. Anything else is thrown, typed, to the audio thread: a device that went
/// away (-ENODEV, -EBADFD) as `disconnected`, which the route waits out.
public final class ALSAOutput: AudioOutput {
    public struct Settings: Sendable, Equatable {
        public var device: String
        /// Allow the `plug` layer when the device cannot take the stream's format.
        public var allowConversion: Bool
        public var bufferMilliseconds: Int
        public var periodMilliseconds: Int
        /// Where volume is applied: the card's control (auto or named), software, none.
        public var mixer = MixerChoice.auto
        /// The mixer's device when it is not the PCM's card ("hw:CARD=DAC").
        public var mixerDevice: String?
        public var mixerIndex = 0

        public init(device: String = "default", allowConversion: Bool = true,
                    bufferMilliseconds: Int = 200, periodMilliseconds: Int = 10) {
            self.device = device
            self.allowConversion = allowConversion
            self.bufferMilliseconds = bufferMilliseconds
            self.periodMilliseconds = periodMilliseconds
        }
    }

    public let settings: Settings
    public var name: String { settings.device }
    public private(set) var negotiated = "not configured"
    public private(set) var periodFrames = 0
    public private(set) var bufferFrames = 0
    public private(set) var underruns = 0
    /// The card's volume control, when the settings choose one and it could be opened.
    private var hardwareMixer: Mixer?
    /// Why volume is in software though a control was wanted (for the log).
    public private(set) var mixerNote: String?
    private var pcm: OpaquePointer?
    private var format: OutputFormat?
    private var bytesPerFrame = 0
    /// At the last delay query, how much of the delay lay beyond the buffer's read
    /// position: audio the driver had passed on but the device had not yet played (a USB
    /// driver's packets in flight).
    private var beyondBuffer = 0

    public init(_ settings: Settings) {
        self.settings = settings
        Self.silenceLibraryMessages()
    }

    /// alsa-lib's own stderr messages duplicate the errors reported here; drop them once.
    private static let silenced: Bool = { jukebox_alsa_silence_errors(); return true }()
    static func silenceLibraryMessages() { _ = silenced }

    /// Parses ALSA's configuration (alsa.conf and the cards' files) on a thread of its own,
    /// so that the first open of a device finds it done: the box starts this before reading
    /// its own config. An open made meanwhile waits for it inside alsa-lib, which locks
    /// the shared configuration.
    public static func readConfigurationAhead() {
        DispatchQueue(label: "jukebox.alsa.configuration").async {
            silenceLibraryMessages()
            _ = snd_config_update()
        }
    }

    deinit { close() }

    public func configure(_ format: OutputFormat) throws(OutputError) {
        if pcm != nil, self.format == format { return }
        close()
        do {
            try open(settings.device, format, exact: true)
        } catch .formatNotSupported(_, _, let offered) where settings.allowConversion {
            let plugName = settings.device.hasPrefix("hw:") ? "plug" + settings.device : "plug:" + settings.device
            try open(plugName, format, exact: false)
            negotiated += " (converted by \(plugName): the device offers \(offered))"
        }
        self.format = format
        bytesPerFrame = format.bytesPerFrame
        openMixer()
    }

    public var mixer: Mixer? { hardwareMixer }

    private func openMixer() {
        hardwareMixer = nil
        mixerNote = nil
        let device = settings.mixerDevice ?? ALSAMixer.controlDevice(forPCM: settings.device)
        switch settings.mixer {
        case .software: return
        case .none: hardwareMixer = FixedVolume()
        case .auto:
            do {
                hardwareMixer = try ALSAMixer(device: device, choice: nil, index: 0)
            } catch {
                mixerNote = "\(device) has no playback volume control, so volume is in software"
            }
        case .control(let name):
            do {
                hardwareMixer = try ALSAMixer(device: device, choice: name, index: settings.mixerIndex)
            } catch {
                mixerNote = "\(error); volume is in software"
            }
        }
    }

    private func open(_ device: String, _ format: OutputFormat, exact: Bool) throws(OutputError) {
        var handle: OpaquePointer?
        let status = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0)
        if status < 0 {
            // Not there at all (no such card), whatever code says it.
            if case .disconnected = ALSAStatus.error(status, device, "") { throw .absent(device: settings.device) }
            try ALSAStatus.check(status, settings.device, "cannot open \(device)")
        }
        pcm = handle
        do {
            try setHardwareParameters(device, format, exact: exact)
            try setSoftwareParameters(device)
        } catch {
            close()
            throw error
        }
    }

    private func setHardwareParameters(_ device: String, _ format: OutputFormat, exact: Bool) throws(OutputError) {
        var params: OpaquePointer?
        try ALSAStatus.check(snd_pcm_hw_params_malloc(&params), device, "no memory for parameters")
        defer { snd_pcm_hw_params_free(params) }
        try ALSAStatus.check(snd_pcm_hw_params_any(pcm, params), device, "no configurations")
        if exact { try ALSAStatus.check(snd_pcm_hw_params_set_rate_resample(pcm, params, 0), device, "cannot disable resampling") }
        try ALSAStatus.check(snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED), device,
                             "interleaved access refused")
        let offered = Self.describe(pcm, params)
        func refused(_ status: Int32) throws(OutputError) {
            guard status < 0 else { return }
            if status == -EINVAL { throw .formatNotSupported(device: device, format: "\(format)", offered: offered) }
            try ALSAStatus.check(status, device, "cannot set \(format)")
        }
        try refused(snd_pcm_hw_params_set_format(pcm, params, Self.alsaFormat(format.sampleFormat)))
        try refused(snd_pcm_hw_params_set_channels(pcm, params, UInt32(format.channels)))
        try refused(snd_pcm_hw_params_set_rate(pcm, params, UInt32(format.sampleRate), 0))
        var bufferTime = UInt32(settings.bufferMilliseconds * 1000)
        var periodTime = UInt32(settings.periodMilliseconds * 1000)
        var dir: Int32 = 0
        try ALSAStatus.check(snd_pcm_hw_params_set_buffer_time_near(pcm, params, &bufferTime, &dir), device, "buffer size refused")
        try ALSAStatus.check(snd_pcm_hw_params_set_period_time_near(pcm, params, &periodTime, &dir), device, "period size refused")
        try ALSAStatus.check(snd_pcm_hw_params(pcm, params), device, "cannot apply \(format)")
        var period: snd_pcm_uframes_t = 0
        var buffer: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_period_size(params, &period, &dir)
        snd_pcm_hw_params_get_buffer_size(params, &buffer)
        periodFrames = max(1, Int(period))
        bufferFrames = max(periodFrames * 2, Int(buffer))
        beyondBuffer = 0
        negotiated = "\(device): \(format), period \(period) frames, buffer \(buffer) frames"
    }

    /// What a device takes, for the error that names it: "16-bit, 2 ch, 48000 Hz".
    private static func describe(_ pcm: OpaquePointer?, _ params: OpaquePointer?) -> String {
        let formats: [(SampleFormat, snd_pcm_format_t)] = [(.s16, SND_PCM_FORMAT_S16_LE), (.s24, SND_PCM_FORMAT_S24_3LE), (.s32, SND_PCM_FORMAT_S32_LE)]
        let bits = formats.filter { snd_pcm_hw_params_test_format(pcm, params, $0.1) == 0 }.map { "\($0.0.bitsPerSample)" }
        var minChannels: UInt32 = 0, maxChannels: UInt32 = 0, minRate: UInt32 = 0, maxRate: UInt32 = 0
        var dir: Int32 = 0
        snd_pcm_hw_params_get_channels_min(params, &minChannels)
        snd_pcm_hw_params_get_channels_max(params, &maxChannels)
        snd_pcm_hw_params_get_rate_min(params, &minRate, &dir)
        snd_pcm_hw_params_get_rate_max(params, &maxRate, &dir)
        let channels = minChannels == maxChannels ? "\(minChannels)" : "\(minChannels)–\(maxChannels)"
        let rates = minRate == maxRate ? "\(minRate)" : "\(minRate)–\(maxRate)"
        return "\(bits.isEmpty ? "no packed" : bits.joined(separator: "/"))-bit, \(channels) ch, \(rates) Hz"
    }

    private func setSoftwareParameters(_ device: String) throws(OutputError) {
        var params: OpaquePointer?
        try ALSAStatus.check(snd_pcm_sw_params_malloc(&params), device, "no memory for parameters")
        defer { snd_pcm_sw_params_free(params) }
        try ALSAStatus.check(snd_pcm_sw_params_current(pcm, params), device, "cannot read software parameters")
        // Start as soon as one period is queued, so the first sound comes quickly.
        try ALSAStatus.check(snd_pcm_sw_params_set_start_threshold(pcm, params, snd_pcm_uframes_t(periodFrames)), device,
                             "start threshold refused")
        try ALSAStatus.check(snd_pcm_sw_params_set_avail_min(pcm, params, snd_pcm_uframes_t(periodFrames)), device,
                             "avail_min refused")
        try ALSAStatus.check(snd_pcm_sw_params(pcm, params), device, "cannot apply software parameters")
    }

    public func write(_ frames: UnsafeRawBufferPointer) throws(OutputError) {
        guard let pcm else { throw OutputError.failed(device: name, what: "write before configure", code: Errno(EBADFD)) }
        var offset = 0
        let total = frames.count / bytesPerFrame
        var done = 0
        while done < total {
            let n = snd_pcm_writei(pcm, frames.baseAddress! + offset, snd_pcm_uframes_t(total - done))
            if n >= 0 {
                done += Int(n)
                offset = done * bytesPerFrame
                continue
            }
            try recover(Int32(n))
        }
    }

    private func recover(_ code: Int32) throws(OutputError) {
        switch -code {
        case EPIPE:  // underrun
            underruns += 1
            try ALSAStatus.check(snd_pcm_prepare(pcm), name, "cannot recover from an underrun")
        case ESTRPIPE:  // suspended
            var status = snd_pcm_resume(pcm)
            while status == -EAGAIN {
                usleep(10_000)
                status = snd_pcm_resume(pcm)
            }
            if status < 0 { try ALSAStatus.check(snd_pcm_prepare(pcm), name, "cannot recover from a suspend") }
        case EINTR, EAGAIN:
            return
        default:
            throw ALSAStatus.error(code, name, "write failed")
        }
    }

    public var isDisconnected: Bool {
        guard let pcm else { return false }
        return snd_pcm_state(pcm) == SND_PCM_STATE_DISCONNECTED
    }

    public func writableFrames() -> Int {
        guard let pcm else { return periodFrames }
        let available = snd_pcm_avail_update(pcm)
        return available < 0 ? periodFrames : max(periodFrames, Int(available))
    }

    public func nanosecondsUntilWritable(_ frames: Int) -> UInt64 {
        guard let pcm, let format else { return 0 }
        let available = snd_pcm_avail_update(pcm)
        guard available >= 0, Int(available) < frames else { return 0 }
        return UInt64(frames - Int(available)) * 1_000_000_000 / UInt64(format.sampleRate)
    }

    public func delay() -> Int {
        guard let pcm else { return 0 }
        var frames: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &frames) >= 0 else { return 0 }
        // Right after the query the buffer's read position is fresh, and reading it
        // again is cheap (from memory shared with the kernel where the driver maps it).
        let available = snd_pcm_avail_update(pcm)
        if available >= 0 { beyondBuffer = max(0, Int(frames) - (bufferFrames - Int(available))) }
        return max(0, Int(frames))
    }

    /// The kernel keeps the last read position its driver reported after the card has
    /// gone, and `snd_pcm_avail_update` reads it from memory shared with the kernel
    /// without asking the (gone) driver. What lay beyond it at the last look is taken to
    /// have been in flight still, and lost.
    public func delayWhenLost() -> Int? {
        guard let pcm, bufferFrames > 0 else { return nil }
        let available = snd_pcm_avail_update(pcm)
        guard available >= 0, Int(available) <= bufferFrames else { return nil }
        return bufferFrames - Int(available) + beyondBuffer
    }

    public func rewind(_ frames: Int) -> Int {
        guard let pcm, frames > 0 else { return 0 }
        let possible = Int(snd_pcm_rewindable(pcm))
        guard possible > 0 else { return 0 }
        let taken = snd_pcm_rewind(pcm, snd_pcm_uframes_t(min(frames, possible)))
        return taken < 0 ? 0 : Int(taken)
    }

    public func dropAndPrepare() {
        guard let pcm else { return }
        snd_pcm_drop(pcm)
        // Prepare straight away: some drivers (the Raspberry Pi's among them) click if a
        // dropped PCM is left unprepared.
        snd_pcm_prepare(pcm)
    }

    public func drain() {
        guard let pcm else { return }
        snd_pcm_drain(pcm)
        snd_pcm_prepare(pcm)
    }

    public func close() {
        (hardwareMixer as? ALSAMixer)?.close()
        hardwareMixer = nil
        if let pcm { snd_pcm_close(pcm) }
        pcm = nil
        format = nil
    }

    static func alsaFormat(_ format: SampleFormat) -> snd_pcm_format_t {
        switch format {
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s24: SND_PCM_FORMAT_S24_3LE
        case .s32: SND_PCM_FORMAT_S32_LE
        }
    }

    /// Whether the PCM can be opened now (it is closed again at once).
    public static func canOpen(_ device: String) -> Bool {
        silenceLibraryMessages()
        var handle: OpaquePointer?
        guard snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, Int32(SND_PCM_NONBLOCK)) >= 0 else { return false }
        snd_pcm_close(handle)
        return true
    }

    /// Whether the machine has any sound card at all (for the null-sink fallback).
    public static var machineHasSoundCard: Bool {
        var card: Int32 = -1
        return snd_card_next(&card) == 0 && card >= 0
    }
}
