import Foundation
import Testing
@testable import JukeboxCore

/// The layouts as pictures: each case drawn as the box draws it (panel orientation) and
/// compared with a PNG made by the project and committed in `Golden/`. A pixel counts as
/// different when a channel is off by more than 48; up to 0.3% of pixels may differ, so a
/// newer FreeType's slightly different anti-aliasing passes and a moved or missing part
/// does not. `JUKEBOX_UPDATE_GOLDEN=1 swift test --filter ScreenGoldenTests` writes them
/// anew (look at them before committing).
@Suite struct ScreenGoldenTests {
    struct Case: CustomStringConvertible {
        var name: String
        var width: Int
        var height: Int
        var rotation: Rotation
        var input: ScreenInput
        var description: String { name }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").path
    static let statusAt: UInt64 = 1_000_000_000

    static func input(title: String, artist: String, album: String = "Jukebox Demo", elapsed: Double = 42, duration: Double = 187,
                      state: PlayerState = .playing, cover: Bool = true, lyrics: String? = nil) -> ScreenInput {
        var s = PlayerStatus()
        s.state = state
        s.path = "/srv/music/Demo/\(title).flac"
        var m = TrackMetadata()
        m.title = title
        m.artist = artist
        m.album = album
        s.metadata = m
        s.elapsed = elapsed
        s.duration = duration
        s.volume = 60
        s.mode = .repeatAll
        s.route = .playingOn("hw:0")
        var input = ScreenInput()
        input.status = s
        input.statusAt = statusAt
        if cover { input.cover = Cover(key: "demo", image: RGBImage(width: DemoLibrary.coverSide, height: DemoLibrary.coverSide, pixels: DemoLibrary.cover())) }
        input.lyrics = lyrics.map { LRCParser.parse(text: $0, source: .file) }
        return input
    }

    /// A station playing: its `StreamTitle` and name, no length, no cover.
    static func radio() -> ScreenInput {
        var s = PlayerStatus()
        s.state = .playing
        s.path = "http://radio.example/stream"
        var m = TrackMetadata()
        m.title = "Radio Artist 1 - Song Number 1"
        m.stationName = "Jukebox Test FM"
        s.metadata = m
        s.info = StreamInfo(sampleRate: 44_100, channels: 2, sampleFormat: .s16, totalFrames: 0)
        s.elapsed = 42
        s.volume = 60
        s.route = .playingOn("hw:0")
        var input = ScreenInput()
        input.status = s
        input.statusAt = statusAt
        return input
    }

    static let chinese = "[00:40.00]好一朵美丽的茉莉花\n[00:41.50]芬芳美丽满枝桠\n[00:47.00]又香又白人人夸"
    static let english = "[00:39.00]Up above the world so high\n[00:41.00]<00:41.00>Like <00:41.60>a <00:41.90>diamond <00:42.60>in <00:42.90>the <00:43.30>sky<00:44.50>\n[00:45.00]Twinkle, twinkle, little star"

    static let cases: [Case] = {
        var volume = input(title: "Ode to Joy", artist: "Jukebox Demo Band")
        volume.volumeUntil = .max
        var lost = input(title: "Frère Jacques", artist: "Jukebox Demo Band", state: .paused)
        lost.status?.route = .lost("hw:CARD=DAC,DEV=0")
        // The sleep timer with 14:32 left, and the keys locked.
        var sleeping = input(title: "Brahms' Lullaby", artist: "Jukebox Demo Band")
        sleeping.sleepUntil = statusAt + 872_000_000_000
        sleeping.keysLocked = true
        return [
            Case(name: "240x240-0-cjk-title", width: 240, height: 240, rotation: .none, input: input(title: "茉莉花", artist: "点唱机乐队")),
            Case(name: "240x240-90-cjk-lyrics", width: 240, height: 240, rotation: .quarter,
                 input: input(title: "茉莉花", artist: "点唱机乐队", elapsed: 40.8, lyrics: chinese)),
            Case(name: "320x240-0-long-title", width: 320, height: 240, rotation: .none,
                 input: input(title: "A Very Long Title That Cannot Possibly Fit On Such A Small Screen", artist: "Jukebox Demo Band")),
            Case(name: "320x240-90-no-cover-paused", width: 320, height: 240, rotation: .quarter,
                 input: input(title: "Twinkle, Twinkle, Little Star", artist: "Jukebox Demo Band", state: .paused, cover: false)),
            Case(name: "480x320-0-lyric-mid-fill", width: 480, height: 320, rotation: .none,
                 input: input(title: "Twinkle, Twinkle, Little Star", artist: "Jukebox Demo Band", elapsed: 42.2, lyrics: english)),
            Case(name: "480x320-90-volume", width: 480, height: 320, rotation: .quarter, input: volume),
            Case(name: "800x480-0-output-lost", width: 800, height: 480, rotation: .none, input: lost),
            Case(name: "320x240-0-sleep-timer-locked", width: 320, height: 240, rotation: .none, input: sleeping),
            Case(name: "240x240-0-radio", width: 240, height: 240, rotation: .none, input: radio()),
            Case(name: "480x320-0-radio", width: 480, height: 320, rotation: .none, input: radio()),
            Case(name: "800x480-90-instrumental-gap", width: 800, height: 480, rotation: .quarter,
                 input: input(title: "茉莉花", artist: "点唱机乐队", elapsed: 44, lyrics: chinese.replacingOccurrences(of: "[00:47.00]", with: "[00:59.00]"))),
        ]
    }()

    static func draw(_ c: Case, fonts: FontChain) -> [UInt32] {
        let size = c.rotation.canvasSize(panelWidth: c.width, panelHeight: c.height)
        let renderer = ScreenRenderer(width: size.width, height: size.height, fonts: fonts)
        let (content, _) = renderer.content(for: c.input, at: statusAt)
        _ = renderer.render(content, cover: c.input.cover)
        let whole = PixelRect(x: 0, y: 0, width: c.width, height: c.height)
        return c.rotation.panelPixels(renderer.canvas, panelRect: whole, panelWidth: c.width, panelHeight: c.height)
    }

    @Test(arguments: cases)
    func layoutMatchesItsGoldenImage(_ c: Case) throws {
        let fonts = try ScreenFixtures.fonts()
        let pixels = Self.draw(c, fonts: fonts)
        let path = "\(Self.folder)/\(c.name).png"
        if ProcessInfo.processInfo.environment["JUKEBOX_UPDATE_GOLDEN"] == "1" {
            try Data(PNGCodec.encode(width: c.width, height: c.height, pixels: pixels)).write(to: URL(fileURLWithPath: path))
            return
        }
        let golden = try PNGCodec.decode(Array(Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(golden.width == c.width && golden.height == c.height)
        let differ = Self.differing(golden.pixels, pixels)
        let limit = pixels.count * 3 / 1000
        #expect(differ <= limit, "\(c.name): \(differ) of \(pixels.count) pixels differ from Golden/\(c.name).png (at most \(limit))")
    }

    /// The tolerance must not hide a real change: the same frame a second later (another
    /// clock, bar and fill) or with another title is caught.
    @Test func theComparisonCatchesARealChange() throws {
        let fonts = try ScreenFixtures.fonts()
        let c = Self.cases[2]
        var other = c
        other.input.status?.metadata?.title = "Another Title Entirely, Also Long Enough"
        let a = Self.draw(c, fonts: fonts), b = Self.draw(other, fonts: fonts)
        #expect(Self.differing(a, b) > a.count * 3 / 1000)
    }

    /// Pixels with a channel off by more than 48.
    static func differing(_ a: [UInt32], _ b: [UInt32]) -> Int {
        zip(a, b).filter { a, b in
            [16, 8, 0].contains { (shift: UInt32) in abs(Int(a >> shift & 0xFF) - Int(b >> shift & 0xFF)) > 48 }
        }.count
    }
}
