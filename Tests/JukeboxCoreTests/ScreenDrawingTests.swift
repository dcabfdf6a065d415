import Testing
@testable import JukeboxCore

/// The drawing layer: damage, rotation, pixel formats, the PNG and JPEG codecs, fonts.
@Suite struct ScreenDrawingTests {
    @Test func overlappingDamageMergesAndApartStaysApart() {
        var d = Damage()
        d.add(PixelRect(x: 0, y: 0, width: 10, height: 10))
        d.add(PixelRect(x: 5, y: 5, width: 10, height: 10))
        #expect(d.rects == [PixelRect(x: 0, y: 0, width: 15, height: 15)])
        d.add(PixelRect(x: 100, y: 100, width: 4, height: 4))
        #expect(d.rects.count == 2)
        #expect(d.area == 15 * 15 + 16)
        d.add(.zero)
        #expect(d.rects.count == 2)
    }

    @Test func rotationPutsTheCornersWhereThePanelIsTurned() {
        // A 4x2 panel turned a quarter: the viewer sees 2x4.
        let canvas = Canvas(width: 2, height: 4)
        canvas.fill(PixelRect(x: 0, y: 0, width: 1, height: 1), Color(rgb: 0xFF0000))  // viewer's top-left
        let whole = PixelRect(x: 0, y: 0, width: 4, height: 2)
        let quarter = Rotation.quarter.panelPixels(canvas, panelRect: whole, panelWidth: 4, panelHeight: 2)
        #expect(quarter[3] == 0xFF0000)  // the panel's top-right
        let three = Rotation.threeQuarters.panelPixels(canvas, panelRect: whole, panelWidth: 4, panelHeight: 2)
        #expect(three[4] == 0xFF0000)  // bottom-left
        // Every rectangle of the canvas maps to one of the same area inside the panel,
        // and the pixels read through it are the ones the whole-panel copy has there.
        for rotation in Rotation.allCases {
            let size = rotation.canvasSize(panelWidth: 4, panelHeight: 2)
            let c = Canvas(width: size.width, height: size.height)
            for y in 0..<size.height { for x in 0..<size.width { c.fill(PixelRect(x: x, y: y, width: 1, height: 1), Color(rgb: UInt32(y * 16 + x))) } }
            let all = rotation.panelPixels(c, panelRect: whole, panelWidth: 4, panelHeight: 2)
            let r = PixelRect(x: 1, y: 0, width: 1, height: 2)
            let p = rotation.panelRect(r, panelWidth: 4, panelHeight: 2)
            #expect(p.area == 2 && p.intersection(whole) == p, "\(rotation)")
            let part = rotation.panelPixels(c, panelRect: p, panelWidth: 4, panelHeight: 2)
            var expected: [UInt32] = []
            for y in p.y..<p.maxY { for x in p.x..<p.maxX { expected.append(all[y * 4 + x]) } }
            #expect(part == expected, "\(rotation)")
            #expect(Set(part) == [c[1, 0], c[1, 1]], "\(rotation)")
        }
    }

    @Test func pixelFormatsEncodeChannelsWhereTheScreenInfoSaysAndBack() {
        #expect(PixelFormat.rgb565.encode(0xFF0000) == 0xF800)
        #expect(PixelFormat.rgb565.encode(0x00FF00) == 0x07E0)
        #expect(PixelFormat.rgb565.encode(0x0000FF) == 0x001F)
        #expect(PixelFormat.rgb565.decode(0xF800) == 0xFF0000)
        let bgr = PixelFormat(bitsPerPixel: 32, red: .init(offset: 0, length: 8), green: .init(offset: 8, length: 8), blue: .init(offset: 16, length: 8))
        #expect(bgr.encode(0x123456) == 0x563412)
        #expect(bgr.decode(0x563412) == 0x123456)
        #expect(!PixelFormat(bitsPerPixel: 24, red: .init(offset: 16, length: 8), green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8)).isSupported)
        // Stored at the row stride, not at width x bytes per pixel.
        var memory = [UInt16](repeating: 0, count: 8 * 3)
        memory.withUnsafeMutableBytes { raw in
            PixelFormat.rgb565.store([0xFFFFFF, 0xFF0000], rect: PixelRect(x: 1, y: 2, width: 2, height: 1), into: raw.baseAddress!, stride: 16)
        }
        #expect(memory[2 * 8 + 1] == 0xFFFF && memory[2 * 8 + 2] == 0xF800)
        #expect(memory.filter { $0 != 0 }.count == 2)
    }

    @Test func pngRoundTripsAndRefusesGarbage() throws {
        let pixels: [UInt32] = (0..<(7 * 5)).map { UInt32($0) * 0x010203 }
        let bytes = try PNGCodec.encode(width: 7, height: 5, pixels: pixels)
        let back = try PNGCodec.decode(bytes)
        #expect(back.width == 7 && back.height == 5 && back.pixels == pixels)
        #expect(throws: PNGCodec.Failure.self) { try PNGCodec.decode(Array(bytes.prefix(40))) }
        #expect(throws: PNGCodec.Failure.self) { try PNGCodec.decode([1, 2, 3]) }
        #expect(throws: PNGCodec.Failure.self) { try PNGCodec.decode(bytes, maxPixels: 10) }
    }

    @Test func corruptJPEGIsAnErrorNotAnExit() {
        // A JPEG start, then nonsense: libjpeg's fatal error must come back as a throw.
        let broken: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array(repeating: 0x42, count: 200)
        #expect(throws: CoverFailure.self) { try JPEGCodec.cover(broken, limits: CoverLimits(side: 100)) }
        #expect(throws: CoverFailure.self) { try JPEGCodec.cover([], limits: CoverLimits(side: 100)) }
    }

    @Test func scalingAveragesWhenShrinking() {
        // A 4x4 checkerboard of black and white becomes one mid-grey pixel, not one of them.
        let board = RGBImage(width: 4, height: 4, pixels: (0..<16).map { ($0 / 4 + $0 % 4) % 2 == 0 ? 0xFFFFFF : 0 })
        let one = board.scaled(width: 1, height: 1)
        #expect(one.pixels == [0x808080])
        let wide = RGBImage(width: 6, height: 2, pixels: Array(repeating: 0x102030, count: 12))
        #expect(wide.centredSquare.width == 2 && wide.centredSquare.height == 2)
        #expect(board.scaled(width: 8, height: 8).pixels.count == 64)
    }

    @Test func fontChainFallsBackPerCharacter() throws {
        var problems: [String] = []
        let latin = try FontChain(paths: [ScreenFixtures.latinFont], problems: &problems)
        #expect(!latin.covers("茉"))
        let chain = try FontChain(paths: [ScreenFixtures.latinFont, "/nonexistent.ttf", ScreenFixtures.cjkFont], problems: &problems)
        #expect(problems.count == 1 && problems[0].contains("/nonexistent.ttf"))
        #expect(chain.covers("茉") && chain.covers("é") && chain.covers("A"))
        #expect(chain.width(of: "茉莉花", size: 20) > chain.width(of: "ab", size: 20))
        let fitted = chain.fitted("A very long title that cannot fit", size: 20, maxWidth: 100)
        #expect(fitted.hasSuffix("…") && chain.width(of: fitted, size: 20) <= 100)
        #expect(throws: FontError.self) { try FontChain(paths: ["/nonexistent.ttf"], problems: &problems) }
    }
}

enum ScreenFixtures {
    static let latinFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let cjkFont = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"

    static func fonts() throws -> FontChain {
        var problems: [String] = []
        return try FontChain(paths: [latinFont, cjkFont], problems: &problems)
    }
}
