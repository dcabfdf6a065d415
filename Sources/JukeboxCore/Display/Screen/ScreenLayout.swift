/// Where each part of the screen goes for one canvas size: cover, texts, the progress
/// bar, the lyric lines, the volume box and the notice strip. Sizes follow the shorter
/// side, so 240x240, 320x240, 480x320 and 800x480 (and their rotations) all fit.
public struct ScreenLayout: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Cover art, title, artist and album.
        case nowPlaying
        /// Synced lyrics: the current line large between the previous and next.
        case lyrics
    }

    /// A line of text: its box and font size in pixels.
    public struct TextBox: Sendable, Equatable {
        public var rect: PixelRect
        public var size: Int
        public var centered: Bool
    }

    public let width: Int
    public let height: Int
    public let kind: Kind
    public var cover: PixelRect?
    public var title: TextBox
    public var artist: TextBox
    public var album: TextBox?
    /// Elapsed on the left, play state and mode in the middle, remaining on the right.
    public var times: TextBox
    public var bar: PixelRect
    public var lyricPrevious: TextBox
    public var lyricCurrent: TextBox
    public var lyricNext: TextBox
    /// The bar shown in an instrumental gap, in the current line's place.
    public var gapBar: PixelRect
    public var volume: PixelRect
    public var notice: TextBox

    public init(width: Int, height: Int, kind: Kind) {
        self.width = width
        self.height = height
        self.kind = kind
        let short = min(width, height)
        let margin = max(4, short / 24)
        let timesSize = max(11, short / 16)
        let barHeight = max(4, short / 40)
        let timesHeight = timesSize * 3 / 2
        // The footer: the bar, then the times under it.
        let timesTop = height - margin / 2 - timesHeight
        times = TextBox(rect: PixelRect(x: margin, y: timesTop, width: width - 2 * margin, height: timesHeight), size: timesSize, centered: false)
        bar = PixelRect(x: margin, y: timesTop - barHeight - margin / 3, width: width - 2 * margin, height: barHeight)
        let footerTop = bar.y - margin / 2
        let noticeSize = max(11, short / 16)
        notice = TextBox(rect: PixelRect(x: 0, y: 0, width: width, height: noticeSize * 8 / 5), size: noticeSize, centered: true)
        let box = PixelRect(x: width / 5, y: height / 4, width: width - 2 * (width / 5), height: height / 2)
        volume = box

        let titleSize = max(14, short / 10)
        let artistSize = max(12, short / 14)
        let line = { (size: Int) in size * 3 / 2 }
        switch kind {
        case .nowPlaying:
            if width * 5 >= height * 6 {
                // Landscape: the cover on the left, the texts beside it.
                let side = min(footerTop - 2 * margin, width * 9 / 20)
                cover = PixelRect(x: margin, y: margin, width: side, height: side)
                let left = margin + side + margin
                let columnWidth = width - left - margin
                var top = margin + side / 8
                title = TextBox(rect: PixelRect(x: left, y: top, width: columnWidth, height: line(titleSize)), size: titleSize, centered: false)
                top += line(titleSize) + margin / 2
                artist = TextBox(rect: PixelRect(x: left, y: top, width: columnWidth, height: line(artistSize)), size: artistSize, centered: false)
                top += line(artistSize)
                album = TextBox(rect: PixelRect(x: left, y: top, width: columnWidth, height: line(artistSize)), size: artistSize, centered: false)
            } else {
                // Square or portrait: the cover on top, the texts centred under it.
                let textHeight = line(titleSize) + line(artistSize) * (height > width ? 2 : 1)
                let side = max(0, min(width - 2 * margin, footerTop - 2 * margin - textHeight))
                cover = side >= short / 4 ? PixelRect(x: (width - side) / 2, y: margin, width: side, height: side) : nil
                var top = (cover?.maxY ?? 0) + margin / 2
                let inner = width - 2 * margin
                title = TextBox(rect: PixelRect(x: margin, y: top, width: inner, height: line(titleSize)), size: titleSize, centered: true)
                top += line(titleSize)
                artist = TextBox(rect: PixelRect(x: margin, y: top, width: inner, height: line(artistSize)), size: artistSize, centered: true)
                top += line(artistSize)
                album = height > width
                    ? TextBox(rect: PixelRect(x: margin, y: top, width: inner, height: line(artistSize)), size: artistSize, centered: true)
                    : nil
            }
            let unused = TextBox(rect: .zero, size: artistSize, centered: true)
            lyricPrevious = unused
            lyricCurrent = unused
            lyricNext = unused
            gapBar = .zero
        case .lyrics:
            cover = nil
            album = nil
            let inner = width - 2 * margin
            // One header line: the title, and the artist beside it.
            let headerSize = max(11, short / 15)
            title = TextBox(rect: PixelRect(x: margin, y: margin / 2, width: inner * 3 / 5, height: line(headerSize)), size: headerSize, centered: false)
            artist = TextBox(rect: PixelRect(x: margin + inner * 3 / 5, y: margin / 2, width: inner * 2 / 5, height: line(headerSize)), size: headerSize, centered: false)
            let currentSize = max(16, short * 2 / 17)
            let sideSize = max(12, short / 15)
            let top = title.rect.maxY
            let stack = line(sideSize) * 2 + line(currentSize) + margin
            var y = top + max(0, (footerTop - top - stack) / 2)
            lyricPrevious = TextBox(rect: PixelRect(x: margin, y: y, width: inner, height: line(sideSize)), size: sideSize, centered: true)
            y += line(sideSize) + margin / 2
            lyricCurrent = TextBox(rect: PixelRect(x: 0, y: y, width: width, height: line(currentSize)), size: currentSize, centered: true)
            y += line(currentSize) + margin / 2
            lyricNext = TextBox(rect: PixelRect(x: margin, y: y, width: inner, height: line(sideSize)), size: sideSize, centered: true)
            let gapWidth = width / 3
            gapBar = PixelRect(x: (width - gapWidth) / 2, y: lyricCurrent.rect.y + lyricCurrent.rect.height / 2 - barHeight, width: gapWidth, height: barHeight * 2)
        }
    }
}
