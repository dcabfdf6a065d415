/// What one frame shows, part by part, in values that change only when the pixels do:
/// whole seconds, filled pixels. Two equal contents draw the same frame, so comparing
/// parts tells the renderer what to redraw.
public struct ScreenContent: Sendable, Equatable {
    public var kind: ScreenLayout.Kind = .nowPlaying
    public var title = ""
    public var artist = ""
    public var album = ""
    public var cover: String?
    /// Under the note drawn where there is no cover: a station's name.
    public var coverCaption = ""
    public var elapsed = ""
    public var remaining = ""
    /// The play state and mode ("▶ repeat all").
    public var state = ""
    /// Pixels of the progress bar filled.
    public var bar = 0
    public var lyricPrevious = ""
    public var lyricCurrent = ""
    /// Which line `lyricCurrent` is (the log notes when each is first drawn).
    public var lyricLine: Int?
    public var lyricNext = ""
    /// The current line's font size once fitted to the width.
    public var lyricSize = 0
    /// Pixels of the current line sung (the karaoke fill), from the line's left edge.
    public var fill = 0
    /// In an instrumental gap: pixels of the gap bar filled.
    public var gap: Int?
    public var volume: Int?
    public var notice: String?

    public init() {}
}
