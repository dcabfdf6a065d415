/// Time spent playing, for MPD's `playtime`: counted while the state is `playing`.
struct PlayTime {
    private var playingSince: UInt64?
    private var playedBefore: UInt64 = 0

    mutating func stateChanged(from old: PlayerState, to new: PlayerState, at now: UInt64) {
        if old == .playing, new != .playing, let since = playingSince { playedBefore += now - since }
        if new == .playing, old != .playing { playingSince = now }
        if new != .playing { playingSince = nil }
    }

    func seconds(at now: UInt64) -> Double {
        Double(playedBefore + (playingSince.map { now - $0 } ?? 0)) / 1e9
    }
}
