import CFlac

/// FLAC through libFLAC's stream decoder. libFLAC calls back with blocks of planar 32-bit
/// samples; we interleave them into the `pending` queue in the output format and hand it
/// out in whatever sizes the caller asks for. One `process_single` call usually yields one
/// block, but after a damaged frame it can yield several, so `pending` is a queue.
///
/// Seeking uses `FLAC__stream_decoder_seek_absolute`, which works with or without a seek
/// table (it bisects the file otherwise) and delivers from exactly the target sample.
///
/// libFLAC reads through our callbacks over the one `MediaSource`, so every byte it
/// reads is counted: no file can hold the decode thread for more than a bounded amount of
/// reading without producing audio (a FLAC padded with gigabytes of zeros, say), and the
/// engine's interruption check is asked before each read.
final class FLACDecoder: AudioDecoder {
    var path: String { file.path }
    var source: any MediaSource { file }
    let container = ContainerFormat.flac
    private(set) var info = StreamInfo(sampleRate: 0, channels: 0, sampleFormat: .s16, totalFrames: 0)
    private(set) var metadata = TrackMetadata()
    /// The CUESHEET block's tracks, used when no CUE sheet with titles is in the tags.
    private var cueSheetMarks: [ChapterMark] = []
    private(set) var position: Int64 = 0
    private(set) var warnings = DecodeWarnings()

    var interruption: DecodeInterruption? {
        didSet { file.interruption = interruption }
    }

    private let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
    private let file: any MediaSource
    /// The byte libFLAC reads next through our callbacks.
    fileprivate var offset: Int64 = 0
    /// Bytes read since the last decoded block (or since the start of the current phase).
    private var bytesWithoutAudio: Int64 = 0
    private var readBudget = FLACDecoder.metadataBudget
    private var budgetExceeded = false
    private var interrupted = false
    private var readFailure: MediaError?
    /// Where the first audio frame starts, to rewind without libFLAC's seek.
    private var firstFrameOffset: Int64 = 0
    /// Frame starts seen while decoding, about one a second, in increasing order: a seek
    /// libFLAC cannot complete restarts from the nearest one and decodes forward.
    private var checkpoints: [(frame: Int64, byte: Int64)] = []
    /// STREAMINFO gave the length, so decoding stops there instead of searching the rest.
    private var lengthFromHeader = false

    /// Every legitimate FLAC frame is far smaller (the format caps a block at 65,535
    /// samples of 32-bit, 8 channels: about 2 MiB): 8 MiB read without one is not audio.
    static let frameSearchBudget: Int64 = 8 << 20
    /// Metadata blocks are at most 16 MiB each; a cover and tags fit easily in 64 MiB.
    static let metadataBudget: Int64 = 64 << 20
    private var sourceBits = 0
    private var shift: Int32 = 0
    private var pending: UnsafeMutableRawPointer?
    private var pendingCapacity = 0
    private var pendingStart = 0
    private var pendingEnd = 0
    private var ended = false
    /// Where the next block should start; a later block means frames were lost to damage.
    private var expectedNextFrame: Int64 = 0
    /// Longest run of lost frames replaced by silence; a larger jump is taken as is.
    private static let maximumGapSeconds = 30
    /// A block whose shape does not match STREAMINFO; reported instead of decoded.
    private var fatal: MediaError?

    init(reader: any MediaSource) throws {
        file = reader
        let path = reader.path
        guard let decoder = FLAC__stream_decoder_new() else {
            throw MediaError.unreadable(path, "libFLAC could not allocate a decoder")
        }
        self.decoder = decoder
        FLAC__stream_decoder_set_md5_checking(decoder, 0)
        FLAC__stream_decoder_set_metadata_respond(decoder, FLAC__METADATA_TYPE_VORBIS_COMMENT)
        FLAC__stream_decoder_set_metadata_respond(decoder, FLAC__METADATA_TYPE_PICTURE)
        FLAC__stream_decoder_set_metadata_respond(decoder, FLAC__METADATA_TYPE_CUESHEET)

        let status = FLAC__stream_decoder_init_stream(
            decoder, flacReadCallback, flacSeekCallback, flacTellCallback, flacLengthCallback, flacEofCallback,
            flacWriteCallback, flacMetadataCallback, flacErrorCallback,
            Unmanaged.passUnretained(self).toOpaque())
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
            throw MediaError.unreadable(path, FLACStatus.describe(status))
        }
        let metadataRead = FLAC__stream_decoder_process_until_end_of_metadata(decoder) != 0
        if let readFailure { throw readFailure }
        if budgetExceeded {
            throw MediaError.corrupt(path, "metadata blocks run past \(Self.metadataBudget >> 20) MiB")
        }
        guard info.sampleRate > 0 else {
            throw fatal ?? MediaError.corrupt(path, "no valid STREAMINFO block (\(FLACStatus.describe(state)))")
        }
        if let fatal { throw fatal }
        if metadata.chapterMarks.isEmpty { metadata.chapterMarks = cueSheetMarks }
        if metadataRead {
            var metadataEnd: FLAC__uint64 = 0
            if FLAC__stream_decoder_get_decode_position(decoder, &metadataEnd) != 0 { firstFrameOffset = Int64(metadataEnd) }
        } else {
            // libFLAC gave up on a block it could not read (a PICTURE claiming 4 GiB, more
            // comments than it takes) after the STREAMINFO: the audio is still there, where
            // the blocks' own lengths say it starts. Blocks after the bad one go unread.
            guard state == FLAC__STREAM_DECODER_SEARCH_FOR_FRAME_SYNC, let audio = try audioStart() else {
                throw MediaError.corrupt(path, "metadata blocks unreadable (\(FLACStatus.describe(state)))")
            }
            warnings.add("a damaged metadata block was skipped; tags or a cover after it are not read")
            firstFrameOffset = audio
            rewind(to: (0, audio))
        }
        startAudioPhase()
        lengthFromHeader = info.totalFrames > 0
        if !lengthFromHeader {
            // STREAMINFO may leave the length unknown (streamed encodes); count it once.
            info.totalFrames = try countFrames()
            rewind(to: (0, firstFrameOffset))
            position = 0
            warnings = DecodeWarnings()
        }
    }

    /// Where the first frame starts, from the chain of metadata block headers (each says
    /// its length and whether it is the last); nil when the chain runs past the file.
    private func audioStart() throws -> Int64? {
        let marker = try FormatSniffer.offsetAfterID3v2(file)  // "fLaC", after any ID3v2 tag
        var at = marker + 4
        while at - marker <= Self.metadataBudget {
            let header = try file.read(at: at, count: 4)
            guard header.count == 4 else { return nil }
            at += 4 + (Int64(header[1]) << 16 | Int64(header[2]) << 8 | Int64(header[3]))
            if header[0] & 0x80 != 0 { return at < file.size ? at : nil }
        }
        return nil
    }

    private func startAudioPhase() {
        readBudget = Self.frameSearchBudget
        bytesWithoutAudio = 0
        budgetExceeded = false
    }

    deinit {
        FLAC__stream_decoder_finish(decoder)
        FLAC__stream_decoder_delete(decoder)
        pending?.deallocate()
    }

    private var state: FLAC__StreamDecoderState { FLAC__stream_decoder_get_state(decoder) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let frameBytes = info.bytesPerFrame
        let capacity = buffer.count / frameBytes * frameBytes
        var written = 0
        while written < capacity {
            if pendingEnd > pendingStart {
                let n = min(pendingEnd - pendingStart, capacity - written)
                (buffer.baseAddress! + written).copyMemory(from: pending! + pendingStart, byteCount: n)
                pendingStart += n
                written += n
                continue
            }
            if ended { break }
            try decodeNextBlock()
            let delivered = position + Int64((written + pendingEnd - pendingStart) / frameBytes)
            if ended, delivered < info.totalFrames {
                warnings.add("stream ended at frame \(delivered) of \(info.totalFrames): file is truncated")
            }
        }
        let frames = written / frameBytes
        position += Int64(frames)
        return frames
    }

    func seek(toFrame frame: Int64) throws {
        let target = max(0, min(frame, info.totalFrames))
        pendingStart = 0
        pendingEnd = 0
        ended = false
        expectedNextFrame = target
        if target == info.totalFrames {
            position = target
            ended = true
            return
        }
        if target == 0 {
            // The start is known exactly: no search, so damage elsewhere cannot stop it.
            rewind(to: (0, firstFrameOffset))
            position = 0
            return
        }
        bytesWithoutAudio = 0
        if FLAC__stream_decoder_seek_absolute(decoder, FLAC__uint64(target)) != 0 {
            position = target
            return
        }
        // After a failed seek libFLAC needs a flush before it decodes again.
        FLAC__stream_decoder_flush(decoder)
        try takeInterruption()
        if let fatal { throw fatal }
        // Its bisection landed in damage or padding: decode forward from a known frame.
        budgetExceeded = false
        try decodeForward(to: target)
    }

    /// Positions the stream at a frame start whose byte offset is known.
    private func rewind(to checkpoint: (frame: Int64, byte: Int64)) {
        FLAC__stream_decoder_flush(decoder)
        offset = checkpoint.byte
        bytesWithoutAudio = 0
        budgetExceeded = false
        pendingStart = 0
        pendingEnd = 0
        expectedNextFrame = checkpoint.frame
        ended = false
    }

    /// Exact seek without libFLAC's search: from the nearest earlier checkpoint, decode and
    /// discard until the block holding `target`. Bounded by the file's audio and the budget.
    private func decodeForward(to target: Int64) throws {
        let start = checkpoints.last(where: { $0.frame <= target }) ?? (0, firstFrameOffset)
        rewind(to: start)
        while expectedNextFrame <= target, !ended {
            pendingStart = pendingEnd
            try decodeNextBlock()
        }
        guard expectedNextFrame > target else {
            ended = true
            throw MediaError.seekFailed(path, "cannot reach frame \(target): audio ends at frame \(expectedNextFrame)")
        }
        let keep = Int(expectedNextFrame - target) * info.bytesPerFrame
        pendingStart = max(pendingStart, pendingEnd - keep)
        ended = false
        position = target
    }

    /// Throws `DecodeInterrupted` if the last libFLAC call was stopped by the interruption check.
    private func takeInterruption() throws {
        guard interrupted else { return }
        interrupted = false
        FLAC__stream_decoder_flush(decoder)
        throw DecodeInterrupted()
    }

    /// Decodes one block into `pending`, or marks the end of the stream.
    private func decodeNextBlock() throws {
        if lengthFromHeader, expectedNextFrame >= info.totalFrames {
            // Whatever follows the promised length (padding, junk) is not searched.
            ended = true
            return
        }
        let ok = FLAC__stream_decoder_process_single(decoder) != 0
        try takeInterruption()
        if let fatal { throw fatal }
        if let readFailure { throw readFailure }
        if budgetExceeded {
            FLAC__stream_decoder_flush(decoder)
            budgetExceeded = false
            bytesWithoutAudio = 0
            ended = true
            warnings.add("no audio in the last \(Self.frameSearchBudget >> 20) MiB after frame \(expectedNextFrame): treating as the end")
            return
        }
        let state = self.state
        if state == FLAC__STREAM_DECODER_END_OF_STREAM || !ok {
            ended = true
            if !ok { warnings.add("decoding stopped: \(FLACStatus.describe(state))") }
        }
    }

    /// Decodes the whole stream once; the caller rewinds.
    private func countFrames() throws -> Int64 {
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        while try scratch.withUnsafeMutableBytes({ try read(into: $0) }) > 0 {}
        return position
    }

    // MARK: libFLAC callbacks

    fileprivate func readBytes(_ buffer: UnsafeMutablePointer<FLAC__byte>, _ count: Int) -> Int? {
        if interruption?() == true { interrupted = true; return nil }
        if bytesWithoutAudio >= readBudget { budgetExceeded = true; return nil }
        let wanted = Int(min(Int64(count), readBudget - bytesWithoutAudio))
        do {
            let got = try file.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: wanted), at: offset)
            offset += Int64(got)
            bytesWithoutAudio += Int64(got)
            return got
        } catch is DecodeInterrupted {
            interrupted = true
            return nil
        } catch {
            readFailure = error as? MediaError ?? .unreadable(path, "\(error)")
            return nil
        }
    }

    fileprivate var fileSize: Int64 { file.size }

    fileprivate func receiveStreamInfo(_ si: FLAC__StreamMetadata_StreamInfo) {
        sourceBits = Int(si.bits_per_sample)
        guard let format = SampleFormat(containing: sourceBits) else {
            fatal = .unsupported(path, "\(sourceBits)-bit samples")
            return
        }
        shift = Int32(format.bitsPerSample - sourceBits)
        info = StreamInfo(sampleRate: Int(si.sample_rate), channels: Int(si.channels),
                          sampleFormat: format, totalFrames: Int64(si.total_samples))
        do { info = try info.validated(path) } catch { fatal = error as? MediaError }
        reservePending(2 * max(Int(si.max_blocksize), 4608) * info.bytesPerFrame)
    }

    fileprivate func receiveMetadata(_ block: UnsafePointer<FLAC__StreamMetadata>) {
        switch block.pointee.type {
        case FLAC__METADATA_TYPE_STREAMINFO:
            receiveStreamInfo(block.pointee.data.stream_info)
        case FLAC__METADATA_TYPE_VORBIS_COMMENT:
            let vc = block.pointee.data.vorbis_comment
            var entries: [String] = []
            for i in 0..<Int(vc.num_comments) {
                let entry = vc.comments[i]
                guard let bytes = entry.entry else { continue }
                entries.append(String(decoding: UnsafeBufferPointer(start: bytes, count: Int(entry.length)), as: UTF8.self))
            }
            metadata.fillGaps(from: VorbisComments.metadata(from: entries))
        case FLAC__METADATA_TYPE_PICTURE:
            let p = block.pointee.data.picture
            let data = p.data.map { Array(UnsafeBufferPointer(start: $0, count: Int(p.data_length))) } ?? []
            metadata.pictures.append(EmbeddedPicture(
                type: Int(p.type.rawValue),
                mimeType: p.mime_type.map { String(cString: $0) } ?? "",
                description: p.description.map { String(cString: $0) } ?? "",
                data: data))
        case FLAC__METADATA_TYPE_CUESHEET:
            cueSheetMarks = Self.marks(block.pointee.data.cue_sheet, sampleRate: info.sampleRate)
        default:
            break
        }
    }

    /// A CD's cue sheet: each track's INDEX 01, in samples from the start (no titles:
    /// CD-TEXT is not in the block). The lead-out (track 170 or 255) is no track.
    private static func marks(_ sheet: FLAC__StreamMetadata_CueSheet, sampleRate: Int) -> [ChapterMark] {
        guard sampleRate > 0, let tracks = sheet.tracks else { return [] }
        var marks: [ChapterMark] = []
        for t in 0..<min(Int(sheet.num_tracks), TagLimits.maximumChapters + 1) {
            let track = tracks[t]
            guard track.number != 170, track.number != 255, let indices = track.indices else { continue }
            let index = (0..<Int(track.num_indices)).first { indices[$0].number == 1 } ?? 0
            guard index < Int(track.num_indices) else { continue }
            marks.append(ChapterMark(title: nil, count: Int64(track.offset + indices[index].offset), perSecond: Int64(sampleRate)))
        }
        return marks
    }

    fileprivate func receiveBlock(_ frame: UnsafePointer<FLAC__Frame>,
                                  _ planes: UnsafePointer<UnsafePointer<FLAC__int32>?>) -> Bool {
        let header = frame.pointee.header
        let count = Int(header.blocksize)
        guard Int(header.channels) == info.channels, Int(header.bits_per_sample) == sourceBits else {
            fatal = .corrupt(path, "a frame changes the stream's shape (\(header.channels) channels, \(header.bits_per_sample)-bit)")
            return false
        }
        // Frames lost to damage leave a gap in the sample numbers: fill it with silence so
        // positions and durations stay true to the header.
        let first = Int64(header.number.sample_number)
        let gap = min(first, info.totalFrames) - expectedNextFrame
        if gap > 0, gap <= Int64(Self.maximumGapSeconds * info.sampleRate) {
            let bytes = Int(gap) * info.bytesPerFrame
            (appendPending(bytes)).initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
            warnings.add("\(gap) frames lost to damage at frame \(expectedNextFrame), replaced by silence")
        }
        expectedNextFrame = first + Int64(count)
        bytesWithoutAudio = 0
        noteCheckpoint()
        PCMInterleave.interleave(planes, frames: count, channels: info.channels, shift: shift,
                                 format: info.sampleFormat, into: appendPending(count * info.bytesPerFrame))
        return true
    }

    /// Remembers where the next frame starts, about once a second of audio.
    private func noteCheckpoint() {
        guard checkpoints.last.map({ expectedNextFrame >= $0.frame + Int64(info.sampleRate) }) ?? true else { return }
        var next: FLAC__uint64 = 0
        guard FLAC__stream_decoder_get_decode_position(decoder, &next) != 0 else { return }
        checkpoints.append((expectedNextFrame, Int64(next)))
    }

    /// Room for `bytes` more at the end of the queue, compacting or growing it as needed.
    private func appendPending(_ bytes: Int) -> UnsafeMutableRawPointer {
        if pendingEnd + bytes > pendingCapacity {
            let queued = pendingEnd - pendingStart
            if queued + bytes > pendingCapacity {
                reservePending(max(2 * pendingCapacity, queued + bytes))
            } else if let pending, queued > 0 {
                pending.copyMemory(from: pending + pendingStart, byteCount: queued)
            }
            pendingStart = 0
            pendingEnd = queued
        }
        defer { pendingEnd += bytes }
        return pending! + pendingEnd
    }

    private func reservePending(_ capacity: Int) {
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        if let pending {
            grown.copyMemory(from: pending + pendingStart, byteCount: pendingEnd - pendingStart)
            pending.deallocate()
        }
        pendingEnd -= pendingStart
        pendingStart = 0
        pending = grown
        pendingCapacity = capacity
    }

    fileprivate func receiveError(_ status: FLAC__StreamDecoderErrorStatus) {
        warnings.add("\(FLACStatus.describe(status)) after frame \(expectedNextFrame)")
    }
}

private func flacDecoder(_ client: UnsafeMutableRawPointer?) -> FLACDecoder {
    Unmanaged<FLACDecoder>.fromOpaque(client!).takeUnretainedValue()
}

private let flacWriteCallback: FLAC__StreamDecoderWriteCallback = { _, frame, buffer, client in
    guard let frame, let buffer else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
    return flacDecoder(client).receiveBlock(frame, buffer)
        ? FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE : FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
}

private let flacMetadataCallback: FLAC__StreamDecoderMetadataCallback = { _, block, client in
    if let block { flacDecoder(client).receiveMetadata(block) }
}

private let flacErrorCallback: FLAC__StreamDecoderErrorCallback = { _, status, client in
    flacDecoder(client).receiveError(status)
}

private let flacReadCallback: FLAC__StreamDecoderReadCallback = { _, buffer, bytes, client in
    guard let buffer, let bytes else { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
    guard let got = flacDecoder(client).readBytes(buffer, bytes.pointee) else {
        bytes.pointee = 0
        return FLAC__STREAM_DECODER_READ_STATUS_ABORT
    }
    bytes.pointee = got
    return got == 0 ? FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM : FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
}

private let flacSeekCallback: FLAC__StreamDecoderSeekCallback = { _, target, client in
    let decoder = flacDecoder(client)
    guard target <= FLAC__uint64(decoder.fileSize) else { return FLAC__STREAM_DECODER_SEEK_STATUS_ERROR }
    decoder.offset = Int64(target)
    return FLAC__STREAM_DECODER_SEEK_STATUS_OK
}

private let flacTellCallback: FLAC__StreamDecoderTellCallback = { _, offset, client in
    offset?.pointee = FLAC__uint64(flacDecoder(client).offset)
    return FLAC__STREAM_DECODER_TELL_STATUS_OK
}

private let flacLengthCallback: FLAC__StreamDecoderLengthCallback = { _, length, client in
    // A download whose server gave no length: libFLAC's seek would search to the end of all bytes.
    guard flacDecoder(client).fileSize != .max else { return FLAC__STREAM_DECODER_LENGTH_STATUS_UNSUPPORTED }
    length?.pointee = FLAC__uint64(flacDecoder(client).fileSize)
    return FLAC__STREAM_DECODER_LENGTH_STATUS_OK
}

private let flacEofCallback: FLAC__StreamDecoderEofCallback = { _, client in
    let decoder = flacDecoder(client)
    return decoder.offset >= decoder.fileSize ? 1 : 0
}
