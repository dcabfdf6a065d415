import Foundation
import Testing
@testable import JukeboxCore

/// Covers whose bytes lie: a header claiming 65500x799 pixels, a 4000x4000 PNG, a
/// progressive JPEG with hundreds of scans, CMYK and YCCK artwork. Each is drawn by
/// `jukebox screenshot` (the screen's own renderer and decoders) within a peak-memory
/// bound, and the codecs are checked on their own.
@Suite struct CoverBombTests {
    let fx = Fixtures.shared
    /// The whole process, fonts included; the issue's inputs took 126-478 MB.
    static let peakBound = 64 << 20
    static let red: [UInt8] = [255, 0, 0], blue: [UInt8] = [0, 0, 255]

    /// A folder holding a copy of a FLAC fixture with no picture, and `cover` named `name`.
    func album(_ cover: [UInt8]?, named name: String = "cover.jpg") throws -> String {
        let folder = NSTemporaryDirectory() + "jukebox-covers-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fx.path("noseek16.flac"), toPath: folder + "/track.flac")
        if let cover { try Data(cover).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        return folder + "/track.flac"
    }

    struct Shot {
        var status: Int32
        var peak: Int
        var warnings: String
        var frame: RGBImage?
    }

    /// `jukebox screenshot` of `track` on a 320x240 panel, with its peak RSS from GNU time.
    func screenshot(_ track: String) throws -> Shot {
        let out = NSTemporaryDirectory() + "jukebox-shot-\(UUID().uuidString).png"
        let report = out + ".time"
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: report) }
        let run = try Tools.run("time", ["-f", "%M", "-o", report, Tools.jukebox, "screenshot", out, "--track", track, "--at", "1",
                                         "--config", "/nonexistent"], check: false)
        let kib = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").last.flatMap { Int($0) } ?? Int.max
        let frame = FileManager.default.fileExists(atPath: out) ? try PNGCodec.decode(Array(Data(contentsOf: URL(fileURLWithPath: out)))) : nil
        return Shot(status: run.status, peak: kib * 1024, warnings: run.stderr, frame: frame)
    }

    /// The colours drawn a quarter and three quarters across the cover's middle row.
    func coverHalves(_ frame: RGBImage) -> (left: UInt32, right: UInt32) {
        let rect = ScreenLayout(width: frame.width, height: frame.height, kind: .nowPlaying).cover!
        let y = rect.y + rect.height / 2
        return (frame.pixels[y * frame.width + rect.x + rect.width / 4], frame.pixels[y * frame.width + rect.x + rect.width * 3 / 4])
    }

    static func hugeClaim(progressive: Bool) -> [UInt8] {
        CoverFixtures.claiming(CoverFixtures.jpeg(width: 16, height: 16, progressive: progressive, left: red, right: blue),
                               width: 65500, height: 799)
    }

    @Test(arguments: [true, false])
    func aHeaderClaimingAHugePictureCostsLittle(progressive: Bool) throws {
        let cover = Self.hugeClaim(progressive: progressive)
        #expect(cover.count < 1000)
        // A folder picture, then the same bytes in a FLAC's PICTURE block and an MP3's APIC.
        let folder = try album(cover)
        let flacPath = try album(nil)
        try Tools.run("flac", ["-s", "-f", "--picture", "3|image/jpeg|front|16x16x24|\(try fx.write("claim-\(progressive).jpg", cover))",
                               "-o", flacPath, fx.path("music16.wav")])
        var tag = ID3Builder(version: 3)
        tag.picture(mime: "image/jpeg", bytes: cover)
        let mp3 = try fx.write("claim-\(progressive).mp3", tag.build() + fx.bytes("cbr.mp3"))
        for track in [folder, flacPath, mp3] {
            let shot = try screenshot(track)
            #expect(shot.status == 0, "\(track): \(shot.warnings)")
            #expect(shot.peak < Self.peakBound, "\(track): peak RSS \(shot.peak >> 10) KiB")
            if progressive {
                // Its coefficients alone would take 150 MB: refused from the header, and said.
                #expect(shot.warnings.contains("65500x799 progressive JPEG needs"), "\(shot.warnings)")
            }
        }
        if progressive {
            #expect(throws: CoverFailure.self) { try JPEGCodec.cover(cover, limits: CoverLimits(side: 150)) }
        } else {
            // Only the centred square is decoded, scaled to the side asked for.
            let image = try JPEGCodec.cover(cover, limits: CoverLimits(side: 150))
            #expect(image.width == 150 && image.height == 150)
        }
    }

    @Test func aLargePNGIsReadARowAtATime() throws {
        let cover = try CoverFixtures.png(side: 4000, left: 0xFF0000, right: 0x0000FF)
        let shot = try screenshot(try album(cover, named: "cover.png"))
        #expect(shot.status == 0, "\(shot.warnings)")
        #expect(shot.peak < Self.peakBound, "peak RSS \(shot.peak >> 10) KiB")
        let halves = try #require(shot.frame.map(coverHalves))
        #expect(CoverFixtures.near(halves.left, 0xFF0000) && CoverFixtures.near(halves.right, 0x0000FF), "\(halves)")
        // Interlaced or not, every pixel lands where it belongs.
        let image = try PNGCodec.cover(cover, limits: CoverLimits(side: 100))
        #expect(image.width == 100 && image.pixels[50 * 100 + 10] == 0xFF0000 && image.pixels[50 * 100 + 90] == 0x0000FF)
    }

    @Test func anInterlacedPNGComesTogetherFromItsPasses() throws {
        let bytes = CoverFixtures.interlacedPNG(side: 301) { x, _ in x < 150 ? 0x00FF00 : 0xFFFFFF }
        let image = try PNGCodec.cover(bytes, limits: CoverLimits(side: 100))
        #expect(image.width == 100 && Set(image.pixels[(40 * 100)..<(40 * 100 + 45)]) == [0x00FF00])
        #expect(Set(image.pixels[(40 * 100 + 55)..<(41 * 100)]) == [0xFFFFFF])
    }

    @Test func aRealLargeJPEGStillShowsDecodedAtAnEighth() throws {
        let cover = CoverFixtures.jpeg(width: 4000, height: 4000, left: Self.red, right: Self.blue)
        let image = try JPEGCodec.cover(cover, limits: CoverLimits(side: 200))
        #expect(image.width == 200 && image.height == 200)
        #expect(CoverFixtures.near(image.pixels[100 * 200 + 20], 0xFF0000) && CoverFixtures.near(image.pixels[100 * 200 + 180], 0x0000FF))
        let shot = try screenshot(try album(cover))
        #expect(shot.status == 0 && shot.peak < Self.peakBound, "peak RSS \(shot.peak >> 10) KiB: \(shot.warnings)")
        let halves = try #require(shot.frame.map(coverHalves))
        #expect(CoverFixtures.near(halves.left, 0xFF0000) && CoverFixtures.near(halves.right, 0x0000FF), "\(halves)")
    }

    @Test func aLargePanelsCoverIsNotCountedAgainstTheFile() throws {
        // A 1920x1080 panel draws its cover 840 pixels a side: 13 MB of square, which
        // follows the panel; the 1400x1400 progressive file's own 6 MB is what is checked.
        let cover = CoverFixtures.jpeg(width: 1400, height: 1400, progressive: true, left: Self.red, right: Self.blue)
        let image = try JPEGCodec.cover(cover, limits: CoverLimits(side: 840))
        #expect(image.width == 840 && CoverFixtures.near(image.pixels[420 * 840 + 100], 0xFF0000))
    }

    @Test(arguments: [true, false])
    func aTallOrWidePictureGivesItsCentredSquare(progressive: Bool) throws {
        // Rows above the square are skipped, columns beside it never decoded.
        let tall = CoverFixtures.jpeg(width: 96, height: 800, progressive: progressive, left: Self.red, right: Self.blue)
        let image = try JPEGCodec.cover(tall, limits: CoverLimits(side: 48))
        #expect(image.width == 48 && CoverFixtures.near(image.pixels[24 * 48 + 4], 0xFF0000) && CoverFixtures.near(image.pixels[24 * 48 + 44], 0x0000FF))
        // Of a wide one, the middle: left of centre red, right of it blue.
        let wide = CoverFixtures.jpeg(width: 2000, height: 120, progressive: progressive, left: Self.red, right: Self.blue)
        let middle = try JPEGCodec.cover(wide, limits: CoverLimits(side: 60))
        #expect(middle.width == 60 && CoverFixtures.near(middle.pixels[30 * 60 + 5], 0xFF0000) && CoverFixtures.near(middle.pixels[30 * 60 + 55], 0x0000FF))
    }

    @Test func hundredsOfScansAreRefused() throws {
        let progressive = CoverFixtures.jpeg(width: 512, height: 512, progressive: true, left: Self.red, right: Self.blue)
        let cover = CoverFixtures.repeatingLastScan(progressive, times: 600)
        #expect(throws: CoverFailure(reason: "more than 64 scans (a progressive JPEG has about 10)")) {
            try JPEGCodec.cover(cover, limits: CoverLimits(side: 150))
        }
        // The progressive picture itself is fine.
        #expect(try JPEGCodec.cover(progressive, limits: CoverLimits(side: 150)).width == 150)
        let shot = try screenshot(try album(cover))
        #expect(shot.status == 0 && shot.peak < Self.peakBound, "peak RSS \(shot.peak >> 10) KiB")
        #expect(shot.warnings.contains("more than 64 scans"), "\(shot.warnings)")
    }

    @Test func cmykAndYcckCoversDrawInTheirColours() throws {
        // Red and blue ink: Adobe's files store CMYK inverted (255 = no ink), others as it is.
        let inverted = (red: [UInt8]([255, 0, 0, 255]), blue: [UInt8]([0, 0, 255, 255]))
        let plain = (red: [UInt8]([0, 255, 255, 0]), blue: [UInt8]([255, 255, 0, 0]))
        let covers = [
            ("CMYK (Adobe)", CoverFixtures.jpeg(width: 64, height: 64, space: .cmyk, left: inverted.red, right: inverted.blue)),
            ("CMYK", CoverFixtures.jpeg(width: 64, height: 64, space: .cmyk, adobe: false, left: plain.red, right: plain.blue)),
            ("YCCK", CoverFixtures.jpeg(width: 64, height: 64, space: .ycck, left: inverted.red, right: inverted.blue)),
            ("progressive YCCK", CoverFixtures.jpeg(width: 64, height: 64, space: .ycck, progressive: true, left: inverted.red, right: inverted.blue)),
        ]
        for (name, cover) in covers {
            let image = try JPEGCodec.cover(cover, limits: CoverLimits(side: 64))
            let left = image.pixels[32 * 64 + 8], right = image.pixels[32 * 64 + 56]
            #expect(CoverFixtures.near(left, 0xFF0000) && CoverFixtures.near(right, 0x0000FF),
                    "\(name): \(String(left, radix: 16)) \(String(right, radix: 16))")
        }
        let shot = try screenshot(try album(covers[0].1))
        #expect(shot.status == 0 && !shot.warnings.contains("cover"), "\(shot.warnings)")
        let halves = try #require(shot.frame.map(coverHalves))
        #expect(CoverFixtures.near(halves.left, 0xFF0000) && CoverFixtures.near(halves.right, 0x0000FF), "\(halves)")
    }
}
