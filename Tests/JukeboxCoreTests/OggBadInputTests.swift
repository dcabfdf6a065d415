import Foundation
import Testing
@testable import JukeboxCore

/// Damaged Ogg Vorbis and Opus files, through the real binary (a crash or a hang fails
/// the test, not the runner): a corrupt page mid-file, junk after `OggS`.
extension BadInputTests {
    /// Byte offsets of the Ogg pages in `bytes`.
    static func pages(_ bytes: [UInt8]) -> [Int] {
        (0..<(bytes.count - 4)).filter { bytes[$0] == 0x4F && bytes[$0 + 1] == 0x67 && bytes[$0 + 2] == 0x67 && bytes[$0 + 3] == 0x53 }
    }

    /// `name` with the middle page's body overwritten: its checksum fails and the page is lost.
    func damagedMiddlePage(_ name: String) throws -> String {
        var bytes = try fx.bytes(name)
        let pages = Self.pages(bytes)
        let middle = pages[pages.count / 2]
        for i in (middle + 40)..<(middle + 60) { bytes[i] ^= 0x55 }
        return try fx.write("damaged-page-\(name)", bytes)
    }

    /// The page is stepped over with a warning, what it held becomes silence so the length
    /// stays the header's, and the rest is oggdec's audio (oggdec skips the hole too).
    @Test(arguments: ["stereo44.ogg", "stereo44.opus"])
    func corruptOggPageIsSteppedOver(_ name: String) throws {
        let ogg = OggFixtures.shared
        let path = try damagedMiddlePage(name)
        let out = try Tools.run("timeout", ["20", Tools.jukebox, "decode", path, "-o", "-"], check: false)
        #expect(out.status == 0, "\(out.stderr)")
        let frames: Int64 = name.hasSuffix(".opus") ? 288_000 : 264_600
        #expect(Int64(out.stdout.count) == frames * 4, "the length stays the header's")
        #expect(out.stderr.contains("damaged or missing Ogg page"), "\(out.stderr)")
        #expect(out.stderr.contains("replaced by silence"), "\(out.stderr)")
        guard name.hasSuffix(".ogg") else { return }
        // Ours is oggdec's with the lost stretch put back as silence.
        let ours = [UInt8](out.stdout), reference = [UInt8](try ogg.oggdecReference("damaged-page-\(name)"))
        let head = zip(ours, reference).prefix { $0 == $1 }.count / 4 * 4
        let tail = zip(ours.reversed(), reference.reversed()).prefix { $0 == $1 }.count / 4 * 4
        #expect(head + tail >= reference.count, "head \(head) + tail \(tail) of \(reference.count)")
        #expect(ours[head..<(ours.count - (reference.count - head))].allSatisfy { $0 == 0 })
    }

    /// Junk after a signature: named as what it is, with the file's name, promptly.
    @Test func junkAfterOggSignatureIsRefusedClearly() throws {
        let ogg = OggFixtures.shared
        var generator = SystemRandomNumberGenerator()
        let junk = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let bare = try fx.write("junk-after-oggs.ogg", Array("OggS".utf8) + junk)
        let run = try probe(bare)
        #expect(run.status == 1)
        #expect(error(run).contains("Ogg"), "\(error(run))")
        // A good first page (the codec's identification header), then junk.
        for name in ["stereo44.ogg", "stereo44.opus"] {
            let first = try fx.bytes(name)
            let path = try fx.write("first-page-then-junk-\(name)", Array(first.prefix(Self.pages(first)[1])) + junk)
            let run = try probe(path)
            #expect(run.status == 1)
            #expect(error(run).contains("corrupt"), "\(name): \(error(run))")
            let decoded = try decode(path)
            #expect(decoded.status == 1)
            #expect(decoded.stderr.contains(path), "\(decoded.stderr)")
        }
        _ = ogg
    }

    /// Cut short: what is there plays, to the last whole page; cut inside the headers, the
    /// file is refused as corrupt.
    @Test(arguments: ["stereo44.ogg", "stereo44.opus"])
    func truncatedOggPlaysWhatIsThere(_ name: String) throws {
        _ = OggFixtures.shared
        let whole = try fx.bytes(name)
        let half = try fx.write("half-\(name)", Array(whole.prefix(whole.count / 2)))
        let decoded = try decode(half)
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let run = try probe(half)
        let seconds = try #require(run.probe["durationSeconds"] as? Double)
        #expect(seconds > 1 && seconds < 4.5, "\(seconds)")
        // The length is the last whole page's, and that is what plays.
        #expect(decoded.bytes == Int(try AudioFile.open(half).info.totalFrames) * 4)
        let stub = try fx.write("stub-\(name)", Array(whole.prefix(200)))
        let refused = try probe(stub)
        #expect(refused.status == 1)
        #expect(error(refused).contains("corrupt"), "\(error(refused))")
    }
}

/// Probe and playback agree on Ogg files with bits flipped anywhere, in the process
/// itself: libvorbisfile and libopusfile must neither crash nor hang on any of them.
@Suite struct DamagedOggVerdictTests {
    @Test(arguments: ["stereo44.ogg", "stereo44.opus"])
    func probeAndPlaybackAgreeOnFlippedBits(_ name: String) throws {
        let ogg = OggFixtures.shared
        let original = try ogg.fx.bytes(name)
        var disagreements: [String] = []
        // Offsets spread over the headers and the audio, the same on every run.
        let offsets = (0..<40).map { 4 + ($0 * $0 * 997) % (original.count - 4) } + Array(stride(from: 4, to: 120, by: 7))
        for (n, offset) in offsets.enumerated() {
            var bytes = original
            bytes[offset] ^= UInt8(1 << (n % 8))
            let path = try ogg.fx.write("flipped-\(n)-\(name)", bytes)
            defer { unlink(path) }
            let report = ProbeReport(path: path)
            if report.ok != DamagedFLACVerdictTests.plays(path) {
                let verdict = (try? report.result.get()).map { _ in "probe ok" } ?? "probe refused"
                disagreements.append("byte \(offset) bit \(n % 8): \(verdict), playback \(report.ok ? "refused" : "plays")")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
    }
}
