/// What reading tags may keep. A 512 MB player must survive any file in the library, so
/// everything a tag can make us hold is capped; a frame over its cap is skipped unread.
enum TagLimits {
    /// Cover art larger than this is not kept (a 3000×3000 JPEG is about 3 MiB).
    static let maximumPictureBytes = 16 * 1024 * 1024
    /// Pictures kept per file: front cover, back cover and a few more are plenty.
    static let maximumPictures = 4
    /// Lyrics frames (USLT, SYLT): the same cap as an `.lrc` file.
    static let maximumLyricsBytes = LRCParser.maximumFileSize
    /// Tag values kept of one file, all tags together: real files hold tens.
    static let maximumTagValues = 256
    /// Bytes of tag values kept of one file, all tags together: a ripper's tags take a
    /// few KiB, and the library keeps them for every track, so a file of 256 values of
    /// 64 KiB each must not make 16 MiB of them. (Lyrics and pictures have caps of their own.)
    static let maximumTagBytes = 32 * 1024
    /// Title, artist, track number and the like.
    static let maximumTextFrameBytes = 64 * 1024
    /// Chapters of one file (a book, a CUE sheet): a track each, named `chapter001`.
    static let maximumChapters = 999
    /// A CUE sheet, beside a file or in its tags.
    static let maximumCueSheetBytes = 256 * 1024
    /// Frames walked in one ID3v2 tag; real tags hold tens.
    static let maximumFrames = 4096
    /// A tag unsynchronised as a whole must be read whole to be undone: above this it is skipped.
    static let maximumUnsynchronisedTagBytes = 32 * 1024 * 1024
}
