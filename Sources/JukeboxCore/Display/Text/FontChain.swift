import CFreeType

#if canImport(Glibc)
import Glibc
#endif

/// The fonts text is drawn with, in order: each character comes from the first font that
/// has it (per-glyph fallback), so a Latin font first and a CJK font after it draw a
/// title mixing both. Glyphs are rendered anti-aliased once and cached. Owned by one
/// thread, like the FreeType library under it.
public final class FontChain {
    /// The files that loaded, in order.
    public let paths: [String]
    private let library: FreeTypeLibrary
    private let faces: [FT_Face]
    /// The pixel size each face is set to now; changing it costs a little, so it is kept.
    private var faceSizes: [Int]
    private var glyphs: [GlyphKey: Glyph] = [:]
    private var faceForScalar: [UInt32: (face: Int, index: UInt32)] = [:]
    private var lineMetrics: [Int: LineMetrics] = [:]

    /// Glyphs kept at most; past it the cache starts afresh (a song's lyrics in Chinese
    /// use a few hundred).
    static let glyphCacheLimit = 2048

    public struct LineMetrics: Equatable {
        /// Pixels above and below the baseline.
        public var ascent: Int
        public var descent: Int
        public var height: Int { ascent + descent }
    }

    /// Opens the fonts at `paths` that can be read; one that cannot is reported in
    /// `problems` and left out. Throws only if none can be used.
    public init(paths: [String], problems: inout [String]) throws(FontError) {
        let library: FreeTypeLibrary
        do { library = try FreeTypeLibrary() } catch { throw FontError(reason: "\(error)") }
        var faces: [FT_Face] = []
        var loaded: [String] = []
        for path in paths {
            do {
                let face = try library.face(path: path)
                guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
                    FT_Done_Face(face)
                    problems.append("\(path): not a scalable font")
                    continue
                }
                faces.append(face)
                loaded.append(path)
            } catch {
                problems.append("font \(error)")
            }
        }
        guard !faces.isEmpty else {
            throw FontError(reason: "no usable font among \(paths.isEmpty ? "none configured" : paths.joined(separator: ", "))")
        }
        self.library = library
        self.faces = faces
        self.paths = loaded
        faceSizes = Array(repeating: 0, count: faces.count)
    }

    deinit {
        for face in faces { FT_Done_Face(face) }
    }

    /// The first font's ascent and descent at `size` pixels: lines are spaced by them.
    public func metrics(size: Int) -> LineMetrics {
        if let known = lineMetrics[size] { return known }
        setSize(size, face: 0)
        let m = faces[0].pointee.size.pointee.metrics
        let found = LineMetrics(ascent: Int((m.ascender + 63) >> 6), descent: Int((-m.descender + 63) >> 6))
        lineMetrics[size] = found
        return found
    }

    /// How wide `text` is at `size`, in pixels.
    public func width(of text: String, size: Int) -> Int {
        var total = 0
        for scalar in text.unicodeScalars { total += glyph(scalar, size: size)?.advance ?? 0 }
        return total
    }

    /// `text`, cut with an ellipsis if it is wider than `maxWidth`.
    public func fitted(_ text: String, size: Int, maxWidth: Int) -> String {
        guard width(of: text, size: size) > maxWidth else { return text }
        let ellipsis = "…"
        let room = maxWidth - width(of: ellipsis, size: size)
        var kept = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let advance = glyph(scalar, size: size)?.advance ?? 0
            if used + advance > room { break }
            used += advance
            kept.append(scalar)
        }
        while let last = kept.last, last.properties.isWhitespace { kept.removeLast() }
        return String(kept) + ellipsis
    }

    /// Draws `text` with its baseline at `baseline`, starting at `x`; only pixels inside
    /// `clip` change. Returns the x after the last character.
    @discardableResult
    public func draw(_ text: String, size: Int, x: Int, baseline: Int, color: Color,
                     into canvas: Canvas, clip: PixelRect) -> Int {
        var pen = x
        for scalar in text.unicodeScalars {
            guard let g = glyph(scalar, size: size) else { continue }
            if g.width > 0, pen + g.left < clip.maxX, pen + g.left + g.width > clip.x {
                g.mask.withUnsafeBufferPointer { mask in
                    canvas.blend(mask: mask, pitch: g.width, maskWidth: g.width, maskHeight: g.height,
                                 x: pen + g.left, y: baseline - g.top, color: color, clip: clip)
                }
            }
            pen += g.advance
        }
        return pen
    }

    /// `text` laid out once at `size`: its glyphs and their places, for a line drawn many
    /// times (the karaoke line, redrawn strip by strip several times a second).
    public func run(_ text: String, size: Int) -> TextRun {
        var placed: [(glyph: Glyph, x: Int)] = []
        var pen = 0
        for scalar in text.unicodeScalars {
            guard let g = glyph(scalar, size: size) else { continue }
            placed.append((g, pen))
            pen += g.advance
        }
        return TextRun(text: text, size: size, placed: placed, width: pen)
    }

    /// Draws a laid-out run; glyphs outside `clip` cost nothing.
    public func draw(_ run: TextRun, x: Int, baseline: Int, color: Color, into canvas: Canvas, clip: PixelRect) {
        for (g, offset) in run.placed where g.width > 0 {
            let left = x + offset + g.left
            guard left < clip.maxX, left + g.width > clip.x else { continue }
            g.mask.withUnsafeBufferPointer { mask in
                canvas.blend(mask: mask, pitch: g.width, maskWidth: g.width, maskHeight: g.height,
                             x: left, y: baseline - g.top, color: color, clip: clip)
            }
        }
    }

    /// Whether some font in the chain has `scalar` (not the missing-glyph box).
    public func covers(_ scalar: Unicode.Scalar) -> Bool { source(of: scalar).index != 0 }

    // MARK: Glyphs

    private func source(of scalar: Unicode.Scalar) -> (face: Int, index: UInt32) {
        if let known = faceForScalar[scalar.value] { return known }
        var found: (face: Int, index: UInt32) = (0, 0)
        for (i, face) in faces.enumerated() {
            let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
            if index != 0 { found = (i, index); break }
        }
        faceForScalar[scalar.value] = found
        return found
    }

    private func glyph(_ scalar: Unicode.Scalar, size: Int) -> Glyph? {
        // Line ends and other controls draw nothing.
        if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) { return nil }
        let (face, index) = source(of: scalar)
        let key = GlyphKey(face: face, index: index, size: size)
        if let cached = glyphs[key] { return cached }
        guard let rendered = render(key) else { return nil }
        if glyphs.count >= Self.glyphCacheLimit { glyphs.removeAll(keepingCapacity: true) }
        glyphs[key] = rendered
        return rendered
    }

    private func setSize(_ size: Int, face: Int) {
        guard faceSizes[face] != size else { return }
        if FT_Set_Pixel_Sizes(faces[face], 0, FT_UInt(size)) == 0 { faceSizes[face] = size }
    }

    /// Light hinting (vertical only) keeps shapes true at small sizes without the
    /// distortion of full hinting; the normal render mode gives 256 levels of coverage.
    private func render(_ key: GlyphKey) -> Glyph? {
        setSize(key.size, face: key.face)
        let face = faces[key.face]
        let lightTarget = Int32((FT_RENDER_MODE_LIGHT.rawValue & 15) << 16)
        guard FT_Load_Glyph(face, key.index, lightTarget) == 0,
              FT_Render_Glyph(face.pointee.glyph, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let slot = face.pointee.glyph.pointee
        let bitmap = slot.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var mask = [UInt8](repeating: 0, count: width * height)
        if let buffer = bitmap.buffer, width > 0, height > 0, pitch >= width {
            mask.withUnsafeMutableBufferPointer { out in
                for row in 0..<height {
                    (out.baseAddress! + row * width).update(from: buffer + row * pitch, count: width)
                }
            }
        }
        return Glyph(mask: mask, width: width, height: height, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top),
                     advance: Int((slot.advance.x + 32) >> 6))
    }
}

/// Text laid out at one size by `FontChain.run`.
public struct TextRun {
    public let text: String
    public let size: Int
    fileprivate let placed: [(glyph: Glyph, x: Int)]
    public let width: Int
}

/// No font could be used: the screen cannot draw text.
public struct FontError: Error, CustomStringConvertible, Equatable {
    public let reason: String
    public var description: String { reason }
}
