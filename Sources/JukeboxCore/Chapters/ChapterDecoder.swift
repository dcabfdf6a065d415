/// One chapter of a file, played as a track of its own: frames 0 to its length, read
/// from its range of the file's decoder. Chapters that follow each other share that
/// decoder (`following`), so moving to the next one neither reopens nor seeks: the
/// decoder is already there, and the join is as gapless as the file.
final class ChapterDecoder: AudioDecoder {
    let book: any AudioDecoder
    /// All of the book's chapters, for the next one to share the decoder.
    let chapters: [Chapter]
    let chapter: Chapter
    let path: String
    let info: StreamInfo
    let metadata: TrackMetadata
    private(set) var position: Int64 = 0

    /// `chapters` are the file's (`AudioFile.chapters`), `index` the one to play.
    init(_ book: any AudioDecoder, chapters: [Chapter], index: Int, entry: String) {
        self.book = book
        self.chapters = chapters
        chapter = chapters[index]
        path = entry
        (metadata, info) = Self.describe(chapters, index, of: book.metadata, book.info)
    }

    /// A chapter's tags and format, as its track shows them: the chapter's title and
    /// number, the book's title as the album, the rest of the book's tags.
    static func describe(_ chapters: [Chapter], _ index: Int, of book: TrackMetadata, _ bookInfo: StreamInfo) -> (TrackMetadata, StreamInfo) {
        let chapter = chapters[index]
        var info = bookInfo
        info.totalFrames = chapter.frames
        var tags = book
        tags.album = tags.album ?? tags.title
        tags.title = chapter.title
        tags.trackNumber = index + 1
        tags.trackTotal = chapters.count
        tags.chapterMarks = []
        tags.chapter = ChapterPlace(index: index, count: chapters.count, startFrame: chapter.startFrame, bookFrames: bookInfo.totalFrames)
        return (tags, info)
    }

    var source: any MediaSource { book.source }
    var container: ContainerFormat { book.container }
    var warnings: DecodeWarnings { book.warnings }
    var interruption: DecodeInterruption? {
        get { book.interruption }
        set { book.interruption = newValue }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let left = chapter.frames - position
        guard left > 0 else { return 0 }
        // Another chapter used the decoder since (a seek back into the one before).
        if book.position != chapter.startFrame + position { try book.seek(toFrame: chapter.startFrame + position) }
        let frames = Int(min(Int64(buffer.count / info.bytesPerFrame), left))
        let read = try book.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<frames * info.bytesPerFrame]))
        position += Int64(read)
        return read
    }

    func seek(toFrame frame: Int64) throws {
        let target = max(0, min(frame, chapter.frames))
        try book.seek(toFrame: chapter.startFrame + target)
        position = target
    }
}
