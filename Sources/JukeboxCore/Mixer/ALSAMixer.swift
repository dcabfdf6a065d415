import CAlsa

/// One playback volume control of a sound card, through alsa-lib's simple mixer API.
/// Volume goes through `VolumeMapping`; 0 also mutes where the control has a switch.
/// What it applies is recorded in its `MixerLevel`, which its watch (`ALSAMixerWatch`, a
/// second handle on the watcher's thread) compares with what the kernel announces, so a
/// change made elsewhere (alsamixer) is told apart from our own and our own rounding.
final class ALSAMixer: Mixer {
    /// Controls `auto` prefers, in order; after these, the first playback volume control
    /// with a dB scale (a real attenuator: the loopback card's "PCM Rate Shift" is not).
    static let preference = ["Digital", "PCM", "Master", "Speaker", "Headphone"]

    let device: String
    let control: String
    let index: Int
    private var handle: OpaquePointer?
    private var element: OpaquePointer?
    private var decibelRange: (min: Double, max: Double)?
    private var rawRange: (min: Int, max: Int) = (0, 0)
    private var hasSwitch = false
    /// What the control held after our last apply, shared with its watch.
    private let applied = MixerLevel()

    /// Opens `device`'s control named `choice` (nil: the preferred one); throws a reason.
    init(device: String, choice: String?, index: Int) throws(OutputError) {
        self.device = device
        let h = try Self.openHandle(device)
        handle = h
        do throws(OutputError) {
            let candidates = Self.playbackVolumeControls(h)
            let chosen: (name: String, index: Int, element: OpaquePointer)?
            if let choice {
                chosen = candidates.first { $0.name == choice && $0.index == index }
                guard chosen != nil else {
                    let names = candidates.map { "'\($0.name)'" }.joined(separator: ", ")
                    throw OutputError.failed(device: device, what: "no playback volume control '\(choice)' (index \(index)); it has \(names.isEmpty ? "none" : names)", code: Errno(ENOENT))
                }
            } else {
                chosen = Self.preference.lazy.compactMap { name in candidates.first { $0.name == name } }.first
                    ?? candidates.first { Self.hasDecibels($0.element) }
                guard chosen != nil else {
                    throw OutputError.failed(device: device, what: "no playback volume control", code: Errno(ENOENT))
                }
            }
            control = chosen!.name
            self.index = chosen!.index
            element = chosen!.element
        } catch {
            snd_mixer_close(h)
            handle = nil
            throw error
        }
        var minDB = 0, maxDB = 0, minRaw = 0, maxRaw = 0
        if snd_mixer_selem_get_playback_dB_range(element, &minDB, &maxDB) == 0, maxDB > minDB {
            // alsa-lib reports hundredths of a dB; a muting minimum is taken as the first step.
            decibelRange = (Double(max(minDB, -9999)) / 100, Double(maxDB) / 100)
        }
        snd_mixer_selem_get_playback_volume_range(element, &minRaw, &maxRaw)
        rawRange = (minRaw, maxRaw)
        hasSwitch = snd_mixer_selem_has_playback_switch(element) != 0
    }

    deinit { close() }

    func watch(reportingTo listener: MixerListener) -> MixerWatchRequest? {
        let device = device, control = control, index = index, level = applied
        return MixerWatchRequest("'\(control)' on \(device)") { () throws(OutputError) -> MixerWatch in
            try ALSAMixerWatch(device: device, control: control, index: index, level: level, listener: listener)
        }
    }

    var description: String {
        let range = decibelRange.map { "\(decibelText($0.min, places: 1)) to \(decibelText($0.max, places: 1)) dB" } ?? "\(rawRange.max - rawRange.min + 1) steps, no dB"
        return "'\(control)' on \(device), \(range)"
    }

    /// The dB the control is at now (nil without dB data).
    var currentDecibels: Double? {
        guard let element, decibelRange != nil else { return nil }
        var value = 0
        guard snd_mixer_selem_get_playback_dB(element, SND_MIXER_SCHN_FRONT_LEFT, &value) == 0 else { return nil }
        return Double(value) / 100
    }

    func apply(_ volume: Int) {
        guard let element else { return }
        let raw: Int
        if let range = decibelRange {
            let target = VolumeMapping.decibels(for: volume, min: range.min, max: range.max)
            raw = nearestRaw(toDecibels: target)
        } else {
            raw = VolumeMapping.raw(for: volume, min: rawRange.min, max: rawRange.max)
        }
        let on = volume > 0 || !hasSwitch
        applied.record {
            // alsa-lib skips a write of the value it last knew: it learns first of what
            // was set elsewhere since (its watch reads those on a handle of its own).
            if let handle { snd_mixer_handle_events(handle) }
            snd_mixer_selem_set_playback_volume_all(element, raw)
            if hasSwitch { snd_mixer_selem_set_playback_switch_all(element, on ? 1 : 0) }
            return MixerLevel.Value(raw: raw, on: on)
        }
    }

    /// The raw step whose dB is nearest `decibels`.
    private func nearestRaw(toDecibels decibels: Double) -> Int {
        let centi = Int((decibels * 100).rounded())
        var below = 0, above = 0
        guard snd_mixer_selem_ask_playback_dB_vol(element, centi, -1, &below) == 0,
              snd_mixer_selem_ask_playback_dB_vol(element, centi, 1, &above) == 0 else { return rawRange.max }
        var belowDB = 0, aboveDB = 0
        snd_mixer_selem_ask_playback_vol_dB(element, below, &belowDB)
        snd_mixer_selem_ask_playback_vol_dB(element, above, &aboveDB)
        return abs(aboveDB - centi) < abs(centi - belowDB) ? above : below
    }

    // MARK: Watching (on the watcher's thread, through a handle of its own)

    /// What to poll for: readable when any of the card's controls changes.
    var pollDescriptors: [pollfd] {
        guard let handle else { return [] }
        let count = snd_mixer_poll_descriptors_count(handle)
        guard count > 0 else { return [] }
        var fds = [pollfd](repeating: pollfd(), count: Int(count))
        let filled = snd_mixer_poll_descriptors(handle, &fds, UInt32(count))
        return Array(fds.prefix(Int(max(0, filled))))
    }

    /// False when the poll says the card is gone.
    func eventsAreReadable(_ polled: [pollfd]) -> Bool {
        guard let handle else { return false }
        var fds = polled
        var revents: UInt16 = 0
        guard snd_mixer_poll_descriptors_revents(handle, &fds, UInt32(fds.count), &revents) >= 0 else { return false }
        return Int32(revents) & (POLLERR | POLLHUP | POLLNVAL) == 0
    }

    /// Reads the card's events, so `level` is what the control holds now; false once the
    /// card is gone.
    func handleEvents() -> Bool {
        guard let handle else { return false }
        return snd_mixer_handle_events(handle) >= 0
    }

    /// What the control holds (as of the last events read).
    var level: MixerLevel.Value? {
        guard let element else { return nil }
        var raw = 0
        var on: Int32 = 1
        guard snd_mixer_selem_get_playback_volume(element, SND_MIXER_SCHN_FRONT_LEFT, &raw) == 0 else { return nil }
        if hasSwitch { snd_mixer_selem_get_playback_switch(element, SND_MIXER_SCHN_FRONT_LEFT, &on) }
        return MixerLevel.Value(raw: raw, on: on != 0)
    }

    /// The volume `level` stands for (the control holds it now).
    func volume(of level: MixerLevel.Value) -> Int {
        if !level.on { return 0 }
        if let range = decibelRange, let db = currentDecibels { return VolumeMapping.volume(forDecibels: db, min: range.min, max: range.max) }
        return VolumeMapping.volume(forRaw: level.raw, min: rawRange.min, max: rawRange.max)
    }

    func close() {
        if let handle { snd_mixer_close(handle) }
        handle = nil
        element = nil
    }

    /// A simple-mixer handle on `device`'s controls, loaded (which also subscribes it to
    /// the card's change events). The caller closes it.
    static func openHandle(_ device: String) throws(OutputError) -> OpaquePointer? {
        var h: OpaquePointer?
        try ALSAStatus.check(snd_mixer_open(&h, 0), device, "cannot open the mixer")
        do throws(OutputError) {
            try ALSAStatus.check(snd_mixer_attach(h, device), device, "cannot attach the mixer")
            try ALSAStatus.check(snd_mixer_selem_register(h, nil, nil), device, "cannot register the simple mixer")
            try ALSAStatus.check(snd_mixer_load(h), device, "cannot load the mixer")
        } catch {
            snd_mixer_close(h)
            throw error
        }
        return h
    }

    static func hasDecibels(_ element: OpaquePointer) -> Bool {
        var minDB = 0, maxDB = 0
        return snd_mixer_selem_get_playback_dB_range(element, &minDB, &maxDB) == 0 && maxDB > minDB
    }

    /// The card's simple controls that have a playback volume, in the card's order.
    static func playbackVolumeControls(_ handle: OpaquePointer?) -> [(name: String, index: Int, element: OpaquePointer)] {
        var found: [(String, Int, OpaquePointer)] = []
        var element = snd_mixer_first_elem(handle)
        while let e = element {
            if snd_mixer_selem_is_active(e) != 0, snd_mixer_selem_has_playback_volume(e) != 0 {
                found.append((String(cString: snd_mixer_selem_get_name(e)), Int(snd_mixer_selem_get_index(e)), e))
            }
            element = snd_mixer_elem_next(e)
        }
        return found
    }

    /// The control device of a PCM's card: "hw:CARD=DAC,DEV=0" → "hw:CARD=DAC",
    /// "plughw:1,0" → "hw:1"; other names ("default") are used as they are.
    static func controlDevice(forPCM pcm: String) -> String {
        var name = pcm
        if name.hasPrefix("plughw:") { name.removeFirst(4) }
        guard name.hasPrefix("hw:") else { return name }
        let card = name.dropFirst(3).split(separator: ",", maxSplits: 1).first ?? ""
        return "hw:" + card
    }
}

#if canImport(Glibc)
import Glibc
#endif
