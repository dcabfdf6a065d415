import CFFmpeg
import CJukeboxShim

/// An MP4 track's exact length in samples, without the encoder's priming and padding.
///
/// libavformat gives the edit list's duration, which is counted in the movie's timescale:
/// FFmpeg's own muxer uses milliseconds, so that length is up to a millisecond off either
/// way. The track's media duration (`mdhd`) less the edit's start is exact: it is taken
/// where the edit says the same to within its timescale's tick (an edit that ends well
/// before the media ends is the length). An iTunes file says its length in `iTunSMPB`.
struct MP4Length {
    let frames: Int64

    init(format: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>, sampleRate rate: Int, source: any MediaSource) throws {
        let timeBase = stream.pointee.time_base
        var frames = stream.pointee.duration > 0
            ? Int64((Double(stream.pointee.duration) * Double(timeBase.num) * Double(rate) / Double(timeBase.den)).rounded())
            : 0
        if let smpb = jukebox_av_dict_value(format.pointee.metadata, "iTunSMPB").map({ String(cString: $0) }) ?? nil,
           let count = Self.iTunSMPBLength(smpb), count > 0 {
            frames = count
        } else if let track = try? MP4AudioTrack(source), track.timescale > 0 {
            let media = Int64((Double(track.mediaDuration - track.editStart) * Double(rate) / Double(track.timescale)).rounded())
            let tick = track.movieTimescale > 0 ? Int64(rate) / track.movieTimescale + 1 : 1
            if media > 0, frames == 0 || media < frames || abs(media - frames) <= tick { frames = media }
        }
        self.frames = frames
    }

    /// The original sample count iTunes states: " 00000000 00000840 000001C0 0000000000046E00 ...".
    static func iTunSMPBLength(_ text: String) -> Int64? {
        let fields = text.split(separator: " ")
        guard fields.count >= 4 else { return nil }
        return Int64(fields[3], radix: 16)
    }
}

/// What `MP4Length` needs of the first sound track's boxes, read box by box (headers and
/// three small boxes only: a large `moov` is walked, never read whole).
struct MP4AudioTrack {
    var timescale: Int64 = 0
    /// The movie's (`mvhd`), which the edit list counts in.
    var movieTimescale: Int64 = 0
    var mediaDuration: Int64 = 0
    /// The media time the edit list starts at: the encoder's priming.
    var editStart: Int64 = 0

    init?(_ source: any MediaSource) throws {
        let file = MP4Boxes(source)
        guard let moov = try file.child("moov", in: 0..<source.size) else { return nil }
        if let mvhd = try file.child("mvhd", in: moov) {
            let b = try file.bytes(mvhd, 24)
            if b.first == 1, b.count >= 24 { movieTimescale = Int64(MP4Boxes.be(b[20..<24])) }
            else if b.count >= 16 { movieTimescale = Int64(MP4Boxes.be(b[12..<16])) }
        }
        for trak in try file.children("trak", in: moov) {
            guard let mdia = try file.child("mdia", in: trak),
                  let hdlr = try file.child("hdlr", in: mdia),
                  try file.bytes(hdlr, 12).dropFirst(8).elementsEqual("soun".utf8),
                  let mdhd = try file.child("mdhd", in: mdia) else { continue }
            let b = try file.bytes(mdhd, 32)
            if b.first == 1, b.count >= 32 {
                timescale = Int64(MP4Boxes.be(b[20..<24]))
                mediaDuration = Int64(MP4Boxes.be(b[24..<32]))
            } else if b.count >= 20 {
                timescale = Int64(MP4Boxes.be(b[12..<16]))
                mediaDuration = Int64(MP4Boxes.be(b[16..<20]))
            }
            if let edts = try file.child("edts", in: trak), let elst = try file.child("elst", in: edts) {
                let e = try file.bytes(elst, 28)
                // The first entry with a media time (-1 is an empty edit, a delay).
                if e.first == 1, e.count >= 28 {
                    editStart = max(0, Int64(bitPattern: MP4Boxes.be(e[16..<24])))
                } else if e.count >= 16 {
                    editStart = max(0, Int64(Int32(bitPattern: UInt32(MP4Boxes.be(e[12..<16])))))
                }
            }
            return
        }
        return nil
    }
}

/// Box headers walked over a source, bounded by the ranges they claim.
struct MP4Boxes {
    let source: any MediaSource
    init(_ source: any MediaSource) { self.source = source }

    /// Where the type of each cover atom (`moov/udta/meta/ilst/covr`) larger than `limit`
    /// is: libavformat reads a cover whole, so these are hidden from it.
    func largeCovers(over limit: Int64) throws -> [Int64] {
        guard let moov = try child("moov", in: 0..<source.size),
              let udta = try child("udta", in: moov),
              let meta = try child("meta", in: udta),
              meta.count > 4,
              let ilst = try child("ilst", in: (meta.lowerBound + 4)..<meta.upperBound) else { return [] }
        // The content ranges found start after 8-byte headers (16 with a 64-bit size):
        // the type is 4 bytes before the content of an 8-byte header.
        return try children("covr", in: ilst).filter { Int64($0.count) > limit }.map { $0.lowerBound - 4 }
    }

    /// The boxes named `type` directly inside `range` (their contents' ranges).
    func children(_ type: String, in range: Range<Int64>) throws -> [Range<Int64>] {
        var found: [Range<Int64>] = []
        var at = range.lowerBound
        var walked = 0
        while at + 8 <= range.upperBound, walked < 4096 {
            walked += 1
            let h = try source.read(at: at, count: 16)
            guard h.count >= 8 else { break }
            var size = Int64(Self.be(h[0..<4]))
            var header: Int64 = 8
            if size == 1, h.count >= 16 {
                size = Int64(bitPattern: Self.be(h[8..<16]))
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, at + size <= range.upperBound else { break }
            if h[4..<8].elementsEqual(type.utf8) { found.append((at + header)..<(at + size)) }
            at += size
        }
        return found
    }

    func child(_ type: String, in range: Range<Int64>) throws -> Range<Int64>? { try children(type, in: range).first }

    func bytes(_ range: Range<Int64>, _ count: Int) throws -> [UInt8] {
        try source.read(at: range.lowerBound, count: Int(min(Int64(count), range.upperBound - range.lowerBound)))
    }

    static func be(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        return value
    }
}
