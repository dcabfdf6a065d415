import Foundation
import Testing
@testable import JukeboxCore

/// AAC and ALAC in MP4 through FFmpeg, against their sources and `ffmpeg` itself.
@Suite struct MP4DecoderTests {
    let mp4 = MP4Fixtures.shared

    func decodeAll(_ name: String) throws -> (any AudioDecoder, Data) {
        let decoder = try AudioFile.open(mp4.path(name))
        return (decoder, Data(try decoder.readAll()))
    }

    static func int16s(_ data: Data) -> [Int16] { data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) } }

    @Test(arguments: [("alac44s.m4a", "music16.wav"), ("alac48m.m4a", "pluck48m.wav"), ("alac44m.m4a", "pluck44m.wav"),
                      ("alac48s.m4a", "pluck48s.wav"), ("alac48x24.m4a", "pluck48x24.wav")])
    func alacIsBitExactAgainstItsSource(_ name: String, _ source: String) throws {
        let (decoder, ours) = try decodeAll(name)
        let reference = try mp4.wavData(source)
        #expect(decoder.container == .mp4)
        #expect(ours.count == reference.count)
        expectSame(ours, reference, name)
        #expect(Int64(ours.count) == decoder.info.totalFrames * Int64(decoder.info.bytesPerFrame))
    }

    @Test func alacKeepsItsFormat() throws {
        func shape(_ name: String) throws -> StreamInfo {
            var info = try AudioFile.open(mp4.path(name)).info
            info.bitrate = nil
            return info
        }
        #expect(try shape("alac44s.m4a") == StreamInfo(sampleRate: 44100, channels: 2, sampleFormat: .s16, totalFrames: 264_600))
        #expect(try shape("alac48m.m4a") == StreamInfo(sampleRate: 48000, channels: 1, sampleFormat: .s16, totalFrames: 144_000))
        #expect(try shape("alac48x24.m4a") == StreamInfo(sampleRate: 48000, channels: 2, sampleFormat: .s24, totalFrames: 144_000))
    }

    /// The same libavcodec decodes both, and ffmpeg's float-to-16-bit rounds as ours does,
    /// so the samples are identical; ffmpeg's command line drops the priming but keeps the
    /// padding, so it runs on past the source's length, which ours stops at.
    @Test(arguments: [("aac44s.m4a", "music16.wav", 44100, 2), ("aac48m.m4a", "pluck48m.wav", 48000, 1),
                      ("aac44m.m4a", "pluck44m.wav", 44100, 1), ("aac48s.m4a", "pluck48s.wav", 48000, 2)])
    func aacMatchesFFmpegAndKeepsTheSourceLength(_ name: String, _ source: String, _ rate: Int, _ channels: Int) throws {
        let (decoder, ours) = try decodeAll(name)
        let sourceBytes = try mp4.wavData(source).count
        #expect(decoder.info.sampleRate == rate)
        #expect(decoder.info.channels == channels)
        #expect(decoder.info.sampleFormat == .s16)
        #expect(ours.count == sourceBytes, "the source's exact length")
        #expect(decoder.info.totalFrames * Int64(2 * channels) == Int64(sourceBytes))
        let reference = try mp4.ffmpegReference(name)
        #expect(reference.count >= ours.count)
        let worst = zip(Self.int16s(ours), Self.int16s(reference)).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(name) deviates from ffmpeg by \(worst)")
    }

    /// HE-AAC: the rate and frame size come from the decoder, not from the container's
    /// core rate: twice the core's rate, and the core's length doubled exactly.
    /// libavcodec takes the container's priming as counted at the core's rate and skips it
    /// twice over, so the first frame it gives starts 2,048 samples into the track: that
    /// much silence, then `ffmpeg`'s own samples (the same libavcodec).
    @Test func heAACPlaysAtTheSBRRate() throws {
        let (decoder, ours) = try decodeAll("he44s.m4a")
        let coreFrames = try mp4.wavData("core22s.wav").count / 4
        #expect(decoder.info.sampleRate == 44100)
        #expect(decoder.info.channels == 2)
        #expect(decoder.info.totalFrames == Int64(2 * coreFrames))
        #expect(ours.count == 2 * coreFrames * 4)
        let samples = Self.int16s(ours), lead = 2048 * 2
        #expect(samples[..<lead].allSatisfy { $0 == 0 })
        let reference = Self.int16s(try mp4.ffmpegReference("he44s.m4a"))
        #expect(reference.count >= samples.count - lead)
        let worst = zip(samples[lead...], reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "he44s.m4a deviates from ffmpeg by \(worst)")
    }

    /// The first sample out is the source's first: the priming is gone, nothing else.
    @Test func aacIsAlignedWithItsSource() throws {
        let (_, ours) = try decodeAll("part1.m4a")
        let source = Self.int16s(try mp4.wavData("part1.wav"))
        let decoded = Self.int16s(ours)
        #expect(decoded.count == source.count)
        #expect(Self.bestLag(decoded, source, within: 64) == 0)
    }

    /// Three parts of one signal, encoded alone, played one after another: exactly the
    /// signal's length, and every part lands where it was cut from.
    @Test func gaplessAlbumJoinsAtTheRightSamples() throws {
        var joined: [Int16] = []
        for (name, _, count) in MP4Fixtures.albumParts {
            let (decoder, ours) = try decodeAll("\(name).m4a")
            #expect(decoder.info.totalFrames == Int64(count), "\(name)")
            joined += Self.int16s(ours)
        }
        let whole = Self.int16s(try mp4.wavData("mp4-album.wav"))
        #expect(joined.count == whole.count)
        for (name, start, count) in MP4Fixtures.albumParts {
            // Around each join, the decoded signal lines up with the original, lag 0.
            let from = 2 * max(0, start - 2000), to = 2 * min(whole.count / 2, start + min(count, 4000))
            #expect(Self.bestLag(Array(joined[from..<to]), Array(whole[from..<to]), within: 64) == 0, "\(name)")
            // Lossy but close: the error is small against the signal.
            #expect(Self.snr(Array(joined[from..<to]), Array(whole[from..<to])) > 15, "\(name)")
        }
    }

    /// An iTunes-style file (no edit list; priming and length in `iTunSMPB`) decodes to
    /// exactly what the same encode with an edit list does.
    @Test func iTunSMPBTrimsAsTheEditListDoes() throws {
        let (itunes, ours) = try decodeAll("part2-itunes.m4a")
        let (_, edited) = try decodeAll("part2.m4a")
        #expect(itunes.info.totalFrames == Int64(MP4Fixtures.albumParts[1].2))
        expectSame(ours, edited)
    }

    /// It seeks to the same samples too: positions count from the track's first sample,
    /// which in such a file is the priming's length after the stream's first.
    @Test func iTunSMPBSeeksAsTheEditListDoes() throws {
        for fraction in [0.003, 0.17, 0.5, 0.78] {
            var decoded: [Data] = []
            for name in ["part2-itunes.m4a", "part2.m4a"] {
                let decoder = try AudioFile.open(mp4.path(name))
                try decoder.seek(toFrame: Int64(Double(decoder.info.totalFrames) * fraction))
                decoded.append(Data(try decoder.readAll(maxFrames: 4000)))
            }
            expectSame(decoded[0], decoded[1], "at \(fraction) of the track")
        }
    }

    @Test func loudnessTagsReachReplayGain() throws {
        let gain = try AudioFile.metadata(mp4.path("loudness.m4a")).replayGain
        #expect(gain == ReplayGainTags(trackGain: -6.5, trackPeak: 0.912, albumGain: -7.25, albumPeak: 0.988))
        #expect(try AudioFile.metadata(mp4.path("itunnorm.m4a")).replayGain.trackGain != nil)
        // The other tags are still read beside them.
        #expect(try AudioFile.metadata(mp4.path("loudness.m4a")).title == "Plucked")
    }

    @Test(arguments: ["alac44s.m4a", "alac48x24.m4a"])
    func alacSeekIsExact(_ name: String) throws {
        let (_, all) = try decodeAll(name)
        try expectExactSeeks(mp4.path(name), whole: all, at: [0.0, 0.25, 1.5, 2.999], name)
    }

    /// After a seek, decoding starts two frames early so the overlap is rebuilt: the
    /// samples then equal the full decode's but for the noise substituted for noise-like
    /// bands (PNS), which the decoder draws from a generator whose state a seek cannot
    /// restore: a few LSB. A seek to the start is exact (a new decoder, as at open).
    @Test(arguments: ["aac44s.m4a", "aac48m.m4a", "he44s.m4a"])
    func aacSeekMatchesTheFullDecode(_ name: String) throws {
        let (full, all) = try decodeAll(name)
        let samples = Self.int16s(all)
        let channels = full.info.channels
        for fraction in [0.0, 0.003, 0.17, 0.5, 0.78, 0.997] {
            let decoder = try AudioFile.open(mp4.path(name))
            let frame = Int64(Double(decoder.info.totalFrames) * fraction)
            try decoder.seek(toFrame: frame)
            #expect(decoder.position == frame)
            let part = Self.int16s(Data(try decoder.readAll(maxFrames: 20_000)))
            let expected = samples[(Int(frame) * channels)..<min(samples.count, (Int(frame) + 20_000) * channels)]
            #expect(part.count == expected.count)
            let worst = zip(part, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= (frame == 0 ? 0 : 8), "\(name) at frame \(frame) deviates by \(worst)")
        }
    }

    @Test func tagsAndCoverReachTheTagModel() throws {
        let m = try AudioFile.metadata(mp4.path("aac44s.m4a"))
        #expect(m.title == "Plucked")
        #expect(m.artist == "Test Band")
        #expect(m.albumArtist == "Various")
        #expect(m.album == "Fixtures")
        #expect(m.trackNumber == 3 && m.trackTotal == 12)
        #expect(m.discNumber == 1 && m.discTotal == 2)
        #expect(m.date == "2026")
        #expect(m.genre == "Test")
        #expect(m.composer == "Someone")
        let covered = try AudioFile.metadata(mp4.path("covered.m4a"))
        #expect(covered.cover?.mimeType == "image/png")
        #expect(covered.cover?.data == (try mp4.fx.bytes("cover.png")))
    }

    @Test(arguments: ["book.m4b", "book-quicktime.m4b", "book-nero.m4b"])
    func chaptersAreListed(_ name: String) throws {
        let decoder = try #require(try AudioFile.open(mp4.path(name)) as? MP4Decoder)
        let chapters = AudioFile.chapters(of: mp4.path(name), metadata: decoder.metadata, info: decoder.info)
        #expect(chapters.map(\.title) == MP4Fixtures.chapterTitles)
        #expect(chapters.map(\.startFrame) == MP4Fixtures.chapterStarts.map { Int64($0) * 44100 / 1000 })
        #expect(chapters.last?.endFrame == decoder.info.totalFrames)
        #expect(decoder.metadata.title == "The Book")
    }

    /// `jukebox probe` lists them, with their times, as text and as JSON.
    @Test func probeListsTheChapters() throws {
        let text = try Tools.run(Tools.jukebox, ["probe", mp4.path("book.m4b")]).stdout
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.contains("  chapters 001  0:00.000  Opening"), "\(lines)")
        #expect(lines.contains("           005  0:09.000  Epilogue"), "\(lines)")
        let json = try Tools.run(Tools.jukebox, ["probe", "--json", mp4.path("book.m4b")]).stdout
        let report = try #require((try JSONSerialization.jsonObject(with: json) as? [[String: Any]])?.first)
        let chapters = try #require(report["chapters"] as? [[String: Any]])
        #expect(chapters.compactMap { $0["title"] as? String } == MP4Fixtures.chapterTitles)
        #expect(chapters.compactMap { $0["startSeconds"] as? Double } == MP4Fixtures.chapterStarts.map { Double($0) / 1000 })
    }

    // MARK: Signal comparison

    /// The shift of `a` against `b` (in frames of interleaved pairs or singles: samples
    /// here) that matches best, within ±`window`.
    static func bestLag(_ a: [Int16], _ b: [Int16], within window: Int) -> Int {
        var best = (lag: 0, error: Double.infinity)
        let n = min(a.count, b.count)
        for lag in -window...window {
            var error = 0.0
            var i = max(0, -lag) + 2 * window
            while i < n - 2 * window, i + lag < n {
                let d = Double(a[i]) - Double(b[i + lag])
                error += d * d
                i += 1
            }
            if error < best.error { best = (lag, error) }
        }
        return best.lag
    }

    /// Signal to error, in dB.
    static func snr(_ a: [Int16], _ b: [Int16]) -> Double {
        var signal = 0.0, error = 0.0
        for (x, y) in zip(a, b) {
            signal += Double(y) * Double(y)
            error += (Double(x) - Double(y)) * (Double(x) - Double(y))
        }
        return 10 * log10(signal / max(error, 1))
    }
}
