/// Draws the screen into a canvas, and only what changed since the last frame: each
/// part of `ScreenContent` that differs is cleared and drawn again, its rectangle added
/// to the damage a display flushes. The karaoke fill redraws only the strip it moved
/// over. Owned by one thread (the screen's, or `jukebox screenshot`).
public final class ScreenRenderer {
    public let canvas: Canvas
    private let fonts: FontChain
    private var nowPlayingLayout: ScreenLayout?
    private var lyricsLayout: ScreenLayout?
    private var shown: ScreenContent?
    private var scaledCover: (key: String, side: Int, image: RGBImage)?
    /// Frames drawn (any damage), for the benchmarks and tests.
    public private(set) var frames = 0

    /// The karaoke fill's frames a second: by default few enough that the screen costs at
    /// most a fifth of playback's CPU (docs/benchmarks.md, bench/screen), and never more
    /// than the eye needs.
    public static let defaultFillRate = 10
    public static let fastestFill = 25
    /// Time between two frames of the fill.
    public let fillInterval: UInt64

    public init(width: Int, height: Int, fonts: FontChain, fillRate: Int = ScreenRenderer.defaultFillRate) {
        canvas = Canvas(width: width, height: height, color: Palette.background)
        self.fonts = fonts
        fillInterval = 1_000_000_000 / UInt64(min(Self.fastestFill, max(1, fillRate)))
    }

    public func layout(_ kind: ScreenLayout.Kind) -> ScreenLayout {
        switch kind {
        case .nowPlaying:
            if let known = nowPlayingLayout { return known }
            nowPlayingLayout = ScreenLayout(width: canvas.width, height: canvas.height, kind: kind)
            return nowPlayingLayout!
        case .lyrics:
            if let known = lyricsLayout { return known }
            lyricsLayout = ScreenLayout(width: canvas.width, height: canvas.height, kind: kind)
            return lyricsLayout!
        }
    }

    /// Forgets what is on the screen: the next frame is drawn whole (a display that was
    /// reopened, or cleared by someone else).
    public func invalidate() { shown = nil }

    // MARK: Content

    /// The frame for `input` at `now`, and when it will next change by itself (nil: not
    /// until something new arrives — paused, stopped, nothing playing).
    public func content(for input: ScreenInput, at now: UInt64) -> (ScreenContent, nextChange: UInt64?) {
        var c = ScreenContent()
        var wakes: [UInt64] = []
        let status = input.status
        let path = status?.path
        let metadata = status?.metadata
        let synced = input.lyrics.map { $0.synced && !$0.lines.isEmpty } ?? false
        c.kind = synced ? .lyrics : .nowPlaying
        let layout = layout(c.kind)

        if let path, let status, StreamLines.isStream(status) {
            let lines = StreamLines(metadata, fallback: Self.fileTitle(path))
            c.title = lines.title
            c.artist = lines.artist
            // The station where a record shows its cover, else on the album's line.
            if layout.cover != nil, input.cover == nil { c.coverCaption = lines.station } else { c.album = lines.station }
        } else if let path {
            c.title = metadata?.title ?? Self.fileTitle(path)
            c.artist = metadata?.artist ?? metadata?.albumArtist ?? ""
            c.album = metadata?.album ?? ""
            // A chapter: its own title and progress above, the book's on the album's line.
            if let chapter = metadata?.chapter, let rate = status?.info?.sampleRate {
                c.album = chapter.caption(book: metadata?.album, elapsed: Int(input.elapsed(at: now)), sampleRate: rate)
            }
        } else {
            c.title = status == nil ? "Jukebox" : "Nothing playing"
            c.artist = status == nil ? "starting" : ""
        }
        c.cover = input.cover?.key
        let elapsed = input.elapsed(at: now)
        if let status, path != nil {
            let seconds = Int(elapsed)
            let total = status.duration > 0 ? Int(status.duration.rounded(.up)) : nil
            (c.elapsed, c.remaining) = clockTexts(seconds, total: total)
            if status.duration > 0 {
                c.bar = min(layout.bar.width, layout.bar.width * seconds / max(1, Int(status.duration)))
            }
        }
        let badges = Self.timerBadges(input, at: now, wakes: &wakes)
        // The timer and the lock take the mode's place: there is room for one or the other.
        if let status { c.state = badges.isEmpty ? stateText(status.state, status.options, speed: status.speed) : Self.symbol(status.state) + badges }
        let playing = status?.state == .playing
        if playing, let status {
            // The next whole second: the clock and the bar move then.
            let fraction = elapsed - elapsed.rounded(.down)
            if status.duration == 0 || elapsed < status.duration { wakes.append(now + UInt64((1 - fraction) * 1e9) + 1) }
        }
        if synced, let lyrics = input.lyrics {
            let ms = Int((elapsed * 1000).rounded(.down))
            if let moment = LyricsMoment.at(ms, in: lyrics) {
                fillLyrics(&c, moment: moment, lyrics: lyrics, layout: layout)
                if playing {
                    let moving = (moment.line != nil && c.fill < (fitted?.run.width ?? 0)) || (moment.gap.map { $0 < 1 } ?? false)
                    if moving { wakes.append(now + fillInterval) }
                    if let next = Self.nextLyricChange(after: ms, in: lyrics) { wakes.append(now + UInt64(next - ms) * 1_000_000) }
                }
            }
        }
        if let until = input.volumeUntil, until > now, let status {
            c.volume = status.volume
            wakes.append(until)
        }
        c.notice = Self.trouble(status) ?? input.notices.first
        return (c, wakes.min())
    }

    private func fillLyrics(_ c: inout ScreenContent, moment: LyricsMoment, lyrics: Lyrics, layout: ScreenLayout) {
        let lines = lyrics.lines
        c.lyricPrevious = moment.previous.map { lines[$0].text } ?? ""
        c.lyricNext = moment.next.map { lines[$0].text } ?? ""
        let box = layout.lyricCurrent
        c.lyricSize = box.size
        guard let index = moment.line else {
            c.gap = moment.gap.map { Int(($0 * Double(layout.gapBar.width)).rounded(.down)) }
            return
        }
        let fitted = fittedLine(lines[index], index: index, box: box)
        c.lyricLine = index
        c.lyricSize = fitted.size
        c.lyricCurrent = fitted.run.text
        let filled: Double
        if let word = moment.word, word < fitted.wordStarts.count {
            filled = Double(fitted.wordStarts[word]) + moment.fraction * Double(fitted.wordWidths[word])
        } else {
            filled = moment.fraction * Double(fitted.run.width)
        }
        c.fill = min(fitted.run.width, max(0, Int(filled.rounded(.down))))
    }

    /// The current line as drawn: its size, its text (cut if it must be) laid out, and
    /// where each word starts. Worked out once per line, not for each of its frames.
    struct FittedLine {
        var line: LyricLine
        var index: Int
        var size: Int
        var run: TextRun
        var wordStarts: [Int]
        var wordWidths: [Int]
    }
    private var fitted: FittedLine?

    private func fittedLine(_ line: LyricLine, index: Int, box: ScreenLayout.TextBox) -> FittedLine {
        if let known = fitted, known.index == index, known.line == line, known.size <= box.size { return known }
        let room = box.rect.width - 2 * max(4, min(canvas.width, canvas.height) / 24)
        // Shrink a long line to fit, down to 70 %, before cutting it.
        var size = box.size
        while size > box.size * 7 / 10, fonts.width(of: line.text, size: size) > room { size -= max(1, size / 12) }
        let run = fonts.run(fonts.fitted(line.text, size: size, maxWidth: room), size: size)
        // The words' own text, as the line shows it after trimming its leading space.
        let lead = line.words.map(\.text).joined().prefix { $0.isWhitespace }
        var pen = -fonts.width(of: String(lead), size: size)
        var starts: [Int] = [], widths: [Int] = []
        for word in line.words {
            let w = fonts.width(of: word.text, size: size)
            starts.append(pen)
            widths.append(w)
            pen += w
        }
        let made = FittedLine(line: line, index: index, size: size, run: run, wordStarts: starts, wordWidths: widths)
        fitted = made
        return made
    }

    /// The next time after `ms` a line starts or ends (a gap can begin).
    static func nextLyricChange(after ms: Int, in lyrics: Lyrics) -> Int? {
        var best: Int?
        for (i, line) in lyrics.lines.enumerated() {
            guard let start = line.timeMs else { continue }
            if start > ms {
                best = min(best ?? start, start)
                break
            }
            let next = lyrics.lines[(i + 1)...].first { ($0.timeMs ?? 0) > start }?.timeMs
            let end = LyricsMoment.lineEnd(line, start: start, nextStart: next)
            if end > ms { best = min(best ?? end, end) }
        }
        return best
    }

    /// What the player reports as wrong, in the words the screen shows.
    static func trouble(_ status: PlayerStatus?) -> String? {
        guard let status else { return nil }
        switch status.route {
        case .waitingFor(let device): return "waiting for \(device)"
        case .lost(let device): return "output lost: \(device)"
        case .idle, .playingOn: break
        }
        if status.state == .error, let error = status.lastError { return error }
        // The music stopped for the network, not by itself: say so, or it looks broken.
        if status.buffering { return "buffering…" }
        return nil
    }

    // The fill's frames come several times a second and mostly change one number: the
    // texts that change once a second or less are kept rather than built for each frame.
    private var clocks: (seconds: Int, total: Int?, texts: (String, String))?
    private var state: (state: PlayerState, options: PlayOptions, speed: Double, text: String)?

    private func clockTexts(_ seconds: Int, total: Int?) -> (String, String) {
        if let known = clocks, known.seconds == seconds, known.total == total { return known.texts }
        let texts = (PlayerStatus.clock(Double(seconds)), total.map { "-" + PlayerStatus.clock(Double(max(0, $0 - seconds))) } ?? "")
        clocks = (seconds, total, texts)
        return texts
    }

    /// The play state and mode, and the speed while it is not 1 ("▶  repeat all  1.25×").
    private func stateText(_ playerState: PlayerState, _ options: PlayOptions, speed: Double) -> String {
        if let known = state, known.state == playerState, known.options == options, known.speed == speed { return known.text }
        var text = "\(Self.symbol(playerState))  \(options.label)"
        if speed != 1 { text += "  \(PlaybackSpeed.text(speed))×" }
        state = (playerState, options, speed, text)
        return text
    }

    /// The sleep timer's time left and the key lock, after the play state
    /// ("▶  ☾ 14:32  locked"); the time left moves each second.
    static func timerBadges(_ input: ScreenInput, at now: UInt64, wakes: inout [UInt64]) -> String {
        var text = ""
        if let until = input.sleepUntil {
            let left = until > now ? until - now : 0
            let (seconds, part) = left.quotientAndRemainder(dividingBy: 1_000_000_000)
            text += "  ☾ " + PlayerStatus.clock(Double(seconds + (part > 0 ? 1 : 0)))
            if left > 0 { wakes.append(now + (part > 0 ? part : 1_000_000_000) + 1) }
        }
        if input.keysLocked { text += "  locked" }
        return text
    }

    static func symbol(_ state: PlayerState) -> String {
        switch state {
        case .playing: "▶"
        case .paused: "❚❚"
        case .stopped: "■"
        case .loading: "…"
        case .error: "!"
        }
    }

    static func fileTitle(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return name }
        return String(name[..<dot])
    }

    // MARK: Drawing

    /// Draws `content`, changing only what differs from the last frame, and returns
    /// what changed. `cover` is the picture `content.cover` names.
    public func render(_ content: ScreenContent, cover: Cover?) -> Damage {
        var damage = Damage()
        let layout = layout(content.kind)
        let old = shown
        let whole = old == nil || old?.kind != content.kind || (old?.volume == nil) != (content.volume == nil) || old?.notice != content.notice
        if whole { canvas.fill(canvas.bounds, Palette.background) }
        func changed<T: Equatable>(_ part: (ScreenContent) -> T) -> Bool { whole || old.map(part) != part(content) }

        if let rect = layout.cover, changed(\.cover) || changed(\.coverCaption) {
            drawCover(cover, caption: content.coverCaption, in: rect)
            damage.add(rect)
        }
        if changed(\.title) { damage.add(drawText(content.title, in: layout.title, color: Palette.text)) }
        if changed(\.artist) { damage.add(drawText(content.artist, in: layout.artist, color: Palette.dim)) }
        if let album = layout.album, changed(\.album) { damage.add(drawText(content.album, in: album, color: Palette.dim)) }
        if changed(\.elapsed) || changed(\.remaining) || changed(\.state) { damage.add(drawTimes(content, in: layout.times)) }
        if changed(\.bar) { damage.add(drawBar(layout.bar, filled: content.bar)) }
        if content.kind == .lyrics {
            if changed(\.lyricPrevious) { damage.add(drawText(content.lyricPrevious, in: layout.lyricPrevious, color: Palette.dim)) }
            if changed(\.lyricNext) { damage.add(drawText(content.lyricNext, in: layout.lyricNext, color: Palette.dim)) }
            if changed(\.lyricCurrent) || changed(\.lyricSize) || changed(\.gap) {
                damage.add(drawCurrentLine(content, layout: layout, strip: nil))
            } else if let old, old.fill != content.fill {
                damage.add(drawCurrentLine(content, layout: layout, strip: (min(old.fill, content.fill), max(old.fill, content.fill))))
            }
        }
        // The notice and the volume box lie over other parts: drawn again after any of
        // those that changed under them.
        func under(_ rect: PixelRect) -> Bool { damage.rects.contains { !$0.intersection(rect).isEmpty } }
        if let notice = content.notice, whole || under(layout.notice.rect) {
            canvas.fill(layout.notice.rect, Palette.notice)
            damage.add(drawText(notice, in: layout.notice, color: Palette.text, clear: false))
        }
        if let volume = content.volume, whole || old?.volume != volume || under(layout.volume) {
            drawVolume(volume, in: layout.volume)
            damage.add(layout.volume)
        }
        if whole { damage = Damage(); damage.add(canvas.bounds) }
        shown = content
        if !damage.isEmpty { frames += 1 }
        return damage
    }

    /// Text centred vertically in its box, cut with an ellipsis to fit.
    @discardableResult
    private func drawText(_ text: String, in box: ScreenLayout.TextBox, color: Color, clear: Bool = true) -> PixelRect {
        if clear { canvas.fill(box.rect, Palette.background) }
        guard !text.isEmpty, !box.rect.isEmpty else { return box.rect }
        let fitted = fonts.fitted(text, size: box.size, maxWidth: box.rect.width)
        let x = box.centered ? box.rect.x + (box.rect.width - fonts.width(of: fitted, size: box.size)) / 2 : box.rect.x
        fonts.draw(fitted, size: box.size, x: x, baseline: baseline(in: box), color: color, into: canvas, clip: box.rect)
        return box.rect
    }

    private func baseline(in box: ScreenLayout.TextBox, size: Int? = nil) -> Int {
        let m = fonts.metrics(size: size ?? box.size)
        return box.rect.y + (box.rect.height - m.height) / 2 + m.ascent
    }

    private func drawTimes(_ c: ScreenContent, in box: ScreenLayout.TextBox) -> PixelRect {
        canvas.fill(box.rect, Palette.background)
        let y = baseline(in: box)
        fonts.draw(c.elapsed, size: box.size, x: box.rect.x, baseline: y, color: Palette.dim, into: canvas, clip: box.rect)
        let right = fonts.width(of: c.remaining, size: box.size)
        fonts.draw(c.remaining, size: box.size, x: box.rect.maxX - right, baseline: y, color: Palette.dim, into: canvas, clip: box.rect)
        let middle = fonts.width(of: c.state, size: box.size)
        fonts.draw(c.state, size: box.size, x: box.rect.x + (box.rect.width - middle) / 2, baseline: y, color: Palette.text,
                   into: canvas, clip: box.rect)
        return box.rect
    }

    private func drawBar(_ rect: PixelRect, filled: Int) -> PixelRect {
        canvas.fill(rect, Palette.barTrack)
        canvas.fill(PixelRect(x: rect.x, y: rect.y, width: filled, height: rect.height), Palette.barFill)
        return rect
    }

    /// The current lyric line, unsung in grey and sung in the accent colour up to the
    /// fill; with `strip`, only the pixels between those two fills (from the line's left).
    private func drawCurrentLine(_ c: ScreenContent, layout: ScreenLayout, strip: (Int, Int)?) -> PixelRect {
        let box = layout.lyricCurrent
        if let gap = c.gap, c.lyricCurrent.isEmpty {
            canvas.fill(box.rect, Palette.background)
            _ = drawBar(layout.gapBar, filled: gap)
            return box.rect
        }
        let textBox = ScreenLayout.TextBox(rect: box.rect, size: c.lyricSize, centered: true)
        let run = fitted.map(\.run).flatMap { $0.text == c.lyricCurrent && $0.size == c.lyricSize ? $0 : nil }
            ?? fonts.run(c.lyricCurrent, size: c.lyricSize)
        let x = box.rect.x + (box.rect.width - run.width) / 2
        var area = box.rect
        if let (from, to) = strip {
            // A pixel either side: anti-aliased edges of the glyphs at the boundary.
            area = PixelRect(x: x + from - 1, y: box.rect.y, width: to - from + 2, height: box.rect.height).intersection(box.rect)
        }
        canvas.fill(area, Palette.background)
        let y = baseline(in: textBox)
        // Unsung right of the fill, sung left of it: each pixel is drawn once.
        let unsung = PixelRect(x: x + c.fill, y: box.rect.y, width: area.maxX - x - c.fill, height: box.rect.height).intersection(area)
        let sung = PixelRect(x: x, y: box.rect.y, width: c.fill, height: box.rect.height).intersection(area)
        if !unsung.isEmpty { fonts.draw(run, x: x, baseline: y, color: Palette.unsung, into: canvas, clip: unsung) }
        if !sung.isEmpty { fonts.draw(run, x: x, baseline: y, color: Palette.sung, into: canvas, clip: sung) }
        return area
    }

    private func drawCover(_ cover: Cover?, caption: String, in rect: PixelRect) {
        guard let cover else {
            canvas.fill(rect, Palette.coverBlank)
            // A caption takes the lowest quarter; the note is centred in what is left.
            let captionHeight = caption.isEmpty ? 0 : rect.height / 4
            let noteRect = PixelRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height - captionHeight)
            let size = rect.height / 2
            let note = "♪"
            let w = fonts.width(of: note, size: size)
            let m = fonts.metrics(size: size)
            fonts.draw(note, size: size, x: rect.x + (rect.width - w) / 2, baseline: noteRect.y + (noteRect.height - m.height) / 2 + m.ascent,
                       color: Palette.dim, into: canvas, clip: noteRect)
            if !caption.isEmpty {
                let margin = max(2, rect.width / 16)
                let box = ScreenLayout.TextBox(rect: PixelRect(x: rect.x + margin, y: rect.maxY - captionHeight, width: rect.width - 2 * margin,
                                                               height: captionHeight * 3 / 4),
                                               size: max(11, captionHeight * 2 / 5), centered: true)
                drawText(caption, in: box, color: Palette.text, clear: false)
            }
            return
        }
        if scaledCover?.key != cover.key || scaledCover?.side != rect.width {
            scaledCover = (cover.key, rect.width, cover.image.centredSquare.scaled(width: rect.width, height: rect.height))
        }
        canvas.draw(scaledCover!.image, x: rect.x, y: rect.y)
    }

    private func drawVolume(_ volume: Int, in rect: PixelRect) {
        canvas.fill(rect, Palette.barFill)
        let inner = rect.insetBy(2, 2)
        canvas.fill(inner, Palette.box)
        let labelSize = max(11, rect.height / 8)
        let numberSize = max(20, rect.height * 2 / 5)
        let label = ScreenLayout.TextBox(rect: PixelRect(x: inner.x, y: inner.y + inner.height / 20, width: inner.width, height: labelSize * 3 / 2),
                                         size: labelSize, centered: true)
        drawText("Volume", in: label, color: Palette.dim, clear: false)
        let number = ScreenLayout.TextBox(rect: PixelRect(x: inner.x, y: label.rect.maxY, width: inner.width, height: numberSize * 5 / 4),
                                          size: numberSize, centered: true)
        drawText("\(volume)", in: number, color: Palette.text, clear: false)
        let barHeight = max(4, rect.height / 14)
        let bar = PixelRect(x: inner.x + inner.width / 10, y: inner.maxY - barHeight * 2, width: inner.width * 8 / 10, height: barHeight)
        _ = drawBar(bar, filled: bar.width * max(0, min(100, volume)) / 100)
    }
}
