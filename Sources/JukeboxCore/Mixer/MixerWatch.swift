import CAlsa

#if canImport(Glibc)
import Glibc
#endif

/// A card's volume control, named so another thread can open it too.
public struct MixerAddress: Sendable, Equatable, CustomStringConvertible {
    public var device: String
    public var control: String
    public var index: Int

    public var description: String { "'\(control)' on \(device)" }
}

/// A second handle on a card's controls, for the hotplug thread's poll: the kernel makes
/// its descriptors readable when any control changes (alsamixer, another program, the
/// jukebox itself), so a change made elsewhere is seen at once rather than by polling.
/// It only rings: the audio thread, which owns the control and knows what it last set,
/// tells an outside change from its own. Each alsa-lib handle stays on one thread.
final class MixerWatch {
    let address: MixerAddress
    private var handle: OpaquePointer?

    init(_ address: MixerAddress) throws(OutputError) {
        self.address = address
        handle = try ALSAMixer.openHandle(address.device)
    }

    deinit { if let handle { snd_mixer_close(handle) } }

    /// What to poll for.
    var descriptors: [pollfd] {
        guard let handle else { return [] }
        let count = snd_mixer_poll_descriptors_count(handle)
        guard count > 0 else { return [] }
        var fds = [pollfd](repeating: pollfd(), count: Int(count))
        let filled = snd_mixer_poll_descriptors(handle, &fds, UInt32(count))
        return Array(fds.prefix(Int(max(0, filled))))
    }

    /// After a poll that marked some of `descriptors`: reads the card's events. False
    /// once the card is gone (the caller then closes this, so the kernel can free it).
    func readEvents(_ polled: [pollfd]) -> Bool {
        guard let handle else { return false }
        var fds = polled
        var revents: UInt16 = 0
        guard snd_mixer_poll_descriptors_revents(handle, &fds, UInt32(fds.count), &revents) >= 0 else { return false }
        if Int32(revents) & (POLLERR | POLLHUP | POLLNVAL) != 0 { return false }
        return snd_mixer_handle_events(handle) >= 0
    }
}
