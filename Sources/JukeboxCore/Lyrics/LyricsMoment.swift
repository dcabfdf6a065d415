/// Where synced lyrics are at one moment of the track: the line being sung, how far its
/// karaoke fill has run, or an instrumental gap and how far it has gone. Pure: the screen
/// asks it for every frame, the tests for any time.
public struct LyricsMoment: Sendable, Equatable {
    /// The line on show; nil before the first line and in a gap.
    public var line: Int?
    /// Lines either side of it (in a gap: the last sung and the coming one).
    public var previous: Int?
    public var next: Int?
    /// With word times: the word being sung and how far through it (0–1). Without: nil,
    /// and `fraction` runs across the whole line.
    public var word: Int?
    public var fraction: Double
    /// In a gap: how far through it (0–1) towards `next`.
    public var gap: Double?

    /// A line is "over" this long after its last word starts (when no end tag says so),
    /// and a line with only a start time at most this long after it.
    static let lastWordMs = 1_500
    static let longestLineMs = 12_000
    /// A silence shorter than this keeps the finished line up: only a real instrumental
    /// stretch shows the gap.
    static let shortestGapMs = 4_000

    public init(line: Int?, previous: Int?, next: Int?, word: Int?, fraction: Double, gap: Double?) {
        self.line = line
        self.previous = previous
        self.next = next
        self.word = word
        self.fraction = fraction
        self.gap = gap
    }

    /// The moment at `ms` into the track; nil for unsynced or empty lyrics.
    public static func at(_ ms: Int, in lyrics: Lyrics) -> LyricsMoment? {
        guard lyrics.synced, !lyrics.lines.isEmpty else { return nil }
        let lines = lyrics.lines
        guard let index = lyrics.currentLineIndex(atMs: ms) else {
            // Before the first line: the intro is a gap from the start of the track.
            let first = lines[0].timeMs ?? 0
            let gap: Double? = first >= shortestGapMs ? Double(ms) / Double(first) : nil
            return LyricsMoment(line: nil, previous: nil, next: 0, word: nil, fraction: 0, gap: gap.map { min(1, max(0, $0)) })
        }
        let line = lines[index]
        let start = line.timeMs ?? 0
        let nextIndex = lines[(index + 1)...].firstIndex { ($0.timeMs ?? 0) > start }
        let nextStart = nextIndex.flatMap { lines[$0].timeMs }
        let previous = index > 0 ? index - 1 : nil
        let end = lineEnd(line, start: start, nextStart: nextStart)
        // An empty line clears the display: the stretch until the next one is a gap.
        if line.text.isEmpty || (ms >= end && (nextStart ?? Int.max) - end >= shortestGapMs) {
            let gapStart = line.text.isEmpty ? start : end
            let gap: Double
            if let nextStart, nextStart > gapStart {
                gap = Double(ms - gapStart) / Double(nextStart - gapStart)
            } else {
                gap = 1
            }
            return LyricsMoment(line: nil, previous: line.text.isEmpty ? previous : index, next: nextIndex, word: nil,
                                fraction: 0, gap: min(1, max(0, gap)))
        }
        let (word, fraction) = fill(line, at: ms, start: start, end: end)
        return LyricsMoment(line: index, previous: previous, next: nextIndex, word: word, fraction: fraction, gap: nil)
    }

    /// When a line's singing ends: its end tag, else shortly after its last word, else
    /// the next line (but not more than `longestLineMs` on).
    static func lineEnd(_ line: LyricLine, start: Int, nextStart: Int?) -> Int {
        let limit = nextStart ?? Int.max
        if let end = line.endMs, end > start { return min(end, limit) }
        if let last = line.words.last { return min(limit, max(last.timeMs, start) + lastWordMs) }
        return min(limit, start + longestLineMs)
    }

    private static func fill(_ line: LyricLine, at ms: Int, start: Int, end: Int) -> (Int?, Double) {
        guard !line.words.isEmpty else {
            return (nil, end > start ? min(1, max(0, Double(ms - start) / Double(end - start))) : 1)
        }
        // The word sung now is the last one started; before the first, none has.
        guard let current = line.words.lastIndex(where: { $0.timeMs <= ms }) else { return (0, 0) }
        let wordStart = line.words[current].timeMs
        let wordEnd = current + 1 < line.words.count ? line.words[current + 1].timeMs : end
        let fraction = wordEnd > wordStart ? Double(ms - wordStart) / Double(wordEnd - wordStart) : 1
        return (current, min(1, max(0, fraction)))
    }
}
