/// Playback speed, on the decode thread between the decoder and the chunk queue: the
/// decoded audio goes through a time stretch (pitch kept), and each chunk it fills says
/// which track and frame its audio came from, so the place heard, the elapsed time and
/// seeking stay in the track's own time. At 1.0 it is not in the path at all (the
/// decoder fills the chunks itself, bit-exact, no latency).
///
/// Tracks of one format run through one stretch without a break, so gapless stays
/// gapless; a request (load, seek, pause, speed change) or a change of format starts it
/// afresh. Its buffers are made when it starts on a format, never in steady playback.
final class SpeedStage {
    /// Source frames per output frame: 1.25 plays a quarter faster.
    private(set) var speed = 1.0
    var isActive: Bool { speed != 1 }

    private let blockFrames: Int
    private var stretch: TimeStretch?
    /// Decoded audio on its way into the stretch.
    private var input = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// Source frames put in, and output frames taken out, since the stage started afresh.
    private var fed: Int64 = 0
    private var taken: Int64 = 0
    /// Where each track's audio starts among the frames put in, oldest first.
    private struct Span {
        var token: Int
        var fedStart: Int64
        var frame: Int64
        var frames: Int64
        /// The track's loudness tags, for the audio thread's ReplayGain.
        var loudness: ReplayGainTags
    }
    private var spans: [Span] = []
    /// The stretch was flushed: what it still holds is the last of the audio put in.
    private(set) var finishing = false

    /// `blockFrames`: the most put in, or taken out, at a time (a chunk).
    init(blockFrames: Int) {
        self.blockFrames = blockFrames
        spans.reserveCapacity(8)
    }

    deinit { input.deallocate() }

    /// Starts afresh at `speed` (a request: what was held belongs to older audio).
    func restart(speed: Double) {
        if speed != self.speed { stretch = nil }
        self.speed = speed
        stretch?.clear()
        fed = 0
        taken = 0
        spans.removeAll(keepingCapacity: true)
        finishing = false
    }

    /// The format the stretch holds audio of; nil when it holds none.
    var format: OutputFormat? { fed > 0 ? stretch?.format : nil }

    /// Where to decode up to `blockFrames` frames of `format`; nil when SoundTouch cannot
    /// take that format. A new format starts afresh (the caller has let the old one out).
    func inputBuffer(for format: OutputFormat) -> UnsafeMutableRawBufferPointer? {
        if stretch?.format != format {
            restart(speed: speed)
            stretch = nil
            guard let made = TimeStretch(format: format, tempo: speed, blockFrames: blockFrames) else { return nil }
            stretch = made
        }
        let bytes = blockFrames * format.bytesPerFrame
        if input.count < bytes {
            input.deallocate()
            input = .allocate(byteCount: bytes, alignment: 16)
        }
        return UnsafeMutableRawBufferPointer(start: input.baseAddress, count: bytes)
    }

    /// `frames` were decoded into the input buffer: track `token`'s audio from its `frame`,
    /// with its loudness tags.
    func put(frames: Int, token: Int, from frame: Int64, loudness: ReplayGainTags) {
        guard let stretch else { return }
        if let last = spans.last, last.token == token {
            spans[spans.count - 1].frames += Int64(frames)
        } else {
            spans.append(Span(token: token, fedStart: fed, frame: frame, frames: Int64(frames), loudness: loudness))
        }
        stretch.put(input.baseAddress!, frames: frames)
        fed += Int64(frames)
        finishing = false
    }

    /// The audio put in has ended (the queue's end, or a change of format): what the
    /// stretch holds is let out.
    func finish() {
        guard let stretch, !finishing else { return }
        stretch.flush()
        finishing = true
    }

    /// Fills `chunk` with stretched audio when a whole chunk's worth is ready (or the last
    /// of it, when finishing); false when there is none yet. A chunk holds one track's
    /// audio: it ends where the next track's begins.
    func fill(_ chunk: PCMChunk, frames wanted: Int) -> Bool {
        guard let stretch, !spans.isEmpty else { return false }
        let ready = stretch.ready
        guard ready >= wanted || (finishing && ready > 0) else { return false }
        // The source frame the next output frame stands for.
        let at = Int64((Double(taken) * speed).rounded(.down))
        while spans.count > 1, spans[1].fedStart <= at { spans.removeFirst() }
        let span = spans[0]
        var count = min(wanted, ready, blockFrames)
        if spans.count > 1 {
            let boundary = Int64((Double(spans[1].fedStart) / speed).rounded(.up))
            count = min(count, Int(boundary - taken))
        }
        chunk.reserve(wanted * stretch.format.bytesPerFrame)
        let got = stretch.receive(into: chunk.bytes, frames: count)
        guard got > 0 else { return false }
        chunk.token = span.token
        chunk.startFrame = span.frame + min(at - span.fedStart, span.frames)
        chunk.speed = speed
        chunk.loudness = span.loudness
        chunk.format = stretch.format
        chunk.frames = got
        chunk.consumed = 0
        chunk.endOfStream = false
        chunk.title = nil
        taken += Int64(got)
        return true
    }
}
