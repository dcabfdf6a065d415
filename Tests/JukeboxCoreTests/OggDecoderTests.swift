import Foundation
import Testing
@testable import JukeboxCore

/// Ogg Vorbis and Opus against the reference decoders (oggdec, opusdec), sample for
/// sample: lengths, gapless joins, seeking, channel order, tags and covers.
@Suite struct OggDecoderTests {
    let ogg = OggFixtures.shared

    func decodeAll(_ name: String) throws -> (any AudioDecoder, Data) {
        let decoder = try AudioFile.open(ogg.path(name))
        return (decoder, Data(try decoder.readAll()))
    }

    func samples(_ data: Data) -> [Int16] { data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) } }

    /// The largest difference between two decodes of the same length, in LSB.
    func worst(_ a: Data, _ b: Data) -> Int {
        zip(samples(a), samples(b)).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// libvorbisfile is what oggdec decodes with, so the output is the same bit for bit.
    @Test(arguments: OggFixtures.vorbis.map(\.name))
    func vorbisMatchesOggdec(_ name: String) throws {
        let expected = try #require(OggFixtures.vorbis.first { $0.name == name })
        let (decoder, ours) = try decodeAll(name)
        #expect(decoder.container == .ogg)
        #expect(decoder.info == StreamInfo(sampleRate: expected.rate, channels: expected.channels, sampleFormat: .s16,
                                           totalFrames: expected.frames).with(bitrate: decoder.info.bitrate))
        #expect(decoder.info.bitrate ?? 0 > 16_000)
        // Gapless: exactly the encoder's input, no more, no less.
        #expect(ours.count == Int(expected.frames) * expected.channels * 2)
        expectSame(ours, try ogg.oggdecReference(name), name)
        #expect(decoder.warnings.isEmpty)
    }

    /// Opus at 48 kHz whatever the source rate, within 1 LSB of opusdec (the same
    /// libopus, so in practice identical).
    @Test(arguments: OggFixtures.opus.map(\.name))
    func opusMatchesOpusdec(_ name: String) throws {
        let expected = try #require(OggFixtures.opus.first { $0.name == name })
        let (decoder, ours) = try decodeAll(name)
        #expect(decoder.container == .opus)
        #expect(decoder.info.sampleRate == 48_000)
        #expect(decoder.info.channels == expected.channels)
        #expect(decoder.info.totalFrames == expected.frames)
        #expect(ours.count == Int(expected.frames) * expected.channels * 2)
        let reference = try ogg.opusdecReference(name)
        #expect(ours.count == reference.count)
        #expect(worst(ours, reference) <= 1, "\(name)")
        #expect(decoder.warnings.isEmpty)
    }

    /// Three parts cut from one signal and encoded apart join without a gap or an overlap:
    /// each decodes to exactly its part's length, and the parts in a row equal the
    /// reference decoders' parts in a row.
    @Test(arguments: ["ogg", "opus"])
    func gaplessAlbumJoinsExactly(_ ext: String) throws {
        var ours = Data(), reference = Data()
        for part in 0..<3 {
            let name = "album\(part).\(ext)"
            let (decoder, decoded) = try decodeAll(name)
            let length = OggFixtures.albumCuts[part + 1] - OggFixtures.albumCuts[part]
            #expect(decoder.info.totalFrames == length, "\(name)")
            #expect(decoded.count == Int(length) * 4, "\(name)")
            ours.append(decoded)
            reference.append(try ogg.reference(name))
        }
        #expect(ours.count == Int(OggFixtures.albumCuts[3]) * 4)
        #expect(ours.count == reference.count)
        #expect(worst(ours, reference) <= (ext == "opus" ? 1 : 0))
    }

    /// `seek` then read gives the samples a full decode has at that frame.
    @Test(arguments: ["stereo44.ogg", "mono48.ogg", "stereo44.opus", "mono48.opus", "surround.ogg", "surround.opus"])
    func seekIsSampleExact(_ name: String) throws {
        let (full, all) = try decodeAll(name)
        let frameBytes = full.info.bytesPerFrame
        for seconds in [0.0, 0.013, 0.5, 1.2345, 1.9] {
            let decoder = try AudioFile.open(ogg.path(name))
            let frame = decoder.info.frame(atSeconds: seconds)
            try decoder.seek(toFrame: frame)
            #expect(decoder.position == frame)
            let part = Data(try decoder.readAll(maxFrames: 10_000))
            let start = Int(frame) * frameBytes
            let expected = all.subdata(in: start..<min(all.count, start + 10_000 * frameBytes))
            #expect(part.count == expected.count, "\(name) at \(seconds) s")
            #expect(worst(part, expected) == 0, "\(name) at \(seconds) s")
        }
        // Backwards, and to the end.
        let decoder = try AudioFile.open(ogg.path(name))
        _ = try decoder.readAll(maxFrames: 50_000)
        try decoder.seek(toFrame: 1000)
        expectSame(Data(try decoder.readAll(maxFrames: 2000)), all.subdata(in: 1000 * frameBytes..<3000 * frameBytes), name)
        try decoder.seek(toFrame: decoder.info.totalFrames + 5)
        #expect(decoder.position == decoder.info.totalFrames)
        #expect(try decoder.readAll().isEmpty)
    }

    /// Six channels come out in WAV order, as FLAC and WAV give them: each channel of
    /// the source, made louder than the one before, is where it was.
    @Test(arguments: ["surround.ogg", "surround.opus"])
    func surroundChannelsKeepTheirPlaces(_ name: String) throws {
        let (decoder, decoded) = try decodeAll(name)
        #expect(decoder.info.channels == 6)
        let all = samples(decoded)
        let levels = (0..<6).map { c in
            stride(from: c, to: all.count, by: 6).reduce(0.0) { $0 + Double($1) * Double($1) }
        }
        #expect(levels == levels.sorted(), "\(name): channel energies \(levels)")
        #expect(levels.count == Set(levels).count)
    }

    @Test(arguments: ["stereo44.ogg", "stereo44.opus"])
    func tagsAndCoverAreRead(_ name: String) throws {
        for metadata in [try AudioFile.open(ogg.path(name)).metadata, try AudioFile.describe(ogg.path(name)).metadata] {
            #expect(metadata.title == "Plucked")
            #expect(metadata.artist == "Test Band")
            #expect(metadata.album == "Fixtures")
            #expect(metadata.trackNumber == 3)
            #expect(metadata.trackTotal == 12)
            let cover = try #require(metadata.cover, "\(name)")
            #expect(cover.type == EmbeddedPicture.frontCover)
            #expect(cover.mimeType == "image/png")
            expectSame(cover.data, try ogg.fx.bytes("cover.png"), name)
        }
        let gain = try AudioFile.open(ogg.path(name)).metadata.replayGain
        if name.hasSuffix(".ogg") {
            #expect(gain.trackGain == -6.5)
            #expect(gain.albumPeak == 0.9)
        } else {
            // R128_TRACK_GAIN -512 is −2 dB from −23 LUFS: +3 dB in ReplayGain's terms.
            #expect(gain.trackGain == 3.0)
        }
    }

    /// The content decides, not the name.
    @Test func oggFormatsAreSniffedNotTakenFromTheName() throws {
        let fx = ogg.fx
        #expect(try AudioFile.open(fx.write("really-an-opus.ogg", fx.bytes("mono48.opus"))).container == .opus)
        #expect(try AudioFile.open(fx.write("really-a-vorbis.opus", fx.bytes("mono48.ogg"))).container == .ogg)
        #expect(try AudioFile.open(fx.write("really-an-mp3.ogg", fx.bytes("music.mp3"))).container == .mp3)
        #expect(try AudioFile.open(fx.write("really-an-ogg.flac", fx.bytes("mono44.ogg"))).container == .ogg)
    }

    /// A URL streams through the same callbacks: the download decodes as the file does.
    @Test(arguments: ["stereo44.ogg", "stereo44.opus"])
    func aDownloadDecodesLikeTheFile(_ name: String) throws {
        let server = try WebServer(serving: ogg.fx.dir, slowRate: 64 << 10)
        let local = try AudioFile.open(ogg.path(name))
        let all = try local.readAll()
        // The slow one is still arriving while the decoder looks for its last page.
        for url in [server.url(name), server.url("slow/\(name)")] {
            let remote = try AudioFile.open(url)
            #expect(remote.info == local.info, "\(url)")
            expectSame(try remote.readAll(), all, url)
        }
    }
}

extension StreamInfo {
    func with(bitrate: Int?) -> StreamInfo {
        var copy = self
        copy.bitrate = bitrate
        return copy
    }
}

/// The player's own audio thread plays Ogg: what reaches the output is the reference
/// decoders' audio, gapless across tracks, and Opus at 48 kHz.
@Suite struct OggPlaybackTests {
    @Test(arguments: ["opus", "ogg"])
    func aGaplessAlbumPlaysThroughTheEngine(_ ext: String) throws {
        let ogg = OggFixtures.shared
        let output = RecordingOutput()
        let log = EventLog()
        let engine = AudioEngine(output: output) { log.append($0) }
        try engine.start()
        engine.play(TrackRef(token: 1, path: ogg.path("album0.\(ext)")), next: TrackRef(token: 2, path: ogg.path("album1.\(ext)")))
        #expect(log.wait { $0.isFinished })
        engine.shutdown()
        let format = OutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s16)
        #expect(output.steps.first == .configure(format))
        let expected = try ogg.reference("album0.\(ext)") + ogg.reference("album1.\(ext)")
        #expect(isAudioThenSilence(output.data(format), expected, sampleRate: 48_000))
        #expect(log.all.contains { if case .trackStarted(2) = $0 { true } else { false } })
    }
}

/// A library scan takes Ogg Vorbis and Opus files in, with their tags and lengths.
@Suite struct OggLibraryTests {
    @Test func aScanListsOggAndOpusWithTheirTags() throws {
        let ogg = OggFixtures.shared
        let root = try ogg.fx.scratchFolder("ogg-library")
        for name in ["stereo44.ogg", "stereo44.opus", "mono48.opus"] where !FileManager.default.fileExists(atPath: "\(root)/\(name)") {
            try FileManager.default.copyItem(atPath: ogg.path(name), toPath: "\(root)/\(name)")
        }
        let scan = LibraryScanner.scan(musicDirectory: root, playlistsDirectory: nil)
        #expect(scan.skipped.isEmpty, "\(scan.skipped)")
        #expect(scan.tracks.count == 3)
        for name in ["stereo44.ogg", "stereo44.opus"] {
            let track = try #require(scan.tracks.first { $0.path.hasSuffix(name) })
            #expect(track.tags.title == "Plucked" && track.tags.artist == "Test Band" && track.trackNumber == 3, "\(name)")
            #expect(track.tags.seconds == 6.0, "\(name)")
        }
    }
}

/// Chained Ogg files (one stream after another, as `cat` makes them): links that keep the
/// first one's format play on, gapless; a link that changes it ends the track there.
/// (Each link has its own serial number, as every encode picks a new one.)
@Suite struct ChainedOggTests {
    let ogg = OggFixtures.shared

    func chain(_ names: [String], as name: String) throws -> String {
        try ogg.fx.write(name, names.flatMap { try ogg.fx.bytes($0) })
    }

    @Test(arguments: [("stereo48.ogg", "album0.ogg"), ("stereo44.opus", "stereo48.opus")])
    func linksOfOneFormatPlayOn(_ first: String, _ second: String) throws {
        let path = try chain([first, second], as: "chained-\(first)-\(second)")
        let decoder = try AudioFile.open(path)
        let expected = try ogg.reference(first) + ogg.reference(second)
        #expect(decoder.info.totalFrames * 4 == Int64(expected.count))
        let decoded = Data(try decoder.readAll())
        #expect(decoded.count == expected.count)
        expectSame(decoded, expected)
        #expect(decoder.warnings.isEmpty, "\(decoder.warnings.messages)")
        // A seek into the second link lands where playing through does.
        let frame = decoder.info.totalFrames - 30_000
        try decoder.seek(toFrame: frame)
        expectSame(try decoder.readAll(), expected.suffix(30_000 * 4))
    }

    @Test(arguments: [("stereo44.ogg", "mono48.ogg"), ("stereo44.opus", "mono48.opus")])
    func aLinkThatChangesFormatEndsTheTrack(_ first: String, _ second: String) throws {
        let path = try chain([first, second], as: "chained-\(first)-\(second)")
        let decoder = try AudioFile.open(path)
        let expected = try ogg.reference(first)
        #expect(decoder.info.channels == 2)
        #expect(decoder.info.totalFrames * 4 == Int64(expected.count))
        expectSame(try decoder.readAll(), expected)
        #expect(decoder.warnings.messages.contains { $0.contains("chained stream") }, "\(decoder.warnings.messages)")
        #expect(try MediaProbe.probe(path).info.totalFrames == decoder.info.totalFrames)
    }
}
