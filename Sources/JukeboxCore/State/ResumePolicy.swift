/// Whether a box coming back (a restart, a power cut) plays on by itself: `[playback] resume`.
public enum ResumePolicy: String, Sendable, CaseIterable {
    /// Play on if it was playing (or stopped: autoplay then starts it); a paused box comes back paused.
    case playing
    /// Play on even if it was paused.
    case always
    /// Come back paused at the saved place; play continues from there.
    case never

    /// Whether to play at start, given the saved play state and `autoplay`.
    public func plays(saved: PlayerState, autoplay: Bool) -> Bool {
        guard autoplay else { return false }
        switch self {
        case .playing: return saved != .paused
        case .always: return true
        case .never: return false
        }
    }
}
