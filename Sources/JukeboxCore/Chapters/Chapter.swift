/// Where a chapter starts, as its source states it: `count` units of `1/perSecond` s (CUE
/// sheets count 75 a second, ID3 chapters milliseconds, FLAC's cue sheet samples). Kept
/// as a fraction so the frame it names is exact at any sample rate.
public struct ChapterMark: Sendable, Equatable {
    public var title: String?
    public var count: Int64
    public var perSecond: Int64

    public init(title: String?, count: Int64, perSecond: Int64) {
        self.title = title
        self.count = count
        self.perSecond = perSecond
    }

    func frame(atRate rate: Int) -> Int64 {
        guard perSecond > 0, count >= 0 else { return 0 }
        let (whole, part) = count.quotientAndRemainder(dividingBy: perSecond)
        return whole * Int64(rate) + part * Int64(rate) / perSecond
    }
}

/// One chapter of a file, as a track of its own: a title and a range of frames.
public struct Chapter: Sendable, Equatable {
    public var title: String
    public var startFrame: Int64
    public var endFrame: Int64

    public init(title: String, startFrame: Int64, endFrame: Int64) {
        self.title = title
        self.startFrame = startFrame
        self.endFrame = endFrame
    }

    public var frames: Int64 { endFrame - startFrame }

    /// The ranges the marks make in a file of `totalFrames`: each chapter runs to the
    /// next one's start, the last to the end, and the first from the very start, so no
    /// audio is out of reach. Marks past the end, or on the same frame as another, are
    /// dropped; fewer than two chapters is no chapter list at all.
    public static func ranges(_ marks: [ChapterMark], sampleRate: Int, totalFrames: Int64) -> [Chapter] {
        var starts: [(frame: Int64, title: String?)] = marks.map { ($0.frame(atRate: sampleRate), $0.title) }
            .filter { $0.frame < totalFrames }
        starts.sort { $0.frame < $1.frame }
        var kept: [(frame: Int64, title: String?)] = []
        for start in starts where start.frame != kept.last?.frame { kept.append(start) }
        guard kept.count >= 2, kept.count <= TagLimits.maximumChapters else { return [] }
        kept[0].frame = 0
        return kept.indices.map { i in
            Chapter(title: kept[i].title?.nonEmptyTrimmed ?? "Chapter \(i + 1)", startFrame: kept[i].frame,
                    endFrame: i + 1 < kept.count ? kept[i + 1].frame : totalFrames)
        }
    }
}

/// Where a chapter sits in its book, for the screen: the book's own progress.
public struct ChapterPlace: Sendable, Equatable {
    /// 0-based, of `count`.
    public var index: Int
    public var count: Int
    public var startFrame: Int64
    public var bookFrames: Int64

    /// The screen's line under a chapter's title: the book, which chapter, and how far
    /// through the book `elapsed` (whole seconds into the chapter) is, in percent, so it
    /// changes seldom: "3/12 · 34% · The Book" (the book's name last, where a narrow
    /// screen cuts it).
    public func caption(book: String?, elapsed: Int, sampleRate: Int) -> String {
        let heard = startFrame + Int64(elapsed) * Int64(sampleRate)
        let percent = bookFrames > 0 ? min(100, Int(heard * 100 / bookFrames)) : 0
        return (["\(index + 1)/\(count)", "\(percent)%"] + (book.map { [$0] } ?? [])).joined(separator: " · ")
    }
}
