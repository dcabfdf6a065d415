import Foundation

/// MP4 files made at test time with Debian's ffmpeg (its native `aac` encoder and its
/// `alac`), from WAVs made with sox: AAC-LC and ALAC, mono and stereo at 44.1 and 48 kHz
/// each, HE-AAC (relabelled LC, see `heAAC(fromLC:)`),
/// a gapless album of three parts cut from one signal, and a chaptered audiobook.
/// Made once per run, in the shared fixture folder.
final class MP4Fixtures: Sendable {
    static let shared: MP4Fixtures = {
        do { return try MP4Fixtures() } catch { fatalError("cannot make MP4 fixtures: \(error)") }
    }()

    let fx = Fixtures.shared
    /// The gapless album's parts: name, first sample and length in the 4 s signal.
    static let albumParts = [("part1", 0, 70_001), ("part2", 70_001, 61_117), ("part3", 131_118, 45_282)]
    static let chapterTitles = ["Opening", "The Road", "A Storm", "Home Again", "Epilogue"]
    /// Where the audiobook's chapters start, in milliseconds (it lasts 10 s).
    static let chapterStarts = [0, 1500, 4000, 6250, 9000]

    func path(_ name: String) -> String { fx.path(name) }

    private init() throws {
        func sox(_ args: [String]) throws { try Tools.run("sox", args) }
        func ffmpeg(_ args: [String]) throws { try Tools.run("ffmpeg", ["-v", "error", "-y"] + args) }
        try sox(["-n", "-r", "48000", "-b", "16", "-c", "1", path("pluck48m.wav"), "synth", "3", "pluck", "A3", "gain", "-4"])
        try sox(["-n", "-r", "44100", "-b", "16", "-c", "1", path("pluck44m.wav"), "synth", "3", "pluck", "E3", "gain", "-4"])
        try sox(["-n", "-r", "48000", "-b", "16", "-c", "2", path("pluck48s.wav"), "synth", "3", "pluck", "G3", "pluck", "B4", "gain", "-4"])
        try sox(["-n", "-r", "48000", "-b", "24", "-c", "2", path("pluck48x24.wav"), "synth", "3", "pluck", "D3", "pluck", "F4", "gain", "-4"])
        // music16.wav is Fixtures' 6 s stereo 44.1 kHz.
        for (name, source) in [("aac44s", "music16.wav"), ("aac48m", "pluck48m.wav"), ("aac44m", "pluck44m.wav"), ("aac48s", "pluck48s.wav")] {
            try ffmpeg(["-i", path(source), "-c:a", "aac", "-b:a", "128k",
                        "-metadata", "title=Plucked", "-metadata", "artist=Test Band", "-metadata", "album_artist=Various",
                        "-metadata", "album=Fixtures", "-metadata", "track=3/12", "-metadata", "disc=1/2",
                        "-metadata", "date=2026", "-metadata", "genre=Test", "-metadata", "composer=Someone",
                        path("\(name).m4a")])
        }
        for (name, source) in [("alac44s", "music16.wav"), ("alac48m", "pluck48m.wav"), ("alac44m", "pluck44m.wav"),
                               ("alac48s", "pluck48s.wav"), ("alac48x24", "pluck48x24.wav")] {
            try ffmpeg(["-i", path(source), "-c:a", "alac", path("\(name).m4a")])
        }
        // A cover, as iTunes keeps it (`covr`).
        try ffmpeg(["-i", path("music16.wav"), "-i", path("cover.png"), "-map", "0", "-map", "1", "-c:a", "aac",
                    "-c:v", "copy", "-disposition:v", "attached_pic", path("covered.m4a")])
        // One signal, cut into three parts of lengths no AAC frame divides, each encoded alone.
        try sox(["-n", "-r", "44100", "-b", "16", "-c", "2", path("mp4-album.wav"), "synth", "4",
                 "sine", "300-900", "sine", "500-1200", "gain", "-6"])
        for (name, start, count) in Self.albumParts {
            try sox([path("mp4-album.wav"), path("\(name).wav"), "trim", "\(start)s", "\(count)s"])
            try ffmpeg(["-i", path("\(name).wav"), "-c:a", "aac", "-b:a", "160k", path("\(name).m4a")])
        }
        // An audiobook with five chapters. ffmpeg's mov muxer writes both kinds at once, a
        // QuickTime chapter track (a text track the audio's `tref/chap` points to) and
        // Nero's `chpl` list; each kind alone is that file with the other's box renamed.
        try sox(["-n", "-r", "44100", "-b", "16", "-c", "1", path("book.wav"), "synth", "10", "sine", "440", "gain", "-12"])
        var meta = ";FFMETADATA1\ntitle=The Book\n"
        for (i, title) in Self.chapterTitles.enumerated() {
            let end = i + 1 < Self.chapterStarts.count ? Self.chapterStarts[i + 1] : 10_000
            meta += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(Self.chapterStarts[i])\nEND=\(end)\ntitle=\(title)\n"
        }
        try Data(meta.utf8).write(to: URL(fileURLWithPath: path("book.ffmeta")))
        try ffmpeg(["-i", path("book.wav"), "-i", path("book.ffmeta"), "-map_metadata", "1", "-map_chapters", "1",
                    "-c:a", "aac", "-b:a", "64k", path("book.m4b")])
        // iTunes' way: no edit list, the priming and length in an `iTunSMPB` freeform atom;
        // and the loudness tags of ReplayGain and iTunes, as freeform atoms too.
        let part2Count = Self.albumParts[1].2
        try ffmpeg(["-i", path("part2.wav"), "-c:a", "aac", "-b:a", "160k", "-use_editlist", "0", path("part2-plain.m4a")])
        let hex = String(part2Count, radix: 16, uppercase: true)
        let smpb = " 00000000 00000400 00000000 " + String(repeating: "0", count: 16 - hex.count) + hex + " 00000000"
        _ = try fx.write("part2-itunes.m4a", Self.addingFreeform([("iTunSMPB", smpb)], to: try fx.bytes("part2-plain.m4a")))
        _ = try fx.write("loudness.m4a", Self.addingFreeform([
            ("replaygain_track_gain", "-6.50 dB"), ("replaygain_track_peak", "0.912"),
            ("replaygain_album_gain", "-7.25 dB"), ("replaygain_album_peak", "0.988"),
        ], to: try fx.bytes("aac44s.m4a")))
        _ = try fx.write("itunnorm.m4a", Self.addingFreeform([
            ("iTunNORM", " 000003E8 000003E8 00002710 00002710 00000000 00000000 00007FFF 00007FFF 00000000 00000000"),
        ], to: try fx.bytes("aac44s.m4a")))
        // HE-AAC, which no encoder in Debian writes: an AAC-LC encode at half the rate,
        // relabelled the way an SBR encoder's file is labelled (`heAAC(fromLC:)`).
        try sox(["-n", "-r", "22050", "-b", "16", "-c", "2", path("core22s.wav"), "synth", "4",
                 "sine", "300-900", "sine", "500-1200", "gain", "-6"])
        try ffmpeg(["-i", path("core22s.wav"), "-c:a", "aac", "-b:a", "64k", path("core22s.m4a")])
        _ = try fx.write("he44s.m4a", Self.heAAC(fromLC: try fx.bytes("core22s.m4a")))
        let book = try fx.bytes("book.m4b")
        _ = try fx.write("book-quicktime.m4b", Self.renaming("chpl", to: "xhpl", in: book))
        _ = try fx.write("book-nero.m4b", Self.renaming("chap", to: "xhap", in: book))
    }

    static func box(_ type: String, _ body: [UInt8], claiming extra: Int = 0) -> [UInt8] {
        bigEndian(8 + body.count + extra) + Array(type.utf8) + body
    }

    static func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }

    /// `----` atoms (mean com.apple.iTunes) added to the `ilst` of a file whose `moov` is
    /// after its audio (ffmpeg's default), so no chunk offset moves; the boxes around grow.
    static func addingFreeform(_ tags: [(String, String)], to file: [UInt8]) -> [UInt8] {
        var added: [UInt8] = []
        for (name, value) in tags {
            added += box("----", box("mean", [0, 0, 0, 0] + Array("com.apple.iTunes".utf8)) + box("name", [0, 0, 0, 0] + Array(name.utf8))
                + box("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array(value.utf8)))
        }
        var (out, at) = growingIlst(file, by: added.count)
        out.insert(contentsOf: added, at: at)
        return out
    }

    /// A `covr` atom of `size` bytes (a JPEG's first bytes, then zeros) written into the
    /// `ilst` of `file`, at `path`: the zeros are a hole in a sparse file, so a 200 MB
    /// cover costs the test neither memory nor disk.
    static func writingCover(of size: Int, into file: [UInt8], at path: String) throws {
        let start: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        let covr = box("covr", box("data", [0, 0, 0, 13, 0, 0, 0, 0] + start, claiming: size - start.count))
        let (grown, at) = growingIlst(file, by: covr.count + size - start.count)
        _ = FileManager.default.createFile(atPath: path, contents: Data(grown[..<at] + covr))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(at + covr.count + size - start.count))
        try handle.write(contentsOf: Data(grown[at...]))
        try handle.close()
    }

    /// `file` with `moov/udta/meta/ilst` and its parents grown by `count`, and where in it
    /// (the end of `ilst`) those bytes go.
    static func growingIlst(_ file: [UInt8], by count: Int) -> ([UInt8], Int) {
        func size(_ at: Int, _ bytes: [UInt8]) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        func find(_ type: String, _ bytes: [UInt8], from: Int, to: Int) -> Int? {
            var at = from
            while at + 8 <= to {
                if Array(bytes[(at + 4)..<(at + 8)]) == Array(type.utf8) { return at }
                at += size(at, bytes)
            }
            return nil
        }
        var out = file
        let moov = find("moov", out, from: 0, to: out.count)!
        let udta = find("udta", out, from: moov + 8, to: moov + size(moov, out))!
        let meta = find("meta", out, from: udta + 8, to: udta + size(udta, out))!
        let ilst = find("ilst", out, from: meta + 12, to: meta + size(meta, out))!
        let end = ilst + size(ilst, out)
        for parent in [moov, udta, meta, ilst] {
            out.replaceSubrange(parent..<(parent + 4), with: bigEndian(size(parent, out) + count))
        }
        return (out, end)
    }

    /// An AAC-LC file at 22,050 Hz, stereo, relabelled as HE-AAC (AAC with SBR) at 44,100,
    /// as an SBR encoder's muxer labels it:
    /// - the AudioSpecificConfig signals SBR explicitly: object type 5, core rate 22,050,
    ///   output rate 44,100, then the core's object type 2 (AAC-LC);
    /// - the track counts time at the output rate: the sample entry's rate, the media
    ///   timescale and duration, each packet's duration (2,048 output samples) and the
    ///   edit's start (the priming) are doubled.
    /// The packets carry no SBR data, so libavcodec's SBR stage fills no high band: its
    /// output is the core's band at twice the rate, in frames of 2,048, through the same
    /// code and the same rate change a real HE-AAC file takes. `moov` must follow the
    /// audio (ffmpeg's default), so no chunk offset moves when the `esds` grows.
    static func heAAC(fromLC file: [UInt8]) -> [UInt8] {
        var out = file
        func be(_ at: Int, _ count: Int) -> Int { out[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) } }
        func put(_ value: Int, _ at: Int, _ count: Int) {
            for i in 0..<count { out[at + i] = UInt8((value >> (8 * (count - 1 - i))) & 0xFF) }
        }
        func find(_ type: String, in parent: Int, skipping header: Int = 8) -> Int {
            var at = parent + header
            while at + 8 <= parent + be(parent, 4) {
                if Array(out[(at + 4)..<(at + 8)]) == Array(type.utf8) { return at }
                at += be(at, 4)
            }
            fatalError("no \(type) box in the LC fixture")
        }
        func doubled(_ at: Int, _ count: Int) { put(be(at, count) * 2, at, count) }
        var moov = 0, mdat: Int?
        while Array(out[(moov + 4)..<(moov + 8)]) != Array("moov".utf8) {
            if Array(out[(moov + 4)..<(moov + 8)]) == Array("mdat".utf8) { mdat = moov }
            moov += be(moov, 4)
        }
        precondition(mdat != nil, "moov before the audio: its chunk offsets would move")
        let trak = find("trak", in: moov)
        let mdia = find("mdia", in: trak)
        let mdhd = find("mdhd", in: mdia)
        if out[mdhd + 8] == 1 { doubled(mdhd + 28, 4); doubled(mdhd + 32, 8) } else { doubled(mdhd + 20, 4); doubled(mdhd + 24, 4) }
        let elst = find("elst", in: find("edts", in: trak))
        let wide = out[elst + 8] == 1
        for entry in 0..<be(elst + 12, 4) {
            let mediaTime = elst + 16 + entry * (wide ? 20 : 12) + (wide ? 8 : 4)
            // -1 is an empty edit, which stays.
            if out[mediaTime] & 0x80 == 0 { doubled(mediaTime, wide ? 8 : 4) }
        }
        let minf = find("minf", in: mdia)
        let stbl = find("stbl", in: minf)
        let stts = find("stts", in: stbl)
        for entry in 0..<be(stts + 12, 4) { doubled(stts + 16 + entry * 8 + 4, 4) }
        let stsd = find("stsd", in: stbl)
        let mp4a = find("mp4a", in: stsd, skipping: 16)
        put(44100 << 16, mp4a + 32, 4)
        let esds = find("esds", in: mp4a, skipping: 36)
        // Descriptors, tag then length (7 bits a byte, high bit for "more"): ES (3) holds a
        // 3-byte header and DecoderConfig (4), whose 13 bytes are followed by the
        // DecoderSpecificInfo (5), which is the AudioSpecificConfig.
        func descriptor(at tag: Int) -> (lengthBytes: Int, body: Int, length: Int) {
            var at = tag + 1, length = 0
            repeat { length = length << 7 | Int(out[at] & 0x7F); at += 1 } while out[at - 1] & 0x80 != 0
            return (at - tag - 1, at, length)
        }
        func setLength(of tag: Int, _ length: Int) {
            let bytes = descriptor(at: tag).lengthBytes
            for i in 0..<bytes { out[tag + 1 + i] = UInt8((length >> (7 * (bytes - 1 - i))) & 0x7F) | (i < bytes - 1 ? 0x80 : 0) }
        }
        let es = esds + 12
        precondition(out[es] == 3 && out[descriptor(at: es).body + 2] == 0, "an ES descriptor with optional fields")
        let config = descriptor(at: es).body + 3
        let specific = descriptor(at: config).body + 13
        precondition(out[config] == 4 && out[specific] == 5)
        // 00101 0111 0010 0100 00010 000, padded: SBR, 22,050 Hz, 2 channels, 44,100 Hz,
        // AAC-LC, 1,024-sample core frames.
        let heConfig: [UInt8] = [0x2B, 0x92, 0x08, 0x00]
        let (_, body, length) = descriptor(at: specific)
        let growth = heConfig.count - length
        out.replaceSubrange(body..<(body + length), with: heConfig)
        setLength(of: specific, heConfig.count)
        setLength(of: config, descriptor(at: config).length + growth)
        setLength(of: es, descriptor(at: es).length + growth)
        for box in [moov, trak, mdia, minf, stbl, stsd, mp4a, esds] { put(be(box, 4) + growth, box, 4) }
        return out
    }

    /// Every box type `name` in `bytes` renamed to `other` (the same length), so readers skip it.
    static func renaming(_ name: String, to other: String, in bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        let from = Array(name.utf8), to = Array(other.utf8)
        for i in 0..<(out.count - 4) where Array(out[i..<(i + 4)]) == from { out.replaceSubrange(i..<(i + 4), with: to) }
        return out
    }

    /// `ffmpeg -f s16le` of a file: the same libavcodec, its priming dropped, its padding kept.
    func ffmpegReference(_ name: String, format: String = "s16le") throws -> Data {
        try Tools.run("ffmpeg", ["-v", "error", "-i", path(name), "-f", format, "-"]).stdout
    }

    /// A WAV's samples as raw little-endian PCM (sox).
    func wavData(_ name: String) throws -> Data {
        try Tools.run("sox", [path(name), "-t", "raw", "-"]).stdout
    }
}
