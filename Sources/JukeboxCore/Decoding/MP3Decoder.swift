#if canImport(Glibc)
import Glibc
#endif

import CMpg123

/// MP3 (and MPEG layer I/II) through libmpg123.
///
/// - Gapless decoding is on, so encoder delay and padding (LAME/Xing info) are trimmed.
/// - The output format is fixed to signed 16-bit at the stream's own rate and channel
///   count before the first frame is decoded, so libmpg123 never switches format midway.
/// - The length is exact: from the LAME info frame count when the encoder wrote one,
///   otherwise from `mpg123_scan`, which reads every frame header once at open and stops
///   where the audio does. Seeking is sample-accurate either way, since fuzzy
///   seeking is off: libmpg123 parses frame headers up to a target it has not indexed.
final class MP3Decoder: AudioDecoder {
    var path: String { reader.source.path }
    var source: any MediaSource { reader.source }
    /// Checked between `mpg123_read` calls; libmpg123's own resync limit bounds each call.
    /// The source asks it too, while it waits for bytes from the network.
    var interruption: DecodeInterruption? {
        didSet { reader.source.interruption = interruption }
    }
    let container = ContainerFormat.mp3
    private(set) var info: StreamInfo
    private(set) var metadata = TrackMetadata()
    private(set) var position: Int64 = 0
    private(set) var warnings = DecodeWarnings()

    /// MPEG frames decoded and discarded before a seek target to refill the bit reservoir
    /// and the filter-bank state. libmpg123's default (4) left errors of thousands of LSB in
    /// the first frames after a seek; 8 gives output identical to a full decode at
    /// 22–48 kHz stereo and at most 1 LSB on a few isolated samples for 8–32 kbps or mono
    /// (measured; see docs/benchmarks.md). More frames would cost seek latency.
    static let seekPrimingFrames = 8

    private let handle: OpaquePointer
    /// What libmpg123 reads through (it never opens the path itself).
    private let reader: MPG123Reader
    private var ended = false

    /// `exactLength: false` skips the frame scan, for reading tags in a library scan; the
    /// length is then libmpg123's estimate and seeking is approximate.
    init(reader source: any MediaSource, exactLength: Bool = true) throws {
        // libmpg123 starts after the ID3v2 tags: MP3Tags reads them, and a tag whose size
        // is damaged would have it skip past the end of the file.
        reader = MPG123Reader(source, start: try FormatSniffer.offsetAfterID3v2(source))
        let path = source.path
        MPG123Library.initialise()
        var err: Int32 = 0
        guard let handle = mpg123_new(nil, &err) else {
            throw MediaError.unreadable(path, "libmpg123: \(MPG123Library.describe(err))")
        }
        self.handle = handle
        // Placeholder until the stream tells us its format.
        info = StreamInfo(sampleRate: 0, channels: 0, sampleFormat: .s16, totalFrames: 0)

        // libmpg123 reads a whole ID3v2 tag into memory to parse it; MP3Tags reads it frame
        // by frame instead, so libmpg123 only steps over it.
        var flags = MPG123_GAPLESS.rawValue | MPG123_QUIET.rawValue | MPG123_SKIP_ID3V2.rawValue
        // Its ID3v1 check reads the last bytes, which a download has last; a live stream
        // has no end at all, and resyncs better with a little look-ahead.
        if source.isDownload {
            flags |= MPG123_NO_PEEK_END.rawValue
            if source.isLive { flags |= MPG123_SEEKBUFFER.rawValue }
        }
        try check(mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(flags), 0), "setting decoder flags")
        try check(mpg123_param2(handle, Int32(MPG123_PREFRAMES.rawValue), Self.seekPrimingFrames, 0), "setting seek priming")
        try check(mpg123_format_none(handle), "clearing output formats")
        var rates: UnsafePointer<Int>?
        var rateCount = 0
        mpg123_rates(&rates, &rateCount)
        for i in 0..<rateCount {
            try check(mpg123_format(handle, rates![i], Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue),
                                    Int32(MPG123_ENC_SIGNED_16.rawValue)), "fixing the output format")
        }
        try check(mpg123_replace_reader_handle(handle, mpg123ReadCallback, mpg123SeekCallback, nil), "taking over its reads")
        try check(mpg123_open_handle(handle, Unmanaged.passUnretained(reader).toOpaque()), "opening")
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        // Reads the first frame, and with it any Xing/LAME header.
        try check(mpg123_getformat(handle, &rate, &channels, &encoding), "reading the stream format")
        if exactLength, !Self.hasEncoderFrameCount(handle) { try check(mpg123_scan(handle), "scanning frames") }
        // A live stream has no length (0 here), nor a download the server gave none (until
        // its end comes); a file without one has no audio.
        let live = !source.lengthIsKnown
        let length = live ? 0 : mpg123_length(handle)
        guard length > 0 || live else { throw MediaError.corrupt(path, "no decodable MPEG audio frames") }
        info = try StreamInfo(sampleRate: rate, channels: Int(channels), sampleFormat: .s16,
                              totalFrames: Int64(length)).validated(path)
        var frameInfo = mpg123_frameinfo2()
        if mpg123_info2(handle, &frameInfo) == MPG123_OK.rawValue, frameInfo.bitrate > 0 { info.bitrate = Int(frameInfo.bitrate) * 1000 }
        metadata = readMetadata()
    }

    /// Whether the first frame was a LAME info header, whose frame count gives the exact
    /// length, so the whole-file scan, which doubles the reads of a file played once, can
    /// be skipped. (MPG123_ACCURATE does not say this: it is about positions, and is 1 even
    /// while the length is a guess from the file size. That guess, for a file followed by
    /// megabytes of zeros, sent seeks into the zeros, which libmpg123 reads a byte at a time.)
    private static func hasEncoderFrameCount(_ handle: OpaquePointer) -> Bool {
        var delay = -1
        var ignored = 0.0
        return mpg123_getstate2(handle, Int32(MPG123_ENC_DELAY.rawValue), &delay, &ignored) == MPG123_OK.rawValue && delay >= 0
    }

    deinit {
        mpg123_close(handle)
        mpg123_delete(handle)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let frameBytes = info.bytesPerFrame
        let capacity = buffer.count / frameBytes * frameBytes
        var written = 0
        var idleCalls = 0
        while written < capacity, !ended {
            if interruption?() == true { throw DecodeInterrupted() }
            var done = 0
            let status = mpg123_read(handle, buffer.baseAddress! + written, capacity - written, &done)
            written += done
            if let failure = reader.takeFailure() {
                if failure is DecodeInterrupted { throw failure }
                ended = true
                warnings.add("decoding stopped at frame \(position + Int64(written / frameBytes)): \(failure)")
                break
            }
            idleCalls = done == 0 ? idleCalls + 1 : 0
            switch status {
            case MPG123_OK.rawValue, MPG123_NEW_FORMAT.rawValue:
                // Never spin on a stream that stops yielding audio without saying so.
                if idleCalls > 16 {
                    ended = true
                    warnings.add("decoding stopped at frame \(position + Int64(written / frameBytes)): no more audio")
                }
            case MPG123_DONE.rawValue:
                ended = true
            default:
                // Decodable audio so far is kept; the rest of a damaged file is skipped.
                ended = true
                warnings.add("decoding stopped at frame \(position + Int64(written / frameBytes)): \(errorText(status))")
            }
        }
        let frames = written / frameBytes
        position += Int64(frames)
        return frames
    }

    func seek(toFrame frame: Int64) throws {
        if info.totalFrames == 0, frame == 0, position == 0 { return }  // a live stream, at its start
        let target = max(0, min(frame, info.totalFrames))
        let reached = mpg123_seek(handle, off_t(target), Int32(SEEK_SET))
        if let failure = reader.takeFailure() { throw failure }
        guard reached >= 0 else { throw MediaError.seekFailed(path, errorText(Int32(reached))) }
        position = Int64(reached)
        ended = false
    }

    // MARK: Metadata

    private func readMetadata() -> TrackMetadata {
        do {
            return try MP3Tags.metadata(in: reader.source, mpegFrameSeconds: mpegFrameSeconds, readingTheEnd: !reader.source.isDownload)
        } catch {
            warnings.add("tags not read: \(error)")
            return TrackMetadata()
        }
    }

    /// How long one MPEG frame lasts, for SYLT timestamps counted in frames.
    private var mpegFrameSeconds: Double {
        var frameInfo = mpg123_frameinfo2()
        guard mpg123_info2(handle, &frameInfo) == MPG123_OK.rawValue, info.sampleRate > 0 else { return 0 }
        let samples = frameInfo.layer == 1 ? 384 : (frameInfo.layer == 3 && frameInfo.version != Int32(MPG123_1_0.rawValue) ? 576 : 1152)
        return Double(samples) / Double(info.sampleRate)
    }

    // MARK: Errors

    private func errorText(_ status: Int32) -> String {
        status == MPG123_ERR.rawValue ? String(cString: mpg123_strerror(handle)) : MPG123Library.describe(status)
    }

    private func check(_ status: Int32, _ what: String) throws {
        // The source's own reason (the network, an interruption) before libmpg123's.
        if let failure = reader.takeFailure() { throw failure }
        guard status == MPG123_OK.rawValue else {
            throw MediaError.corrupt(path, "libmpg123 failed \(what): \(errorText(status))")
        }
    }
}

/// libmpg123's reads, by position, over a `MediaSource` from `start` on (libmpg123's 0):
/// a failure is kept here for the decoder to rethrow, since libmpg123 only learns that
/// the read failed.
private final class MPG123Reader {
    let source: any MediaSource
    let start: Int64
    var offset: Int64 = 0
    private var failure: (any Error)?

    init(_ source: any MediaSource, start: Int64) {
        self.source = source
        self.start = start
    }

    func read(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        do {
            let got = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count), at: start + offset)
            offset += Int64(got)
            return got
        } catch {
            failure = error
            return -1
        }
    }

    func seek(_ target: Int64, whence: Int32) -> Int64 {
        // A live stream cannot be sought in: libmpg123 then reads it as a stream.
        if source.size == .max, !(whence == SEEK_CUR && target == 0) { return -1 }
        let base: Int64 = switch whence {
        case SEEK_CUR: offset
        case SEEK_END: source.size - start
        default: 0
        }
        guard base + target >= 0 else { return -1 }
        offset = base + target
        return offset
    }

    func takeFailure() -> (any Error)? {
        defer { failure = nil }
        return failure
    }
}

private func mpg123ReadCallback(_ handle: UnsafeMutableRawPointer?, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    guard let handle, let buffer else { return -1 }
    return Unmanaged<MPG123Reader>.fromOpaque(handle).takeUnretainedValue().read(buffer, count)
}

private func mpg123SeekCallback(_ handle: UnsafeMutableRawPointer?, _ offset: off_t, _ whence: Int32) -> off_t {
    guard let handle else { return -1 }
    return off_t(Unmanaged<MPG123Reader>.fromOpaque(handle).takeUnretainedValue().seek(Int64(offset), whence: whence))
}

/// Process-wide libmpg123 set-up and its error texts: the one place its codes become words.
enum MPG123Library {
    private static let ready: Bool = { mpg123_init() == MPG123_OK.rawValue }()

    static func initialise() { _ = ready }

    static func describe(_ code: Int32) -> String { String(cString: mpg123_plain_strerror(code)) }
}
