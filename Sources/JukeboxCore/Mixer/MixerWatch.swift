import CAlsa

#if canImport(Glibc)
import Glibc
#endif

/// Hears a card's volume control moved by someone else (alsamixer, a knob on the DAC),
/// never the mixer's own changes: MPD's `MixerListener`. Told on the watcher's thread.
public protocol MixerListener: AnyObject, Sendable {
    func mixerChangedOutside(volume: Int)
}

/// Polls mixers' kernel watches on a thread of its own (the hotplug thread).
public protocol MixerWatcher: AnyObject, Sendable {
    /// Watch this (nil: none) from now on, in place of the one watched before; returns at once.
    func watchMixer(_ request: MixerWatchRequest?)
}

/// A mixer's watch, described so the watcher's thread opens it there (an alsa-lib handle
/// stays on the thread that uses it).
public struct MixerWatchRequest: Sendable, CustomStringConvertible {
    /// The control, for the log.
    public let description: String
    let open: @Sendable () throws(OutputError) -> MixerWatch

    public init(_ description: String, open: @escaping @Sendable () throws(OutputError) -> MixerWatch) {
        self.description = description
        self.open = open
    }
}

/// A watch as its watcher's thread sees it: what to poll, and what to do when it rings.
public protocol MixerWatch: AnyObject {
    /// What to poll for.
    var descriptors: [pollfd] { get }
    /// After a poll that marked some of `descriptors`: reads the control's events and tells
    /// the listener of a change made elsewhere. False once the card is gone (the watcher
    /// then lets go of it, so the kernel can free it).
    func readEvents(_ polled: [pollfd]) -> Bool
}

/// What a card's control holds: raw steps and switch. The mixer records it as it applies
/// a volume, and its watch compares what the kernel announces with it, both under this
/// lock, so a change of our own is never taken for one made elsewhere.
final class MixerLevel: Sendable {
    struct Value: Equatable {
        var raw: Int
        var on: Bool
    }

    private let applied = ConditionLocked<Value?>(nil)

    /// Runs `set` (which moves the control and says to what) with the watch held off.
    func record(_ set: () -> Value) {
        applied.withLock { $0.wholeValue = set() }
    }

    /// Runs `read` (which reads the control's events and says what it holds now), and
    /// returns that value when it is not what was applied last; it is then the new
    /// reference. Nil before the mixer's first apply.
    func outsideChange(_ read: () -> Value?) -> Value? {
        applied.withLock { access -> Value? in
            guard let known = access.wholeValue, let now = read(), now != known else { return nil }
            access.wholeValue = now
            return now
        }
    }
}

/// The watch on an ALSA control: a second handle on the card (the kernel makes its
/// descriptors readable when any control changes), on the watcher's thread.
final class ALSAMixerWatch: MixerWatch {
    private let reader: ALSAMixer
    private let level: MixerLevel
    private weak var listener: MixerListener?

    init(device: String, control: String, index: Int, level: MixerLevel, listener: MixerListener) throws(OutputError) {
        reader = try ALSAMixer(device: device, choice: control, index: index)
        self.level = level
        self.listener = listener
    }

    var descriptors: [pollfd] { reader.pollDescriptors }

    func readEvents(_ polled: [pollfd]) -> Bool {
        guard reader.eventsAreReadable(polled) else { return false }
        var gone = false
        let outside = level.outsideChange {
            guard reader.handleEvents() else {
                gone = true
                return nil
            }
            return reader.level
        }
        if let outside { listener?.mixerChangedOutside(volume: reader.volume(of: outside)) }
        return !gone
    }
}
