/// Where the volume is applied: software gain on the samples, a sound card's own volume
/// control, or nowhere. The audio thread owns it and applies the volume the player asks
/// for; an output owns its hardware mixer and closes it with its device.
public protocol Mixer: AnyObject {
    /// For the log and the status: "software", or the control and its range.
    var description: String { get }
    /// Applies `volume` (0–100).
    func apply(_ volume: Int)
    /// The kernel watch on this control, for a `MixerWatcher` to open and poll: it tells
    /// `listener` of changes made elsewhere, never of this mixer's own. Nil for a mixer
    /// no one else can move.
    func watch(reportingTo listener: MixerListener) -> MixerWatchRequest?
}

extension Mixer {
    public func watch(reportingTo listener: MixerListener) -> MixerWatchRequest? { nil }
}

/// Volume as gain on the samples (the gain stage ramps it, so there is no click).
final class SoftwareMixer: Mixer {
    private let gain: GainStage
    init(_ gain: GainStage) { self.gain = gain }
    var description: String { "software" }
    func apply(_ volume: Int) { gain.setVolume(volume) }
}

/// No volume control at all: the audio goes out at full scale (an amplifier with its own
/// knob after a line-level DAC).
final class FixedVolume: Mixer {
    var description: String { "none (volume fixed at 100)" }
    func apply(_ volume: Int) {}
}

/// Which mixer an ALSA output uses (`[audio] mixer`).
public enum MixerChoice: Sendable, Equatable {
    /// The card's playback volume control a person would pick, else software.
    case auto
    case software
    case none
    /// This simple-mixer control (as `amixer scontrols` names it).
    case control(String)

    public init(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "software": self = .software
        case "none": self = .none
        default: self = .control(text)
        }
    }
}
