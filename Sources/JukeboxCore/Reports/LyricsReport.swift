/// `jukebox lyrics --json`. The field names are an interface.
public struct LyricsReport: Encodable, Sendable {
    public var lyrics: Lyrics
    /// Index of the line on show at `--at`, or nil.
    public var current: Int?

    /// Times `--at` may name: a billion seconds is past any track, and NaN, infinities
    /// and larger values would trap converting to milliseconds.
    public static let acceptedSeconds: ClosedRange<Double> = 0...1_000_000_000

    public init(lyrics: Lyrics, atSeconds: Double?) {
        self.lyrics = lyrics
        current = atSeconds.flatMap { seconds in
            guard Self.acceptedSeconds.contains(seconds) else { return nil }
            return lyrics.currentLineIndex(atMs: Int((seconds * 1000).rounded()))
        }
    }

    enum Keys: String, CodingKey { case source, synced, offsetMs, metadata, lines, current }
    enum LineKeys: String, CodingKey { case timeMs, text, words }
    enum WordKeys: String, CodingKey { case timeMs, text }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(lyrics.source, forKey: .source)
        try c.encode(lyrics.synced, forKey: .synced)
        try c.encode(lyrics.offsetMs, forKey: .offsetMs)
        try c.encode(lyrics.metadata, forKey: .metadata)
        var lines = c.nestedUnkeyedContainer(forKey: .lines)
        for line in lyrics.lines {
            var l = lines.nestedContainer(keyedBy: LineKeys.self)
            try l.encodeOrNull(line.timeMs, forKey: .timeMs)
            try l.encode(line.text, forKey: .text)
            var words = l.nestedUnkeyedContainer(forKey: .words)
            for word in line.words {
                var w = words.nestedContainer(keyedBy: WordKeys.self)
                try w.encode(word.timeMs, forKey: .timeMs)
                try w.encode(word.text, forKey: .text)
            }
        }
        try c.encodeOrNull(current, forKey: .current)
    }
}
