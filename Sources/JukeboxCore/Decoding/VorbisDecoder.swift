#if canImport(Glibc)
import Glibc
#endif

import CVorbis

/// Ogg Vorbis through libvorbisfile, as signed 16-bit at the stream's own rate.
///
/// - Gapless: libvorbisfile trims by the granule positions (the first page's start
///   offset, the last page's end), so the length is the encoder's input, exactly.
/// - The length is exact (`ov_pcm_total`, from the last page) and seeking is
///   sample-exact (`ov_pcm_seek`).
/// - Output is `ov_read`'s, so it equals `oggdec`'s bit for bit; 3 to 8 channels are
///   put in WAV order (`VorbisChannelOrder`).
/// - A chained file (links one after another) plays its links while they keep the first
///   link's rate and channel count, and ends with a warning where one changes them.
/// - A damaged or missing page (`OV_HOLE`) is stepped over with a warning: the audio goes
///   on from the next good page, after as much silence as the granule positions say was
///   lost, so positions and the length stay true (`OggGap`).
final class VorbisDecoder: AudioDecoder {
    var path: String { reader.source.path }
    var source: any MediaSource { reader.source }
    /// Checked between `ov_read` calls, and by the reader before each read, so a seek's
    /// search is interruptible too.
    var interruption: DecodeInterruption? {
        didSet { reader.source.interruption = interruption }
    }
    let container = ContainerFormat.ogg
    private(set) var info = StreamInfo(sampleRate: 0, channels: 0, sampleFormat: .s16, totalFrames: 0)
    private(set) var metadata = TrackMetadata()
    private(set) var position: Int64 = 0
    private(set) var warnings = DecodeWarnings()

    private let reader: OggByteReader
    private let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
    private var opened = false
    private var ended = false
    /// The link the last audio came from; a new one is checked for a change of format.
    private var link: Int32 = 0
    private var gap = OggGap()
    /// Back-to-back reads that failed without audio: a file of nothing but damage ends.
    private static let maximumFailuresInARow = 64

    init(reader source: any MediaSource) throws {
        reader = OggByteReader(source)
        let seekable = reader.isSeekable
        let callbacks = ov_callbacks(read_func: vorbisRead, seek_func: seekable ? vorbisSeek : nil,
                                     close_func: nil, tell_func: seekable ? vorbisTell : nil)
        let status = ov_open_callbacks(Unmanaged.passUnretained(reader).toOpaque(), file, nil, 0, callbacks)
        if let failure = reader.takeFailure() { throw reader.openError(failure) }
        guard status == 0 else { throw MediaError.corrupt(path, "not a readable Ogg Vorbis stream: \(OggStatus.describe(Int(status)))") }
        opened = true
        guard let first = ov_info(file, 0)?.pointee else { throw MediaError.corrupt(path, "no Vorbis stream information") }
        info = try StreamInfo(sampleRate: first.rate, channels: Int(first.channels), sampleFormat: .s16,
                              totalFrames: seekable ? playableLength(first) : 0).validated(path)
        // A file without a frame of audio; a download of unknown length counts as it plays.
        guard info.totalFrames > 0 || !seekable else { throw MediaError.corrupt(path, "no Vorbis audio") }
        let bitrate = ov_bitrate(file, -1)
        if bitrate > 0 { info.bitrate = bitrate }
        if let comment = ov_comment(file, 0)?.pointee {
            metadata = OggComments.metadata(comments: comment.user_comments, lengths: comment.comment_lengths,
                                            count: comment.comments, warnings: &warnings)
        }
        reader.allow(OggByteReader.audioBudget)
    }

    /// The frames of the links, from the first on, that keep the first link's format.
    private func playableLength(_ first: vorbis_info) throws -> Int64 {
        var total: Int64 = 0
        for l in 0..<ov_streams(file) {
            guard let vi = ov_info(file, Int32(l))?.pointee, vi.rate == first.rate, vi.channels == first.channels else {
                warnings.add("a chained stream changes format at link \(l + 1); only the links before it play")
                break
            }
            let frames = ov_pcm_total(file, Int32(l))
            guard frames >= 0 else { throw MediaError.corrupt(path, "link \(l + 1): \(OggStatus.describe(Int(frames)))") }
            total += frames
        }
        return total
    }

    deinit {
        if opened { ov_clear(file) }
        file.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let frameBytes = info.bytesPerFrame
        var capacity = buffer.count / frameBytes * frameBytes
        if info.totalFrames > 0 { capacity = min(capacity, Int(max(0, info.totalFrames - position)) * frameBytes) }
        var written = 0
        var failures = 0
        while written < capacity, !ended {
            let silence = gap.fill(buffer, at: written, room: capacity - written, frameBytes: frameBytes)
            if silence > 0 {
                written += silence * frameBytes
                continue
            }
            if interruption?() == true { throw DecodeInterrupted() }
            var section: Int32 = -1
            let got = ov_read(file, (buffer.baseAddress! + written).assumingMemoryBound(to: CChar.self),
                              Int32(clamping: capacity - written), 0, 2, 1, &section)
            let frame = position + Int64(written / frameBytes)
            if let failure = reader.takeFailure() {
                // libvorbisfile takes a failed read for the end: the reader knows better.
                if failure is DecodeInterrupted { throw failure }
                ended = true
                warnings.add("decoding stopped at frame \(frame): \(reader.describe(failure))")
                break
            }
            if got > 0 {
                if section != link {
                    guard sameFormat(section) else {
                        ended = true
                        warnings.add("a chained stream changes format at frame \(frame); the rest is not played")
                        break
                    }
                    link = section
                }
                written += got
                if reader.isSeekable {
                    gap.check(expected: position + Int64(written / frameBytes), actual: ov_pcm_tell(file),
                              sampleRate: info.sampleRate, warnings: &warnings)
                }
                reader.noteAudio()
                failures = 0
            } else if got == 0 {
                ended = true
                if info.totalFrames > 0, frame < info.totalFrames {
                    warnings.add("stream ended at frame \(frame) of \(info.totalFrames): pages are missing")
                }
            } else if got == OV_HOLE, failures < Self.maximumFailuresInARow {
                failures += 1
                warnings.add("a damaged or missing Ogg page was skipped at frame \(frame)")
            } else {
                ended = true
                warnings.add("decoding stopped at frame \(frame): \(OggStatus.describe(got))")
            }
        }
        let frames = written / frameBytes
        if VorbisChannelOrder.needsReordering(channels: info.channels) {
            VorbisChannelOrder.reorder(buffer.baseAddress!.assumingMemoryBound(to: Int16.self), frames: frames, channels: info.channels)
        }
        position += Int64(frames)
        return frames
    }

    private func sameFormat(_ section: Int32) -> Bool {
        guard let vi = ov_info(file, section)?.pointee else { return false }
        return vi.rate == info.sampleRate && Int(vi.channels) == info.channels
    }

    func seek(toFrame frame: Int64) throws {
        guard reader.isSeekable else {
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
        reader.allow(OggByteReader.openBudget)
        defer { reader.allow(OggByteReader.audioBudget) }
        let status = ov_pcm_seek(file, target)
        if let failure = reader.takeFailure() { throw reader.seekError(failure) }
        guard status == 0 else { throw MediaError.seekFailed(path, "frame \(target): \(OggStatus.describe(Int(status)))") }
        position = target
    }
}

// MARK: libvorbisfile callbacks

private func vorbisReader(_ datasource: UnsafeMutableRawPointer?) -> OggByteReader {
    Unmanaged<OggByteReader>.fromOpaque(datasource!).takeUnretainedValue()
}

private let vorbisRead: @convention(c) (UnsafeMutableRawPointer?, Int, Int, UnsafeMutableRawPointer?) -> Int = { buffer, size, count, datasource in
    guard let buffer, size > 0 else { return 0 }
    // fread's contract: on failure 0 items and errno set, which libvorbisfile checks.
    guard let got = vorbisReader(datasource).read(buffer, size * count) else {
        errno = EIO
        return 0
    }
    errno = 0
    return got / size
}

private let vorbisSeek: @convention(c) (UnsafeMutableRawPointer?, ogg_int64_t, Int32) -> Int32 = { datasource, offset, whence in
    vorbisReader(datasource).seek(offset, whence: whence)
}

private let vorbisTell: @convention(c) (UnsafeMutableRawPointer?) -> Int = { datasource in
    Int(vorbisReader(datasource).offset)
}
