import Testing
@testable import JukeboxCore

/// What the renderer draws and, as much, what it does not: frames only on change, small
/// damage for the clock and the fill, nothing at all while paused.
@Suite struct ScreenRendererTests {
    static let second: UInt64 = 1_000_000_000

    func input(state: PlayerState = .playing, elapsed: Double = 10, lyrics: String? = nil) -> ScreenInput {
        var s = PlayerStatus()
        s.state = state
        s.path = "/music/Album/01 Song.flac"
        var m = TrackMetadata()
        m.title = "A Song"
        m.artist = "Someone"
        m.album = "An Album"
        s.metadata = m
        s.duration = 100
        s.elapsed = elapsed
        s.volume = 40
        s.route = .playingOn("hw:0")
        var input = ScreenInput()
        input.status = s
        input.statusAt = 100 * Self.second
        input.lyrics = lyrics.map { LRCParser.parse(text: $0, source: .file) }
        return input
    }

    @Test func pausedDrawsOnceAndNeverWakes() throws {
        let r = ScreenRenderer(width: 320, height: 240, fonts: try ScreenFixtures.fonts())
        let i = input(state: .paused)
        let (first, wake) = r.content(for: i, at: 100 * Self.second)
        #expect(wake == nil)
        #expect(r.render(first, cover: nil).area == 320 * 240)
        for later in [101, 110, 500] as [UInt64] {
            let (c, w) = r.content(for: i, at: later * Self.second)
            #expect(w == nil && r.render(c, cover: nil).isEmpty)
        }
        #expect(r.frames == 1)
    }

    @Test func playingRedrawsOnlyTheClockAndBarEachSecond() throws {
        let r = ScreenRenderer(width: 320, height: 240, fonts: try ScreenFixtures.fonts())
        let i = input(elapsed: 10.25)
        let (first, wake) = r.content(for: i, at: 100 * Self.second)
        _ = r.render(first, cover: nil)
        // The next whole second of the track, 0.75 s on.
        let next = try #require(wake)
        #expect(next > 100 * Self.second + 740_000_000 && next < 100 * Self.second + 760_000_000)
        let (c, _) = r.content(for: i, at: next)
        #expect(c.elapsed == "0:11" && c.remaining == "-1:29")
        let damage = r.render(c, cover: nil)
        let layout = r.layout(.nowPlaying)
        #expect(!damage.isEmpty && damage.area <= layout.times.rect.area + layout.bar.area + layout.bar.width * 8)
        #expect(damage.rects.allSatisfy { $0.intersection(layout.title.rect).isEmpty })
    }

    @Test func theKaraokeFillRedrawsOnlyTheStripItMovedOver() throws {
        let r = ScreenRenderer(width: 320, height: 240, fonts: try ScreenFixtures.fonts())
        let i = input(elapsed: 10, lyrics: "[00:09.00]before\n[00:10.00]<00:10.00>Twinkle <00:11.00>twinkle <00:12.00>little star<00:14.00>\n[00:15.00]after")
        let start = i.statusAt
        let (a, wakeA) = r.content(for: i, at: start + Self.second / 2)
        #expect(a.kind == .lyrics && a.lyricCurrent == "Twinkle twinkle little star" && a.lyricPrevious == "before" && a.lyricNext == "after")
        #expect(wakeA == start + Self.second / 2 + r.fillInterval)
        _ = r.render(a, cover: nil)
        let (b, _) = r.content(for: i, at: start + Self.second / 2 + r.fillInterval)
        #expect(b.fill > a.fill)
        let damage = r.render(b, cover: nil)
        let box = r.layout(.lyrics).lyricCurrent.rect
        #expect(damage.rects.count == 1 && damage.area == (b.fill - a.fill + 2) * box.height)
        // Halfway through "twinkle", the second word: past the first word's width.
        let (c, _) = r.content(for: i, at: start + Self.second * 3 / 2)
        let fonts = try ScreenFixtures.fonts()
        let firstWord = fonts.width(of: "Twinkle ", size: c.lyricSize)
        #expect(c.fill > firstWord && c.fill < firstWord + fonts.width(of: "twinkle ", size: c.lyricSize))
    }

    @Test func theVolumeShowsLargeThenGoes() throws {
        let r = ScreenRenderer(width: 240, height: 240, fonts: try ScreenFixtures.fonts())
        var i = input(state: .paused)
        i.volumeUntil = i.statusAt + 2 * Self.second
        let (shown, wake) = r.content(for: i, at: i.statusAt)
        #expect(shown.volume == 40 && wake == i.statusAt + 2 * Self.second)
        #expect(r.render(shown, cover: nil).area == 240 * 240)
        let (gone, after) = r.content(for: i, at: i.statusAt + 2 * Self.second)
        #expect(gone.volume == nil && after == nil)
    }

    @Test func troubleShowsWhereTheUserLooks() throws {
        let r = ScreenRenderer(width: 320, height: 240, fonts: try ScreenFixtures.fonts())
        var i = input(state: .paused)
        i.status?.route = .lost("hw:CARD=Audio")
        #expect(r.content(for: i, at: 0).0.notice == "output lost: hw:CARD=Audio")
        i.status?.route = .waitingFor("hw:CARD=DAC")
        #expect(r.content(for: i, at: 0).0.notice == "waiting for hw:CARD=DAC")
        i.status?.route = .playingOn("hw:0")
        i.status?.buffering = true
        #expect(r.content(for: i, at: 0).0.notice == "buffering…")
        i.status?.buffering = false
        i.notices = ["config/jukebox.toml:3:1: unknown key"]
        #expect(r.content(for: i, at: 0).0.notice == "config/jukebox.toml:3:1: unknown key")
    }

    @Test func everyLayoutFitsItsScreen() {
        for (w, h) in [(240, 240), (320, 240), (480, 320), (800, 480)] {
            for rotation in [Rotation.none, .quarter] {
                let size = rotation.canvasSize(panelWidth: w, panelHeight: h)
                let bounds = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
                for kind in [ScreenLayout.Kind.nowPlaying, .lyrics] {
                    let l = ScreenLayout(width: size.width, height: size.height, kind: kind)
                    var parts = [l.title.rect, l.artist.rect, l.times.rect, l.bar, l.volume, l.notice.rect]
                    if kind == .lyrics { parts += [l.lyricPrevious.rect, l.lyricCurrent.rect, l.lyricNext.rect, l.gapBar] }
                    if let album = l.album { parts.append(album.rect) }
                    if let cover = l.cover {
                        parts.append(cover)
                        #expect(cover.width >= min(size.width, size.height) / 4, "\(w)x\(h) \(rotation) \(kind)")
                        for text in [l.title.rect, l.artist.rect, l.times.rect, l.bar] {
                            #expect(text.intersection(cover).isEmpty, "\(w)x\(h) \(rotation) \(kind): text over the cover")
                        }
                    }
                    for part in parts {
                        #expect(!part.isEmpty && part.intersection(bounds) == part, "\(w)x\(h) \(rotation) \(kind): \(part)")
                    }
                    #expect(l.bar.maxY <= l.times.rect.y)
                }
            }
        }
    }

    /// A station's "Artist - Title" goes on the artist and title lines, and its name where
    /// a record's cover would be, as a file's tags do: on one line it was cut to a dozen
    /// characters, the same for every song.
    @Test func aStationsTitleIsSplitLikeAFilesTags() {
        func lines(_ title: String?, artist: String? = nil, station: String? = "Test FM") -> StreamLines {
            var m = TrackMetadata()
            m.title = title
            m.artist = artist
            m.stationName = station
            return StreamLines(m, fallback: "stream")
        }
        #expect(lines("Radio Artist 1 - Song Number 1") == lines("Song Number 1", artist: "Radio Artist 1"))
        #expect(lines("Radio Artist 1 - Song Number 1").title == "Song Number 1")
        #expect(lines("A - B - Live").artist == "A" && lines("A - B - Live").title == "B - Live")
        #expect(lines("Jingle").title == "Jingle" && lines("Jingle").artist == "" && lines("Jingle").station == "Test FM")
        #expect(lines("- Untitled").title == "- Untitled" && lines("Artist -").title == "Artist -")
        #expect(lines(nil).title == "Test FM" && lines(nil).station == "")
        #expect(lines(nil, station: nil).title == "stream")
    }
}
