import COpus

/// Opus through libopusfile, as signed 16-bit at 48 kHz, the rate Opus always decodes at
/// (the header's "input sample rate" only says what the encoder was given).
///
/// - Gapless: libopusfile drops the pre-skip and trims the end to the last granule
///   position, so the length is the encoder's input, exactly (`op_pcm_total`).
/// - Seeking is sample-exact (`op_pcm_seek`), and gives the samples playing through
///   gives: see `seekPrimingFrames`.
/// - The header's output gain is applied, as RFC 7845 says a player must; the R128 gain
///   tags a ReplayGain stage reads are relative to it. Dithering is off: decoding is then
///   deterministic, so a seek gives the same samples as playing through, and a decode
///   can be compared with `opusdec --no-dither`.
/// - 3 to 8 channels (mapping family 1, Vorbis order) are put in WAV order.
/// - A chained file plays its links while they keep the first link's channel count.
/// - A damaged or missing page is stepped over with a warning, and what it held replaced
///   by silence (`OggGap`).
final class OpusDecoder: AudioDecoder {
    var path: String { reader.source.path }
    var source: any MediaSource { reader.source }
    /// Checked between `op_read` calls, and by the reader before each read.
    var interruption: DecodeInterruption? {
        didSet { reader.source.interruption = interruption }
    }
    let container = ContainerFormat.opus
    private(set) var info = StreamInfo(sampleRate: 48_000, channels: 0, sampleFormat: .s16, totalFrames: 0)
    private(set) var metadata = TrackMetadata()
    private(set) var position: Int64 = 0
    private(set) var warnings = DecodeWarnings()

    private let reader: OggByteReader
    private var file: OpaquePointer?
    private var ended = false
    private var link: Int32 = 0
    private var gap = OggGap()
    /// Whether the channels are in Vorbis order (mapping family 1) and need reordering.
    private var reorder = false
    private static let maximumFailuresInARow = 64
    /// Frames decoded and discarded before a seek target. libopusfile's own 80 ms pre-roll
    /// puts the position right, but the decoder's state has not yet converged: samples
    /// differed from a straight decode by up to 700 LSB (5,000 in 5.1) for the first
    /// 200 ms. Half a second more gave identical samples in every file measured (music,
    /// pink noise, 32 kbit/s, 5.1; docs/benchmarks.md), for a few milliseconds of decoding.
    static let seekPrimingFrames: Int64 = 24_000
    /// Where a seek's primed frames are decoded to; made on the first seek.
    private var scratch: UnsafeMutableRawBufferPointer?

    init(reader source: any MediaSource) throws {
        reader = OggByteReader(source)
        let seekable = reader.isSeekable
        var callbacks = OpusFileCallbacks(read: opusRead, seek: seekable ? opusSeek : nil,
                                          tell: seekable ? opusTell : nil, close: nil)
        var status: Int32 = 0
        file = op_open_callbacks(Unmanaged.passUnretained(reader).toOpaque(), &callbacks, nil, 0, &status)
        if let failure = reader.takeFailure() { throw reader.openError(failure) }
        guard let file else { throw MediaError.corrupt(path, "not a readable Ogg Opus stream: \(OggStatus.describe(Int(status)))") }
        op_set_dither_enabled(file, 0)
        guard let head = op_head(file, 0)?.pointee else { throw MediaError.corrupt(path, "no Opus header") }
        reorder = head.mapping_family == 1 && VorbisChannelOrder.needsReordering(channels: Int(head.channel_count))
        info = try StreamInfo(sampleRate: 48_000, channels: Int(head.channel_count), sampleFormat: .s16,
                              totalFrames: seekable ? playableLength(file, channels: head.channel_count) : 0).validated(path)
        guard info.totalFrames > 0 || !seekable else { throw MediaError.corrupt(path, "no Opus audio") }
        let bitrate = op_bitrate(file, -1)
        if bitrate > 0 { info.bitrate = Int(bitrate) }
        if let tags = op_tags(file, 0)?.pointee {
            metadata = OggComments.metadata(comments: tags.user_comments, lengths: tags.comment_lengths,
                                            count: tags.comments, warnings: &warnings)
        }
        reader.allow(OggByteReader.audioBudget)
    }

    /// The frames of the links, from the first on, that keep the first link's channels.
    private func playableLength(_ file: OpaquePointer, channels: Int32) throws -> Int64 {
        var total: Int64 = 0
        for l in 0..<op_link_count(file) {
            guard op_channel_count(file, l) == channels else {
                warnings.add("a chained stream changes its channels at link \(l + 1); only the links before it play")
                break
            }
            let frames = op_pcm_total(file, l)
            guard frames >= 0 else { throw MediaError.corrupt(path, "link \(l + 1): \(OggStatus.describe(Int(frames)))") }
            total += frames
        }
        return total
    }

    deinit {
        if let file { op_free(file) }
        scratch?.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let file else { return 0 }
        let channels = info.channels
        var capacity = buffer.count / info.bytesPerFrame
        if info.totalFrames > 0 { capacity = min(capacity, Int(max(0, info.totalFrames - position))) }
        let samples = buffer.baseAddress!.assumingMemoryBound(to: Int16.self)
        var written = 0
        var failures = 0
        while written < capacity, !ended {
            let silence = gap.fill(buffer, at: written * info.bytesPerFrame, room: (capacity - written) * info.bytesPerFrame,
                                   frameBytes: info.bytesPerFrame)
            if silence > 0 {
                written += silence
                continue
            }
            if interruption?() == true { throw DecodeInterrupted() }
            var section: Int32 = -1
            let got = op_read(file, samples + written * channels, Int32(clamping: (capacity - written) * channels), &section)
            let frame = position + Int64(written)
            if let failure = reader.takeFailure() {
                if failure is DecodeInterrupted { throw failure }
                ended = true
                warnings.add("decoding stopped at frame \(frame): \(reader.describe(failure))")
                break
            }
            if got > 0 {
                if section != link {
                    // op_read hands out one link's samples per call, in that link's channels.
                    guard op_channel_count(file, section) == Int32(channels) else {
                        ended = true
                        warnings.add("a chained stream changes its channels at frame \(frame); the rest is not played")
                        break
                    }
                    link = section
                }
                written += Int(got)
                if reader.isSeekable {
                    gap.check(expected: position + Int64(written), actual: op_pcm_tell(file),
                              sampleRate: info.sampleRate, warnings: &warnings)
                }
                reader.noteAudio()
                failures = 0
            } else if got == 0 {
                ended = true
                if info.totalFrames > 0, frame < info.totalFrames {
                    warnings.add("stream ended at frame \(frame) of \(info.totalFrames): pages are missing")
                }
            } else if got == OP_HOLE || got == OP_EBADPACKET, failures < Self.maximumFailuresInARow {
                failures += 1
                warnings.add("a damaged or missing Ogg page was skipped at frame \(frame)")
            } else {
                ended = true
                warnings.add("decoding stopped at frame \(frame): \(OggStatus.describe(Int(got)))")
            }
        }
        if reorder { VorbisChannelOrder.reorder(samples, frames: written, channels: channels) }
        position += Int64(written)
        return written
    }

    func seek(toFrame frame: Int64) throws {
        guard let file, reader.isSeekable else {
            if frame == 0, position == 0 { return }
            throw MediaError.seekFailed(path, "the download's length is not known yet")
        }
        let target = max(0, min(frame, info.totalFrames))
        ended = target == info.totalFrames
        if ended {
            position = target
            return
        }
        gap = OggGap()
        let start = max(0, target - Self.seekPrimingFrames)
        reader.allow(OggByteReader.openBudget)
        let status = op_pcm_seek(file, start)
        reader.allow(OggByteReader.audioBudget)
        if let failure = reader.takeFailure() { throw reader.seekError(failure) }
        guard status == 0 else { throw MediaError.seekFailed(path, "frame \(target): \(OggStatus.describe(Int(status)))") }
        position = start
        try discard(upTo: target)
    }

    /// Decodes from `position` up to `target` and drops what comes out.
    private func discard(upTo target: Int64) throws {
        let frameBytes = info.bytesPerFrame
        let scratch = self.scratch ?? .allocate(byteCount: 4096 * frameBytes, alignment: 16)
        self.scratch = scratch
        while position < target {
            let frames = Int(min(target - position, 4096))
            if try read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[0..<(frames * frameBytes)])) == 0 {
                throw MediaError.seekFailed(path, "cannot reach frame \(target): audio ends at frame \(position)")
            }
        }
    }
}

// MARK: libopusfile callbacks

private func opusReader(_ stream: UnsafeMutableRawPointer?) -> OggByteReader {
    Unmanaged<OggByteReader>.fromOpaque(stream!).takeUnretainedValue()
}

private let opusRead: op_read_func = { stream, buffer, count in
    guard let buffer else { return -1 }
    return opusReader(stream).read(buffer, Int(count)).map { Int32($0) } ?? -1
}

private let opusSeek: op_seek_func = { stream, offset, whence in
    opusReader(stream).seek(offset, whence: whence)
}

private let opusTell: op_tell_func = { stream in
    opusReader(stream).offset
}
