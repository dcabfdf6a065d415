import Foundation
import Testing
@testable import JukeboxCore

/// Damaged and odd files: each gives a specific error or plays its decodable part, in
/// bounded time and memory. These run the real binary, so a crash or hang fails the test
/// instead of taking the test runner down.
@Suite struct BadInputTests {
    let fx = Fixtures.shared

    struct Run {
        var status: Int32
        var probe: [String: Any]
        var stderr: String
    }

    /// `jukebox probe --json` under a time limit; returns its single report.
    func probe(_ path: String) throws -> Run {
        let out = try Tools.run("timeout", ["20", Tools.jukebox, "probe", "--json", path], check: false)
        #expect(out.status == 0 || out.status == 1, "exit \(out.status) (124 = hang, >128 = crash): \(out.stderr)")
        let array = try JSONSerialization.jsonObject(with: out.stdout) as? [[String: Any]]
        return Run(status: out.status, probe: array?.first ?? [:], stderr: out.stderr)
    }

    /// `jukebox decode -o -` under a time limit: how many bytes came out.
    func decode(_ path: String) throws -> (status: Int32, bytes: Int, stderr: String) {
        let out = try Tools.run("timeout", ["20", Tools.jukebox, "decode", path, "-o", "-"], check: false)
        #expect(out.status == 0 || out.status == 1, "exit \(out.status) (124 = hang, >128 = crash): \(out.stderr)")
        return (out.status, out.stdout.count, out.stderr)
    }

    func error(_ run: Run) -> String { run.probe["error"] as? String ?? "" }

    @Test func emptyFile() throws {
        let run = try probe(fx.write("empty.flac", []))
        #expect(run.status == 1)
        #expect(run.probe["ok"] as? Bool == false)
        #expect(error(run) == "empty file")
    }

    @Test func randomBytes() throws {
        var generator = SystemRandomNumberGenerator()
        for i in 0..<5 {
            let junk = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let run = try probe(fx.write("random\(i).mp3", junk))
            #expect(run.probe["ok"] as? Bool == false)
            #expect(error(run).contains("not a supported audio file"), "\(error(run))")
        }
    }

    /// One rule for probe and playback: what plays is reported playable, with the damage
    /// named; what does not play is refused.
    @Test(arguments: ["music16.flac", "music.mp3", "music16.wav"])
    func truncatedFiles(_ name: String) throws {
        let whole = try fx.bytes(name)
        for fraction in [0.5, 0.01] {
            let cut = try fx.write("cut\(fraction)-\(name)", Array(whole.prefix(Int(Double(whole.count) * fraction))))
            let run = try probe(cut)
            let decoded = try decode(cut)
            if decoded.status == 0 { #expect(decoded.bytes < 264_600 * 4) }
            let plays = decoded.status == 0 && decoded.bytes > 0
            #expect(run.probe["ok"] as? Bool == plays, "\(name) cut to \(fraction): probe \(run.probe), decode \(decoded.bytes) bytes")
            if plays {
                // An MP3 without a length header is measured by its frames, so it reports
                // the part that is there; every other length is checked against the audio.
                let warnings = run.probe["warnings"] as? [String] ?? []
                let seconds = try #require(run.probe["durationSeconds"] as? Double)
                #expect(warnings.contains { $0.contains("truncated") } || seconds < 6 * fraction + 0.1, "\(warnings)")
            } else {
                #expect(error(run).contains("truncated") || error(run).contains("corrupt"), "\(error(run))")
            }
        }
    }

    @Test func truncatedFlacPlaysItsDecodablePart() throws {
        let whole = try fx.bytes("music16.flac")
        let cut = try fx.write("half.flac", Array(whole.prefix(whole.count / 2)))
        let decoded = try decode(cut)
        #expect(decoded.status == 0)
        #expect(decoded.bytes > 0 && decoded.bytes < 264_600 * 4)
        #expect(decoded.stderr.contains("truncated"))
        let reference = try fx.flacReference("music16.flac")
        let ours = try Tools.run(Tools.jukebox, ["decode", cut, "-o", "-"]).stdout
        #expect(ours == reference.prefix(ours.count))
    }

    @Test func hugeID3TagStillPlays() throws {
        var tag = ID3Builder(version: 3)
        tag.text("TIT2", "Big Cover", .latin1)
        tag.picture(mime: "image/jpeg", bytes: [UInt8](repeating: 0x5A, count: 5 * 1024 * 1024))
        let path = try fx.write("bigtag.mp3", tag.build() + fx.bytes("cbr.mp3"))
        let run = try probe(path)
        #expect(run.probe["ok"] as? Bool == true)
        #expect(run.probe["title"] as? String == "Big Cover")
        #expect(run.probe["hasCover"] as? Bool == true)
        let ours = try Tools.run(Tools.jukebox, ["decode", path, "-o", "-"]).stdout
        #expect(ours == (try fx.mpg123Reference("cbr.mp3")))
        let decode = try Tools.peakMemory(Tools.jukebox, ["decode", path, "-o", "/dev/null"])
        #expect(decode.status == 0)
        #expect(decode.peakBytes < 200 * 1024 * 1024, "peak RSS \(decode.peakBytes >> 10) KiB")
    }

    /// `music16.flac` with `block` (type, body) put right after its STREAMINFO.
    func flac(inserting block: (type: UInt8, body: [UInt8])) throws -> [UInt8] {
        let bytes = try fx.bytes("music16.flac")
        let streamInfoEnd = 4 + 4 + 34
        precondition(bytes[4] & 0x7F == 0 && bytes[4] & 0x80 == 0, "STREAMINFO first, not last")
        let length = block.body.count
        let header = [block.type, UInt8(length >> 16), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
        return Array(bytes[..<streamInfoEnd]) + header + block.body + Array(bytes[streamInfoEnd...])
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
    static func littleEndian(_ value: UInt32) -> [UInt8] { [0, 8, 16, 24].map { UInt8((value >> $0) & 0xFF) } }

    /// Issue 33 #13: one bad metadata block (a PICTURE claiming 4 GiB, a Vorbis comment
    /// count past what libFLAC takes, or one past the block) is skipped and the audio plays,
    /// sample for sample what `flac -d` gives for the file without it.
    @Test(arguments: ["picture", "comments", "comments-in-range"])
    func aFlacWithOneBadMetadataBlockPlays(_ kind: String) throws {
        let mime = Array("image/jpeg".utf8)
        let block: (UInt8, [UInt8]) = switch kind {
        case "picture":
            (6, Self.bigEndian(3) + Self.bigEndian(UInt32(mime.count)) + mime + [UInt32](repeating: 0, count: 5).flatMap(Self.bigEndian)
                + Self.bigEndian(0xFFFF_FFFF) + [UInt8](repeating: 0xFF, count: 100))
        case "comments":
            (4, Self.littleEndian(1) + [0x78] + Self.littleEndian(0xFFFF_FFF0) + Self.littleEndian(5) + Array("A=bcd".utf8))
        default:
            (4, Self.littleEndian(1) + [0x78] + Self.littleEndian(100_000) + Self.littleEndian(5) + Array("A=bcd".utf8))
        }
        let path = try fx.write("bad-\(kind).flac", flac(inserting: block))
        let run = try probe(path)
        #expect(run.probe["ok"] as? Bool == true, "\(run.probe) \(run.stderr)")
        let ours = try Tools.run(Tools.jukebox, ["decode", path, "-o", "-"]).stdout
        expectSame(ours, try fx.flacReference("music16.flac"))
    }

    /// Issue 33 #13: an ID3v2 tag claiming 256 MB in front of a small MP3 is a damaged
    /// size: the audio after it plays, exactly as the file without the tag does.
    @Test func anMP3WhoseTagClaims256MBPlays() throws {
        var tag = ID3Builder(version: 3)
        tag.text("TIT2", "Claims Too Much", .latin1)
        var bytes = tag.build()
        bytes.replaceSubrange(6..<10, with: [0x7F, 0x7F, 0x7F, 0x7F])  // 256 MB - 1, synchsafe
        let path = try fx.write("claims-256mb.mp3", bytes + (try fx.bytes("cbr.mp3")))
        let run = try probe(path)
        #expect(run.probe["ok"] as? Bool == true, "\(run.probe) \(run.stderr)")
        #expect(run.probe["title"] as? String == "Claims Too Much")
        let ours = try Tools.run(Tools.jukebox, ["decode", path, "-o", "-"]).stdout
        #expect(ours == (try fx.mpg123Reference("cbr.mp3")))
        let decode = try Tools.peakMemory(Tools.jukebox, ["decode", path, "-o", "/dev/null"])
        #expect(decode.peakBytes < 100 * 1024 * 1024, "peak RSS \(decode.peakBytes >> 10) KiB")
        // A tag that really runs past the end, with no audio after its header, is still named so.
        let cut = try probe(try fx.write("tag-only.mp3", bytes))
        #expect(error(cut).contains("ID3v2"), "\(cut.probe)")
    }

    @Test func bitFlipsInTheMiddleOfAFlac() throws {
        var bytes = try fx.bytes("music16.flac")
        var generator = SplitMix(seed: 7)
        for _ in 0..<30 {
            let at = bytes.count / 3 + Int(generator.next() % UInt64(bytes.count / 3))
            bytes[at] ^= UInt8(1 << (generator.next() % 8))
        }
        let path = try fx.write("flipped.flac", bytes)
        let decoded = try decode(path)
        #expect(decoded.status == 0)
        // Damaged frames become silence: the timeline keeps its full length.
        #expect(decoded.bytes == 264_600 * 4)
        #expect(decoded.stderr.contains("CRC") || decoded.stderr.contains("sync"))
        // Identical to flac's own decoder told to carry on through errors.
        let reference = try Tools.run("flac", ["-s", "-d", "-c", "-F", "--force-raw-format", "--endian=little",
                                               "--sign=signed", path], check: false).stdout
        let ours = try Tools.run(Tools.jukebox, ["decode", path, "-o", "-"]).stdout
        expectSame(ours, reference)
    }

    @Test func wrongExtensionPlaysByContent() throws {
        let path = try fx.write("named-wrong.flac", fx.bytes("music.mp3"))
        let run = try probe(path)
        #expect(run.probe["ok"] as? Bool == true)
        #expect(run.probe["format"] as? String == "mp3")
    }

    @Test func otherFormatsAreNamed() throws {
        let ogg = try fx.write("vorbis.flac", Array("OggS".utf8) + [UInt8](repeating: 1, count: 100))
        #expect(error(try probe(ogg)).contains("Ogg"))
        let id3Only = try fx.write("tag-only.mp3", ID3Builder(version: 3).build())
        #expect(error(try probe(id3Only)).contains("truncated"))
    }
}

/// Damaged MP4s: a clear message naming the file, or the part that decodes, never a hang.
extension BadInputTests {
    var mp4: MP4Fixtures { MP4Fixtures.shared }

    /// FFmpeg writes the index (`moov`) after the audio: cut off, nothing can be found.
    @Test func anMP4CutBeforeItsIndexIsRefusedByName() throws {
        let whole = try mp4.fx.bytes("aac44s.m4a")
        let cut = try fx.write("cut-moov.m4a", Array(whole.prefix(whole.count / 2)))
        let run = try probe(cut)
        #expect(run.probe["ok"] as? Bool == false)
        #expect(error(run).contains("truncated") && error(run).contains("moov"), "\(error(run))")
        let decoded = try decode(cut)
        #expect(decoded.status == 1)
        #expect(decoded.stderr.contains(cut), "\(decoded.stderr)")
    }

    /// With the index first (`+faststart`), a cut file plays up to the cut, and says so.
    @Test func anIndexFirstMP4CutShortPlaysItsPart() throws {
        let faststart = fx.path("faststart.m4a")
        try Tools.run("ffmpeg", ["-v", "error", "-y", "-i", fx.path("music16.wav"), "-c:a", "aac", "-movflags", "+faststart", faststart])
        let whole = try fx.bytes("faststart.m4a")
        let cut = try fx.write("cut-faststart.m4a", Array(whole.prefix(whole.count / 2)))
        let run = try probe(cut)
        #expect(run.probe["ok"] as? Bool == true, "\(run.probe)")
        let warnings = run.probe["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("truncated") }, "\(warnings)")
        let decoded = try decode(cut)
        #expect(decoded.status == 0)
        #expect(decoded.bytes > 264_600 && decoded.bytes < 264_600 * 4)
    }

    /// A 200 MB cover is stepped over unread: the audio plays, memory stays small.
    @Test func anMP4With200MBCoverPlaysWithoutIt() throws {
        let path = fx.path("bigcover.m4a")
        try MP4Fixtures.writingCover(of: 200 << 20, into: try mp4.fx.bytes("aac44s.m4a"), at: path)
        let run = try probe(path)
        #expect(run.probe["ok"] as? Bool == true, "\(run.probe)")
        #expect(run.probe["title"] as? String == "Plucked")
        #expect(run.probe["hasCover"] as? Bool == false)
        let decode = try Tools.peakMemory(Tools.jukebox, ["decode", path, "-o", "/dev/null"])
        #expect(decode.status == 0)
        #expect(decode.peakBytes < 120 * 1024 * 1024, "peak RSS \(decode.peakBytes >> 10) KiB")
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A box without FFmpeg: the M4A is refused with what to install, the FLAC beside it
    /// plays. (libavformat is hidden in a mount namespace of the probe's own.)
    @Test func withoutFFmpegAnM4AIsRefusedWithWhatToInstall() throws {
        let library = try #require(["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib/arm-linux-gnueabihf"]
            .map { "\($0)/libavformat.so.59" }.first { FileManager.default.fileExists(atPath: $0) })
        let real = URL(fileURLWithPath: library).resolvingSymlinksInPath().path
        let script = "mount --bind /dev/null \(real) && exec \(Tools.jukebox) probe --json \(mp4.path("aac44s.m4a")) \(fx.path("music16.flac"))"
        let out = try Tools.run("timeout", ["20", "unshare", "-m", "sh", "-c", script], check: false)
        let reports = try #require(try JSONSerialization.jsonObject(with: out.stdout) as? [[String: Any]], "\(out.stderr)")
        #expect(reports.count == 2)
        #expect(reports.first?["ok"] as? Bool == false)
        let reason = reports.first?["error"] as? String ?? ""
        #expect(reason.contains("apt install libavformat59"), "\(reason)")
        #expect(reports.last?["ok"] as? Bool == true)
    }

    @Test func anMP3NamedM4AIsAnMP3() throws {
        let path = try fx.write("really-mp3.m4a", fx.bytes("music.mp3"))
        let run = try probe(path)
        #expect(run.probe["ok"] as? Bool == true)
        #expect(run.probe["format"] as? String == "mp3")
    }

    /// Garbage over part of the audio: the damaged frames are skipped and the rest plays.
    @Test func anMP4WithDamagedAudioPlaysOn() throws {
        var bytes = try mp4.fx.bytes("aac44s.m4a")
        var generator = SystemRandomNumberGenerator()
        for i in 40_000..<48_000 { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
        let path = try fx.write("damaged.m4a", bytes)
        let run = try probe(path)
        #expect(run.probe["ok"] as? Bool == true, "\(run.probe)")
        let decoded = try decode(path)
        #expect(decoded.status == 0)
        #expect(decoded.bytes > 264_600 * 2, "most of the audio plays")
    }
}
