/// Lyrics ready to show: synced lines in display order, or plain unsynced text.
public struct Lyrics: Sendable, Equatable {
    public enum Source: String, Sendable, Codable {
        /// A `.lrc` file beside the audio file.
        case sidecar
        case embeddedSynced = "embedded-synced"
        case embeddedUnsynced = "embedded-unsynced"
        /// An `.lrc` file asked for directly.
        case file
    }

    public var source: Source
    public var synced: Bool
    /// From `[offset:]`, already applied to every time below.
    public var offsetMs: Int
    /// Tags such as `ti`, `ar`, `al`, `by`, `length`, keyed by lower-case name.
    public var metadata: [String: String]
    public var lines: [LyricLine]

    /// The line on show at `timeMs`: the first of the latest lines starting at or before it.
    /// nil before the first line and for unsynced lyrics.
    public func currentLineIndex(atMs timeMs: Int) -> Int? {
        guard synced else { return nil }
        var low = 0
        var high = lines.count  // first index with time > timeMs
        while low < high {
            let mid = (low + high) / 2
            if (lines[mid].timeMs ?? 0) <= timeMs { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        var first = low - 1
        while first > 0, lines[first - 1].timeMs == lines[low - 1].timeMs { first -= 1 }
        return first
    }
}

public struct LyricLine: Sendable, Equatable {
    /// Display time in milliseconds; nil for unsynced text.
    public var timeMs: Int?
    /// The text with word tags removed. Empty text is kept: it clears the display.
    public var text: String
    /// Per-word times from enhanced LRC (`<mm:ss.xx>`); empty when there are none.
    public var words: [LyricWord]
    /// When the last word ends: a trailing time tag with no text after it.
    public var endMs: Int? = nil
}

public struct LyricWord: Sendable, Equatable {
    public var timeMs: Int
    public var text: String
}

/// What went wrong reading a lyrics file, with the file named.
public struct LyricsError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}
