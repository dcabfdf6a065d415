/// How the queue continues when a track ends.
public enum PlayMode: String, CaseIterable, Sendable, Codable {
    /// The queue in order, then stop.
    case once
    /// The queue in order, wrapping around.
    case repeatAll = "repeat-all"
    /// The same track again at its natural end; next and previous still move.
    case repeatOne = "repeat-one"
    /// A random order in which every track plays once per cycle.
    case shuffle

    /// The mode the "mode" button moves to.
    public var cycled: PlayMode {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
