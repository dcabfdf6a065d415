import CFFmpeg
import CJukeboxShim

#if canImport(Glibc)
import Glibc
#endif

/// AAC (LC and HE) and ALAC in MP4/M4A/M4B, through FFmpeg's mov demuxer and decoders,
/// loaded on the first such file.
///
/// - Bytes come from the `MediaSource` through a custom AVIOContext, so a download plays
///   as a file does.
/// - Gapless: the encoder's priming (the edit list, or iTunSMPB) is skipped by libavcodec
///   from the demuxer's skip-samples; positions follow each frame's timestamp, counted
///   from the track's first sample (0 after an edit list; with iTunSMPB, the priming),
///   and the output stops at the stream's length (`MP4Length`), so the padding is never
///   played.
///   Where a frame's timestamp is later than the last one's end (a dropped packet, or
///   HE-AAC's priming, which libavcodec skips twice over), the gap comes out as silence,
///   so positions stay true.
/// - Seeking lands on the packet before the target (earlier by `preRoll` for AAC, whose
///   frames overlap) and decodes forward to the exact frame.
/// - AAC decodes to float and is rounded to 16-bit as FFmpeg's own conversion does; ALAC
///   keeps its bits (16 → s16, 20 and 24 → s24, 32 → s32), bit-exact.
final class MP4Decoder: AudioDecoder {
    var path: String { reader.source.path }
    var source: any MediaSource { reader.source }
    var interruption: DecodeInterruption? {
        didSet { reader.source.interruption = interruption }
    }
    let container = ContainerFormat.mp4
    private(set) var info = StreamInfo(sampleRate: 0, channels: 0, sampleFormat: .s16, totalFrames: 0)
    private(set) var metadata = TrackMetadata()
    private(set) var position: Int64 = 0
    private(set) var warnings = DecodeWarnings()

    private let reader: AVIOReader
    private let session: FFmpegSession
    private var stream: UnsafeMutablePointer<AVStream> { session.format.pointee.streams[Int(streamIndex)]! }
    private let streamIndex: Int32
    /// The held decoded frame, how many of its samples are handed out, and the stream
    /// position of its first sample.
    private var frameHeld = false
    private var frameUsed = 0
    private var frameStart: Int64 = 0
    /// The track's first sample on the stream's clock, in samples: positions count from it.
    private var trackStart: Int64 = 0
    /// Where the next decoded frame starts when it carries no timestamp.
    private var nextStart: Int64 = 0
    private var draining = false
    private var ended = false
    /// How far before a seek target decoding starts: AAC frames overlap, so the first one
    /// decoded after a jump is incomplete; two frames rebuild the overlap (more changes
    /// nothing measurable: what still differs from a decode from the start, a few LSB, is
    /// the noise libavcodec's random generator fills PNS bands with). HE-AAC's frames are
    /// twice as long (2,048 at the output rate), so its two frames are twice as far. Every
    /// ALAC packet stands alone.
    private var preRoll: Int64 = 0
    /// How far a frame's timestamp, turned into samples, may land from where the last one
    /// ended before the difference counts as missing audio: its rounding.
    private var timestampSlack: Int64 = 1
    /// Packets in a row the decoder refused: past this the rest of the file is skipped.
    private static let maximumBadPackets = 64

    init(reader source: any MediaSource) throws {
        let path = source.path
        try FFmpegLibrary.load(for: path)
        reader = AVIOReader(source)
        session = try FFmpegSession(reader)
        let format = session.format
        // The first audio stream; covers, chapter text and video are never read.
        var audio: Int32 = -1
        for i in 0..<Int(format.pointee.nb_streams) {
            let candidate = format.pointee.streams[i]!
            let isAudio = candidate.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO
                && candidate.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
            if isAudio, audio < 0 { audio = Int32(i) } else { candidate.pointee.discard = AVDISCARD_ALL }
        }
        guard audio >= 0 else { throw MediaError.unsupported(path, "an MP4 file with no audio track") }
        streamIndex = audio
        let parameters = format.pointee.streams[Int(audio)]!.pointee.codecpar!
        let codecID = parameters.pointee.codec_id
        guard codecID == AV_CODEC_ID_AAC || codecID == AV_CODEC_ID_ALAC else {
            throw MediaError.unsupported(path, "audio in MP4 other than AAC or ALAC")
        }
        try session.openDecoder(parameters, timeBase: format.pointee.streams[Int(audio)]!.pointee.time_base, path: path)
        // The first frame says what the stream really is (HE-AAC doubles the rate it states).
        guard try decodeFrame() else { throw MediaError.corrupt(path, "no decodable audio") }
        let codec = session.codec!
        let rate = Int(session.frame.pointee.sample_rate)
        let channels = Int(session.frame.pointee.ch_layout.nb_channels)
        if codecID == AV_CODEC_ID_AAC { preRoll = 2 * max(1024, Int64(session.frame.pointee.nb_samples)) }
        let sampleFormat: SampleFormat
        if codecID == AV_CODEC_ID_ALAC {
            guard let kept = SampleFormat(containing: Int(codec.pointee.bits_per_raw_sample > 0 ? codec.pointee.bits_per_raw_sample : 16)) else {
                throw MediaError.unsupported(path, "ALAC of \(codec.pointee.bits_per_raw_sample) bits")
            }
            sampleFormat = kept
        } else {
            sampleFormat = .s16
        }
        guard SampleConversion(session.frame.pointee.format) != nil else {
            throw MediaError.unsupported(path, "FFmpeg's sample format \(session.frame.pointee.format)")
        }
        let timeBase = format.pointee.streams[Int(audio)]!.pointee.time_base
        timestampSlack = 1 + Int64((Double(rate) * Double(timeBase.num) / Double(timeBase.den)).rounded(.up))
        // Where the track's first sample is on the stream's clock, now the first packets
        // are read: after an edit list, 0; with iTunSMPB, the priming.
        let startTime = format.pointee.streams[Int(audio)]!.pointee.start_time
        if startTime != Int64.min {
            trackStart = Self.samples(startTime, timeBase: timeBase, rate: rate)
            frameStart -= trackStart
            nextStart -= trackStart
        }
        let length = try MP4Length(format: format, stream: format.pointee.streams[Int(audio)]!, sampleRate: rate, source: source)
        info = try StreamInfo(sampleRate: rate, channels: channels, sampleFormat: sampleFormat,
                              totalFrames: length.frames).validated(path)
        if codec.pointee.bit_rate > 0 { info.bitrate = Int(codec.pointee.bit_rate) }
        metadata = MP4Tags.metadata(format)
        metadata.chapterMarks = MP4Tags.chapterMarks(format)
    }

    // MARK: Reading

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let frameBytes = info.bytesPerFrame
        let capacity = buffer.count / frameBytes
        var written = 0
        while written < capacity, position + Int64(written) < info.totalFrames, !ended {
            if interruption?() == true { throw DecodeInterrupted() }
            if !frameHeld {
                guard try decodeFrame() else { break }
                continue
            }
            let held = Int(session.frame.pointee.nb_samples)
            let wantedFrom = position + Int64(written)
            // Audio the timeline holds that libavcodec left out comes out as silence, so
            // every position stays true and a seek finds what playing through gives: a
            // packet it dropped, or HE-AAC's priming, which it skips twice over (it
            // takes the container's count for the half-rate core's).
            if frameUsed == 0, frameStart - wantedFrom > timestampSlack {
                let silent = Int(min(frameStart - wantedFrom, Int64(capacity - written), info.totalFrames - wantedFrom))
                (buffer.baseAddress! + written * frameBytes).initializeMemory(as: UInt8.self, repeating: 0, count: silent * frameBytes)
                written += silent
                continue
            }
            // Samples before the position wanted (a seek's pre-roll, the priming) are dropped.
            let start = max(frameUsed, Int(min(Int64(held), max(0, wantedFrom - frameStart))))
            let count = min(held - start, capacity - written, Int(info.totalFrames - wantedFrom))
            if count > 0 {
                let out = buffer.baseAddress! + written * frameBytes
                SampleConversion(session.frame.pointee.format)!.convert(
                    session.frame, from: start, count: count, channels: info.channels, to: info.sampleFormat, into: out)
                written += count
            }
            frameUsed = start + max(0, count)
            if frameUsed >= held { frameHeld = false }
        }
        position += Int64(written)
        return written
    }

    /// Decodes the next frame into `session.frame`; false at the end (or where damage
    /// ends the file, with a warning).
    private func decodeFrame() throws -> Bool {
        var badPackets = 0
        while true {
            let received = jukebox_avcodec_receive_frame(session.codec, session.frame)
            if received == 0 {
                let frameRate = session.frame.pointee.sample_rate
                let pts = session.frame.pointee.pts
                frameStart = pts == Int64.min ? nextStart : Self.samples(pts, timeBase: stream.pointee.time_base, rate: Int(frameRate)) - trackStart
                nextStart = frameStart + Int64(session.frame.pointee.nb_samples)
                frameUsed = 0
                frameHeld = true
                return true
            }
            if received == FFmpegLibrary.endOfFile {
                ended = true
                return false
            }
            if received != FFmpegLibrary.tryAgain {
                badPackets += 1
                warnings.add("damaged audio at frame \(nextStart) skipped: \(FFmpegLibrary.describe(received))")
            }
            // The decoder wants a packet: between packets a stop or a seek may cut in, so a
            // long run of packets that give no audio never holds the caller.
            if draining { ended = true; return false }
            if interruption?() == true { throw DecodeInterrupted() }
            let status = jukebox_av_read_frame(session.format, session.packet)
            if let failure = reader.takeFailure() {
                jukebox_av_packet_unref(session.packet)
                if failure is DecodeInterrupted { throw failure }
                warnings.add("decoding stopped at frame \(nextStart): \(failure)")
                ended = true
                return false
            }
            if status < 0 {
                if status != FFmpegLibrary.endOfFile {
                    warnings.add("decoding stopped at frame \(nextStart): \(FFmpegLibrary.describe(status))")
                }
                draining = true
                _ = jukebox_avcodec_send_packet(session.codec, nil)
                continue
            }
            defer { jukebox_av_packet_unref(session.packet) }
            guard session.packet.pointee.stream_index == streamIndex else { continue }
            let sent = jukebox_avcodec_send_packet(session.codec, session.packet)
            if sent < 0, sent != FFmpegLibrary.tryAgain {
                badPackets += 1
                warnings.add("damaged audio at frame \(nextStart) skipped: \(FFmpegLibrary.describe(sent))")
            } else {
                badPackets = 0
            }
            if badPackets > Self.maximumBadPackets {
                warnings.add("decoding stopped at frame \(nextStart): \(Self.maximumBadPackets) damaged packets in a row")
                ended = true
                return false
            }
        }
    }

    // MARK: Seeking

    func seek(toFrame frame: Int64) throws {
        let target = max(0, min(frame, info.totalFrames))
        let from = max(0, target - preRoll)
        let timeBase = stream.pointee.time_base
        // Stream time of the sample `from`; before the first packet, mov seeks to the first.
        let timestamp = Int64((Double(from + trackStart) * Double(timeBase.den) / Double(timeBase.num) / Double(info.sampleRate)).rounded(.down))
        let status = jukebox_av_seek_frame(session.format, streamIndex, from == 0 ? Int64.min / 2 : timestamp, AVSEEK_FLAG_BACKWARD)
        if let failure = reader.takeFailure() { throw failure }
        guard status >= 0 else { throw MediaError.seekFailed(path, FFmpegLibrary.describe(status)) }
        // A new decoder rather than a flushed one: a flush keeps the last frame's window
        // shape, so the first frames after it would differ from a decode from the start.
        try session.openDecoder(stream.pointee.codecpar, timeBase: timeBase, path: path)
        frameHeld = false
        draining = false
        ended = false
        nextStart = from
        position = target
    }

    /// `pts` in `timeBase` as a sample count at `rate`, rounded to the nearest.
    private static func samples(_ pts: Int64, timeBase: AVRational, rate: Int) -> Int64 {
        if Int64(timeBase.num) == 1, Int64(timeBase.den) == Int64(rate) { return pts }
        return Int64((Double(pts) * Double(timeBase.num) * Double(rate) / Double(timeBase.den)).rounded())
    }
}

/// The demuxer and decoder of one file, freed together.
private final class FFmpegSession {
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private(set) var codec: UnsafeMutablePointer<AVCodecContext>?
    let packet: UnsafeMutablePointer<AVPacket>
    let frame: UnsafeMutablePointer<AVFrame>
    var format: UnsafeMutablePointer<AVFormatContext> { formatContext! }

    /// libavformat's read buffer: a few packets of AAC, a fraction of one of 8-channel ALAC.
    static let bufferSize: Int32 = 32 * 1024

    init(_ reader: AVIOReader) throws {
        let path = reader.source.path
        guard let packet = jukebox_av_packet_alloc(), let frame = jukebox_av_frame_alloc() else {
            throw MediaError.unreadable(path, "FFmpeg could not allocate a packet")
        }
        self.packet = packet
        self.frame = frame
        io = jukebox_avio_alloc_context(Self.bufferSize, Unmanaged.passUnretained(reader).toOpaque(), avioRead, avioSeek)
        formatContext = jukebox_avformat_alloc_context()
        guard let io, let formatContext else { throw MediaError.unreadable(path, "FFmpeg could not allocate a demuxer") }
        formatContext.pointee.pb = io
        // libavformat reads a cover whole; one larger than any kept (a hostile 200 MB) is
        // hidden from it, so it is stepped over unread and the audio plays. A download's
        // index may be at its end, so only FFmpeg's allocation limit bounds it there.
        if !reader.source.isDownload,
           let covers = try? MP4Boxes(reader.source).largeCovers(over: Int64(TagLimits.maximumPictureBytes)) {
            reader.hide(covers)
        }
        // A failed open frees the context itself.
        let status = jukebox_avformat_open_input(&self.formatContext, "mov", nil)
        if let failure = reader.takeFailure() { throw failure }
        guard status >= 0 else { throw Self.openError(status, path: path, source: reader.source) }
    }

    /// Why the demuxer refused the file, in words that say what is wrong with it.
    private static func openError(_ status: Int32, path: String, source: any MediaSource) -> MediaError {
        let said = FFmpegLibrary.describe(status)
        if status == FFmpegLibrary.invalidData || status == FFmpegLibrary.endOfFile {
            return .truncated(path, "no complete 'moov' box (the index of the audio): the file is cut short or damaged (\(said))")
        }
        if status == -ENOMEM { return .unsupported(path, "a box larger than \(FFmpegLibrary.maximumAllocation >> 20) MiB (a huge cover?)") }
        return .corrupt(path, "FFmpeg cannot read it as MP4: \(said)")
    }

    /// Opens the stream's decoder, or a new one in place of the one open.
    func openDecoder(_ parameters: UnsafeMutablePointer<AVCodecParameters>, timeBase: AVRational, path: String) throws {
        jukebox_avcodec_free_context(&codec)
        guard let decoder = jukebox_avcodec_find_decoder(parameters.pointee.codec_id),
              let context = jukebox_avcodec_alloc_context(decoder) else {
            throw MediaError.unsupported(path, "this FFmpeg has no decoder for its audio")
        }
        codec = context
        try check(jukebox_avcodec_parameters_to_context(context, parameters), path)
        // Lets libavcodec keep timestamps right as it drops the encoder's priming.
        context.pointee.pkt_timebase = timeBase
        try check(jukebox_avcodec_open(context, decoder), path)
    }

    private func check(_ status: Int32, _ path: String) throws {
        guard status >= 0 else { throw MediaError.corrupt(path, "FFmpeg cannot decode its audio: \(FFmpegLibrary.describe(status))") }
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        jukebox_av_packet_free(&packet)
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        jukebox_av_frame_free(&frame)
        jukebox_avcodec_free_context(&codec)
        jukebox_avformat_close_input(&formatContext)
        jukebox_avio_context_free(&io)
    }
}

/// libavformat's reads over a `MediaSource`: a failure is kept here for the decoder to
/// rethrow, since libavformat only learns that the read failed.
final class AVIOReader {
    let source: any MediaSource
    private var offset: Int64 = 0
    private var failure: (any Error)?

    init(_ source: any MediaSource) { self.source = source }

    /// Where box types are read as `free` instead (see `hide`).
    private var hidden: [Int64] = []

    /// The 4-byte box types at `offsets` read as `free`, a type libavformat steps over
    /// without reading.
    func hide(_ offsets: [Int64]) { hidden = offsets }

    func read(_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int32) -> Int32 {
        do {
            let got = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(count)), at: offset)
            for type in hidden where type + 4 > offset && type < offset + Int64(got) {
                for (i, byte) in "free".utf8.enumerated() where (offset..<(offset + Int64(got))).contains(type + Int64(i)) {
                    buffer[Int(type + Int64(i) - offset)] = byte
                }
            }
            offset += Int64(got)
            return got == 0 ? FFmpegLibrary.endOfFile : Int32(got)
        } catch {
            failure = error
            return -EIO
        }
    }

    func seek(_ target: Int64, whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return source.lengthIsKnown ? source.size : -1 }
        let base: Int64 = switch whence & ~AVSEEK_FORCE {
        case SEEK_CUR: offset
        case SEEK_END: source.size
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

private func avioRead(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int32) -> Int32 {
    guard let opaque, let buffer else { return -EIO }
    return Unmanaged<AVIOReader>.fromOpaque(opaque).takeUnretainedValue().read(buffer, count)
}

private func avioSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return -1 }
    return Unmanaged<AVIOReader>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence: whence)
}
