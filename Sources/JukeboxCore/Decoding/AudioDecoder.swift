/// The one interface every decoder implements: interleaved integer PCM in the source's
/// own sample format, an exact length, and seeking to a frame.
///
/// A decoder is used from one thread at a time (the audio thread owns it while playing).
/// `read` fills a caller-owned buffer, so steady-state decoding allocates nothing.
public protocol AudioDecoder: AnyObject {
    var path: String { get }
    /// Where its bytes come from: a file, or a download with news of its own (`network`).
    var source: any MediaSource { get }
    var container: ContainerFormat { get }
    var info: StreamInfo { get }
    var metadata: TrackMetadata { get }
    /// The frame the next `read` starts at.
    var position: Int64 { get }
    /// Problems the decoder stepped over (a damaged frame replaced by silence, an early end).
    var warnings: DecodeWarnings { get }

    /// Fills `buffer` with whole frames and returns how many; 0 means the stream ended.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Moves so that the next `read` starts exactly at `frame` (clamped to the length).
    func seek(toFrame frame: Int64) throws
    /// Asked between bounded steps of reading; when it returns true, the `read` or `seek`
    /// in progress throws `DecodeInterrupted` and the position is undefined until a seek.
    var interruption: DecodeInterruption? { get set }
}

/// Recoverable problems, kept in order and bounded so a file full of damage cannot grow
/// memory without limit. A message repeated back to back is counted, not stored again.
public struct DecodeWarnings: Sendable {
    private var entries: [(message: String, repeats: Int)] = []
    public private(set) var dropped = 0
    static let limit = 32

    mutating func add(_ message: String) {
        if entries.last?.message == message {
            entries[entries.count - 1].repeats += 1
        } else if entries.count < Self.limit {
            entries.append((message, 1))
        } else {
            dropped += 1
        }
    }

    public var messages: [String] {
        entries.map { $0.repeats > 1 ? "\($0.message) (\($0.repeats) times)" : $0.message }
    }

    public var isEmpty: Bool { entries.isEmpty }
}

/// Opens the right decoder for a file or a URL by looking at its content, never its name.
public enum AudioFile {
    /// `entry` as a queue holds it: a path, or an http(s) URL.
    public static func open(_ entry: String, interruption: DecodeInterruption? = nil, network: NetworkPlayback? = nil) throws -> any AudioDecoder {
        try open(TrackLocation(entry), interruption: interruption, network: network)
    }

    /// `interruption` is asked while a URL's first bytes are awaited, and handed on. A URL
    /// is opened by `network` (its cache and timeouts); without one, uncached. A chapter
    /// that follows `previous` in the same file continues its decoder instead of opening
    /// the file again.
    public static func open(_ location: TrackLocation, interruption: DecodeInterruption? = nil, network: NetworkPlayback? = nil,
                            following previous: (any AudioDecoder)? = nil) throws -> any AudioDecoder {
        switch location {
        case .file(let path):
            if let chapter = ChapterEntry(path), chapter.isInAFile {
                return try open(chapter, interruption, following: previous as? ChapterDecoder)
            }
            return try decoder(for: FileReader(path: path), path, interruption)
        case .url(let url):
            return try (network ?? NetworkPlayback()).decoder(for: url, interruption: interruption) { try decoder(for: $0, url, interruption) }
        }
    }

    private static func decoder(for reader: any MediaSource, _ path: String, _ interruption: DecodeInterruption?) throws -> any AudioDecoder {
        let format = try FormatSniffer.sniff(reader)
        if reader.isLive, format != .mp3 {
            throw MediaError.unsupported(path, "a live \(format.rawValue.uppercased()) stream; internet radio plays in MP3")
        }
        let decoder: any AudioDecoder = switch format {
        case .flac: try FLACDecoder(reader: reader)
        // Counting an MP3's frames would wait for the whole download.
        case .mp3: try MP3Decoder(reader: reader, exactLength: !reader.isDownload)
        case .wav: try WAVDecoder(reader: reader)
        case .ogg: try VorbisDecoder(reader: reader)
        case .opus: try OpusDecoder(reader: reader)
        case .mp4: try MP4Decoder(reader: reader)
        }
        decoder.interruption = interruption
        return decoder
    }

    private static func open(_ entry: ChapterEntry, _ interruption: DecodeInterruption?, following previous: ChapterDecoder?) throws -> any AudioDecoder {
        let book: any AudioDecoder
        let chapters: [Chapter]
        if let previous, previous.book.path == entry.file {
            (book, chapters) = (previous.book, previous.chapters)
        } else {
            book = try decoder(for: FileReader(path: entry.file), entry.file, interruption)
            chapters = Self.chapters(of: entry.file, metadata: book.metadata, info: book.info)
        }
        try entry.check(in: chapters)
        return ChapterDecoder(book, chapters: chapters, index: entry.index, entry: entry.entry)
    }

    /// The file's chapters: from its tags, else from a CUE sheet beside it (`book.cue` for
    /// `book.flac`, naming that file). None when it has fewer than two.
    public static func chapters(of path: String, metadata: TrackMetadata, info: StreamInfo) -> [Chapter] {
        var marks = metadata.chapterMarks
        if marks.isEmpty, let dot = path.lastIndex(of: "."), path[dot...].firstIndex(of: "/") == nil,
           let sheet = try? FileReader.contents(of: path[..<dot] + ".cue", limit: TagLimits.maximumCueSheetBytes) {
            marks = CueSheet.marks(String(decoding: sheet, as: UTF8.self), for: path)
        }
        return Chapter.ranges(marks, sampleRate: info.sampleRate, totalFrames: info.totalFrames)
    }

    /// Tags only, as cheaply as each format allows (no MP3 frame scan): for library scans.
    public static func metadata(_ path: String) throws -> TrackMetadata { try describe(path).metadata }

    /// Tags and format, without decoding audio (an MP3's length is estimated).
    public static func describe(_ path: String) throws -> (metadata: TrackMetadata, info: StreamInfo) {
        if let chapter = ChapterEntry(path), chapter.isInAFile {
            let (book, info) = try describe(chapter.file)
            let chapters = Self.chapters(of: chapter.file, metadata: book, info: info)
            try chapter.check(in: chapters)
            return ChapterDecoder.describe(chapters, chapter.index, of: book, info)
        }
        let reader = try FileReader(path: path)
        let decoder: any AudioDecoder = switch try FormatSniffer.sniff(reader) {
        case .flac: try FLACDecoder(reader: reader)
        case .mp3: try MP3Decoder(reader: reader, exactLength: false)
        case .wav: try WAVDecoder(reader: reader)
        case .ogg: try VorbisDecoder(reader: reader)
        case .opus: try OpusDecoder(reader: reader)
        case .mp4: try MP4Decoder(reader: reader)
        }
        return (decoder.metadata, decoder.info)
    }
}

extension AudioDecoder {
    /// Decodes the whole stream (or up to `maxFrames`) into memory. For tests and tools;
    /// the player streams instead.
    public func readAll(maxFrames: Int64 = .max) throws -> [UInt8] {
        var out: [UInt8] = []
        let chunkFrames = 4096
        var chunk = [UInt8](repeating: 0, count: chunkFrames * info.bytesPerFrame)
        var remaining = maxFrames
        while remaining > 0 {
            let want = Int(min(Int64(chunkFrames), remaining)) * info.bytesPerFrame
            let frames = try chunk.withUnsafeMutableBytes {
                try read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want]))
            }
            if frames == 0 { break }
            out.append(contentsOf: chunk[0..<(frames * info.bytesPerFrame)])
            remaining -= Int64(frames)
        }
        return out
    }
}
