import Foundation
import Testing
@testable import JukeboxCore

/// The decoders against the reference tools, sample for sample.
@Suite struct DecoderTests {
    let fx = Fixtures.shared

    func decodeAll(_ name: String) throws -> (any AudioDecoder, Data) {
        let decoder = try AudioFile.open(fx.path(name))
        return (decoder, Data(try decoder.readAll()))
    }

    @Test(arguments: ["music16.flac", "music24.flac", "noseek16.flac", "six.flac", "mono8k.flac", "hires.flac"])
    func flacMatchesFlacTool(_ name: String) throws {
        let (decoder, ours) = try decodeAll(name)
        let reference = try fx.flacReference(name)
        #expect(ours.count == reference.count)
        expectSame(ours, reference)
        #expect(Int64(ours.count) == decoder.info.totalFrames * Int64(decoder.info.bytesPerFrame))
    }

    @Test func flacReportsNativeFormat() throws {
        let d16 = try AudioFile.open(fx.path("music16.flac"))
        #expect(d16.info == StreamInfo(sampleRate: 44100, channels: 2, sampleFormat: .s16, totalFrames: 264_600))
        let d24 = try AudioFile.open(fx.path("music24.flac"))
        #expect(d24.info == StreamInfo(sampleRate: 96000, channels: 2, sampleFormat: .s24, totalFrames: 384_000))
        #expect(try AudioFile.open(fx.path("six.flac")).info.channels == 6)
        #expect(try AudioFile.open(fx.path("hires.flac")).info.sampleRate == 192_000)
    }

    @Test(arguments: ["music.mp3", "cbr.mp3"])
    func mp3MatchesMpg123Gapless(_ name: String) throws {
        let (decoder, ours) = try decodeAll(name)
        let reference = try fx.mpg123Reference(name)
        #expect(ours.count == reference.count)
        expectSame(ours, reference)
        // Gapless: the encoder's delay and padding are gone, the source length is back.
        #expect(decoder.info.totalFrames == 264_600)
        #expect(decoder.info.sampleFormat == .s16)
    }

    @Test(arguments: ["music16.wav", "music24.wav", "six.wav", "s32.wav"])
    func wavMatchesItsOwnData(_ name: String) throws {
        let (decoder, ours) = try decodeAll(name)
        let raw = try Tools.run("sox", [fx.path(name), "-t", "raw", "-"]).stdout
        #expect(ours == raw)
        #expect(decoder.container == .wav)
    }

    @Test func eightBitWavIsWidenedTo16() throws {
        let (decoder, ours) = try decodeAll("eight.wav")
        let raw = try Tools.run("sox", [fx.path("eight.wav"), "-b", "16", "-e", "signed-integer", "-t", "raw", "-"]).stdout
        #expect(decoder.info.sampleFormat == .s16)
        #expect(ours == raw)
    }

    /// `seek` then read gives exactly the full decode from that frame.
    @Test(arguments: ["music16.flac", "music24.flac", "noseek16.flac", "music16.wav", "music24.wav"])
    func seekIsExact(_ name: String) throws {
        let (_, all) = try decodeAll(name)
        try expectExactSeeks(fx.path(name), whole: all, at: [0.0, 0.25, 1.5, 2.999, 3.7], name)
    }

    /// MP3 seeks are primed with 8 frames: exact for these files; the documented bound
    /// elsewhere is 1 LSB.
    @Test(arguments: ["music.mp3", "cbr.mp3"])
    func mp3SeekMatchesFullDecode(_ name: String) throws {
        let (_, all) = try decodeAll(name)
        let samples = all.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        for seconds in [0.5, 1.5, 3.3, 5.1] {
            let decoder = try AudioFile.open(fx.path(name))
            let frame = decoder.info.frame(atSeconds: seconds)
            try decoder.seek(toFrame: frame)
            let part = try decoder.readAll(maxFrames: 20_000).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            let expected = samples[(Int(frame) * 2)..<min(samples.count, Int(frame) * 2 + part.count)]
            let worst = zip(part, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(part.count == expected.count)
            #expect(worst == 0, "\(name) at \(seconds) s deviates by \(worst)")
        }
    }

    @Test func seekBeyondEndEndsTheStream() throws {
        let decoder = try AudioFile.open(fx.path("music16.flac"))
        try decoder.seek(toFrame: 10_000_000)
        #expect(decoder.position == decoder.info.totalFrames)
        var buffer = [UInt8](repeating: 0, count: 4096)
        #expect(try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) } == 0)
    }

    @Test func readFillsOnlyWholeFrames() throws {
        let decoder = try AudioFile.open(fx.path("music24.flac"))  // 6 bytes a frame
        var buffer = [UInt8](repeating: 0xAA, count: 1000)
        let frames = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }
        #expect(frames == 166)
        #expect(buffer[996...].allSatisfy { $0 == 0xAA })
    }

    /// The content decides, not the name.
    @Test func formatIsSniffedNotTakenFromTheName() throws {
        let mp3AsFlac = try fx.write("really-an-mp3.flac", fx.bytes("music.mp3"))
        #expect(try AudioFile.open(mp3AsFlac).container == .mp3)
        let flacAsWav = try fx.write("really-a-flac.wav", fx.bytes("music16.flac"))
        #expect(try AudioFile.open(flacAsWav).container == .flac)
        let wavAsMp3 = try fx.write("really-a-wav.mp3", fx.bytes("music16.wav"))
        #expect(try AudioFile.open(wavAsMp3).container == .wav)
    }
}

@Suite struct UnknownLengthFLACTests {
    /// A FLAC encoded to a pipe has no length in STREAMINFO; it is counted at open.
    @Test func lengthIsCountedAndPlaybackStartsAtTheBeginning() throws {
        let fx = Fixtures.shared
        let raw = try Tools.run("sox", [fx.path("music16.wav"), "-t", "raw", "-"]).stdout
        let flac = try Tools.run("flac", ["-s", "--force-raw-format", "--endian=little", "--sign=signed", "--channels=2",
                                          "--bps=16", "--sample-rate=44100", "-c", "-"], stdin: raw).stdout
        let path = try fx.write("unknown-length.flac", [UInt8](flac))
        let decoder = try AudioFile.open(path)
        #expect(decoder.info.totalFrames == 264_600)
        #expect(decoder.position == 0)
        try expectSame(decoder.readAll(), raw)
        #expect(try MediaProbe.probe(path).info.durationSeconds == 6.0)
    }
}
