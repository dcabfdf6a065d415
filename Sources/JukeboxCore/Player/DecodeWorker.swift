/// The decode thread: opens tracks, decodes ahead into the chunk queue, and moves into
/// the pre-opened next track without a gap. All file I/O happens here.
final class DecodeWorker: @unchecked Sendable {  // confined to the decode thread
    private let engine: AudioEngine
    private var current: (ref: TrackRef, decoder: any AudioDecoder)?
    private var next: (ref: TrackRef, decoder: (any AudioDecoder)?)?
    /// The track before `current`, kept so a pause heard just before a gapless change
    /// can go back to it.
    private var previous: TrackRef?
    private var generation = 0
    /// The end-of-stream marker has been queued; nothing to do until a request.
    private var ended = true
    private var reportedWarnings = 0
    /// Decoding until the queue is full, then resting until it is half empty.
    private var refilling = true
    /// `current` has been read to its end: it is not read again.
    private var currentEnded = false
    /// The decoder moved into the pre-opened next track, or that track could not be
    /// opened, and the player has not said yet what follows: it names it when it hears of
    /// the move or the failure, and a track shorter than that moment (a jingle, a cut
    /// between movements, any track on a busy CPU) must wait for its word, not end the
    /// stream with a gap before the track the player was about to name.
    private var awaitingNext = false
    /// Until when the end of `current` waits for that word, once it is reached.
    private var waitingForNextUntil: UInt64?
    /// The longest wait for the player's word at a track's end: it comes in well under a
    /// millisecond, and a player that never answers costs no more than this.
    static let nextWordNanoseconds: UInt64 = 500_000_000
    /// The playback speed's stretch, between the decoder and the queue (when not 1).
    private let speed: SpeedStage
    /// The speed asked for, as read with the last request.
    private var requestedSpeed = 1.0

    init(engine: AudioEngine) {
        self.engine = engine
        speed = SpeedStage(blockFrames: engine.settings.chunkFrames)
    }

    /// Handed to every decoder: a stop, seek, load or shutdown posted while a decoder works
    /// through a hostile file ends that work at its next bounded step.
    private var interruption: DecodeInterruption {
        { [engine] in engine.shared.withLock { s in !s.running || s.decodeRequest != nil } }
    }

    func run() {
        while true {
            var request: DecodeRequest?
            var nextChanged: TrackRef??
            let keepRunning: Bool = engine.shared.withLock { s in
                if s.ring.queued >= engine.queue.capacity { refilling = false }
                while s.running, s.decodeRequest == nil, !s.nextTrackChanged,
                      ended || !refilling || waitingForNextUntil != nil {
                    // Every request and every drained half of the queue wakes it: the
                    // timeout is only a safety net, so it is long (a second), unless the
                    // end of a track waits for the player's word on what follows.
                    var timeout: UInt64 = 1_000_000_000
                    if let until = waitingForNextUntil {
                        let now = MonotonicClock.now()
                        guard until > now else { break }
                        timeout = until - now
                    }
                    s.ring.producerWaiting = true
                    s.wait(nanoseconds: timeout)
                    s.ring.producerWaiting = false
                    if s.ring.queued <= engine.queue.capacity / 2 { refilling = true }
                }
                request = s.decodeRequest
                s.decodeRequest = nil
                if request != nil { requestedSpeed = s.speed }
                if s.nextTrackChanged {
                    nextChanged = .some(s.nextTrack)
                    s.nextTrackChanged = false
                }
                return s.running
            }
            guard keepRunning else { return }
            if let request { handle(request) }
            if let nextChanged {
                awaitingNext = false
                waitingForNextUntil = nil
                prepareNext(nextChanged)
            }
            if !ended { decodeOneChunk() }
        }
    }

    private func handle(_ request: DecodeRequest) {
        generation = request.generation
        refilling = true
        reportedWarnings = 0
        awaitingNext = false
        waitingForNextUntil = nil
        speed.restart(speed: requestedSpeed)
        switch request.kind {
        case .load(let ref, let frame):
            previous = nil
            current = nil
            publishStream()  // the last track's network buffer is not this one's
            open(ref, at: frame)
        case .reposition(let token, let frame):
            if let current, current.ref.token == token {
                seek(current.decoder, to: frame, token: token)
            } else if let previous, previous.token == token {
                if let current { next = (current.ref, current.decoder) }
                self.current = nil
                open(previous, at: frame)
            } else {
                ended = true
            }
        case .stop:
            current = nil
            ended = true
            publishStream()
        }
    }

    private func open(_ ref: TrackRef, at frame: Int64) {
        do {
            let decoder = try AudioFile.open(ref.location, interruption: interruption, network: engine.network)
            engine.onEvent(.trackOpened(token: ref.token, info: decoder.info, metadata: decoder.metadata))
            listenToStream(decoder, token: ref.token)
            current = (ref, decoder)
            currentEnded = false
            ended = false
            // A new decoder is already at the start; an MP3 "seek" to 0 would prime from
            // nothing and differ from straight decoding in its first frames.
            if frame > 0 { seek(decoder, to: frame, token: ref.token) }
            try prebuffer(decoder)
        } catch is DecodeInterrupted {
            // Waiting for the network was cut short by a newer request, which decides.
            ended = true
        } catch {
            ended = true
            engine.onEvent(.trackFailed(token: ref.token, error: MediaError(error, path: ref.path)))
        }
    }

    /// A radio stream's name reaches the player as it comes (after the track is known to
    /// it as opened), and its waits for the network show as buffering. Its titles go with
    /// the audio (`decodeOneChunk`).
    private func listenToStream(_ decoder: any AudioDecoder, token: Int) {
        guard let stream = decoder.source.network else { return }
        stream.listen { [weak engine] news in engine?.onEvent(.streamNews(token: token, news)) }
        stream.whileWaiting = { [weak engine] waiting in
            engine?.shared.withLock { s in
                if s.published.stream?.token != token { s.published.stream = StreamBuffer(token: token, secondsAhead: 0, waiting: waiting) }
                s.published.stream?.waiting = waiting
            }
        }
    }

    /// A network track starts once `prebufferSeconds` of it have arrived (or all of it),
    /// so a slow link does not stutter in its first seconds.
    private func prebuffer(_ decoder: any AudioDecoder) throws {
        guard let stream = decoder.source.network, let rate = stream.bytesPerSecond else { return }
        try stream.prebuffer(bytes: Int64(engine.settings.prebufferSeconds * rate))
    }

    /// What the player shows of the decoding track's network buffer (none for a file).
    private func publishStream() {
        let report: StreamBuffer? = current.flatMap { current in
            guard let stream = current.decoder.source.network else { return nil }
            let (bytes, complete, _) = stream.buffered
            let rate = stream.bytesPerSecond ?? 0
            let ahead = complete && !current.decoder.source.isLive ? Double(current.decoder.info.totalFrames - current.decoder.position) / Double(current.decoder.info.sampleRate)
                : (rate > 0 ? Double(bytes) / rate : 0)
            return StreamBuffer(token: current.ref.token, secondsAhead: max(0, ahead), waiting: false)
        }
        engine.shared.withLock { s in
            guard s.published.stream != report else { return }
            s.published.stream = report
        }
    }

    private func seek(_ decoder: any AudioDecoder, to frame: Int64, token: Int) {
        do {
            try decoder.seek(toFrame: frame)
            currentEnded = false
            ended = false
        } catch is DecodeInterrupted {
            // A newer request is pending; it decides what happens to this track.
            ended = true
        } catch {
            ended = true
            engine.onEvent(.trackFailed(token: token, error: MediaError(error, path: decoder.path)))
        }
    }

    /// Opens the next track now, so the change at the end is immediate (the next chapter
    /// of the same file goes on with the current decoder).
    private func prepareNext(_ ref: TrackRef?) {
        guard let ref else { next = nil; return }
        if next?.ref == ref, next?.decoder != nil { return }
        do {
            let decoder = try AudioFile.open(ref.location, interruption: interruption, network: engine.network, following: current?.decoder)
            engine.onEvent(.trackOpened(token: ref.token, info: decoder.info, metadata: decoder.metadata))
            listenToStream(decoder, token: ref.token)
            next = (ref, decoder)
        } catch is DecodeInterrupted {
            next = nil  // cut short by a newer request: opened when it is reached instead
        } catch {
            next = nil
            // The player names the entry after it: the end of `current` waits for that.
            awaitingNext = true
            engine.onEvent(.trackFailed(token: ref.token, error: MediaError(error, path: ref.path)))
        }
    }

    private func decodeOneChunk() {
        guard let (ref, decoder) = current, let chunk = engine.queue.slotToFill() else { return }
        if speed.isActive, speed.fill(chunk, frames: engine.settings.chunkFrames) {
            chunk.generation = generation
            engine.queue.publish()
            return
        }
        if !currentEnded {
            let format = OutputFormat(decoder.info)
            let startFrame = decoder.position
            // A title the reader has passed names the audio decoded from here on.
            let title = decoder.source.network?.titleReached()
            let target: UnsafeMutableRawBufferPointer
            if speed.isActive, let input = speed.inputBuffer(for: format) {
                target = input
            } else {
                if speed.isActive {
                    // SoundTouch refuses the format: this audio plays at its own speed.
                    engine.onEvent(.decoderNote(path: decoder.path, note: "playback speed unavailable for \(format.channels) channels"))
                    speed.restart(speed: 1)
                }
                chunk.reserve(engine.settings.chunkFrames * format.bytesPerFrame)
                target = UnsafeMutableRawBufferPointer(start: chunk.bytes, count: engine.settings.chunkFrames * format.bytesPerFrame)
            }
            let frames: Int
            do {
                frames = try decoder.read(into: target)
            } catch is DecodeInterrupted {
                // Nothing published: the pending request repositions or replaces this decoder.
                return
            } catch {
                engine.onEvent(.damaged(MediaError(error, path: decoder.path)))
                frames = 0
            }
            reportWarnings(decoder)
            publishStream()
            if frames > 0, speed.isActive {
                // Into the stretch: a chunk is filled once enough has come out of it.
                speed.put(frames: frames, token: ref.token, from: startFrame, loudness: decoder.metadata.replayGain)
                return
            }
            if frames > 0 {
                chunk.speed = 1
                chunk.generation = generation
                chunk.token = ref.token
                chunk.startFrame = startFrame
                chunk.format = format
                chunk.frames = frames
                chunk.consumed = 0
                chunk.loudness = decoder.metadata.replayGain
                chunk.endOfStream = false
                chunk.title = title
                engine.queue.publish()
                return
            }
            currentEnded = true
        }
        // The track ended: continue into the next one without a gap, or mark the end.
        if let upcoming = next, let nextDecoder = upcoming.decoder {
            // The stretch lets out the end of this track before another format comes in
            // (filled from above until it is empty); one format flows on unbroken.
            if let held = speed.format, held != OutputFormat(nextDecoder.info) {
                guard speed.finishing else { speed.finish(); return }
                speed.restart(speed: speed.speed)
            }
            previous = ref
            current = (upcoming.ref, nextDecoder)
            currentEnded = false
            next = nil
            awaitingNext = true
            engine.onEvent(.decoderAdvanced(token: upcoming.ref.token))
            return
        }
        if awaitingNext {
            let now = MonotonicClock.now()
            let until = waitingForNextUntil ?? now + Self.nextWordNanoseconds
            waitingForNextUntil = until
            if now < until { return }  // the slot stays unpublished; the loop waits for the word
        }
        if speed.format != nil, !speed.finishing {
            speed.finish()  // the queue's end: what the stretch holds goes out first
            return
        }
        awaitingNext = false
        waitingForNextUntil = nil
        chunk.generation = generation
        chunk.token = ref.token
        chunk.frames = 0
        chunk.consumed = 0
        chunk.endOfStream = true
        chunk.title = nil
        chunk.speed = 1
        ended = true
        engine.queue.publish()
    }

    private func reportWarnings(_ decoder: any AudioDecoder) {
        let messages = decoder.warnings.messages
        guard messages.count > reportedWarnings else { return }
        for message in messages[reportedWarnings...] { engine.onEvent(.decoderNote(path: decoder.path, note: message)) }
        reportedWarnings = messages.count
    }
}

