/// The audio thread: takes decoded chunks, applies volume and fades, and writes them to
/// the output whenever half its buffer is free. Commands wake it at once, and a pause,
/// stop or seek takes back what the device has not played, so it takes effect within a
/// period whatever the buffer.
///
/// Position is what has been heard: frames written minus the device's delay, mapped back
/// to the track they came from. A pause rewinds what the device has not played yet (where
/// it can), fades out over a few milliseconds, and asks the decode thread to continue from
/// the frame heard last, so resuming neither skips nor repeats audio.
final class OutputWorker: @unchecked Sendable {  // confined to the audio thread
    private let engine: AudioEngine
    /// The devices to play to; replaced whole when the admin changes them (`reroute`).
    private var output: OutputRoute
    /// Losing a device, looking for one, and where the audio goes.
    private var devices: DevicePolicy

    private enum State { case idle, playing, paused, stopped, failed }
    private var state = State.idle
    private var generation = 0
    private var format: OutputFormat?
    private var position = PlaybackPosition()
    private let gain = GainStage()
    private var replayGain = ReplayGainRule.off
    private lazy var software = SoftwareMixer(gain)
    /// The volume asked for (0–100); the mixer in use applies it.
    private var volume = 100
    private var mixerDescription = "software"
    private var mixerAnnounced: String?
    private var recent = RecentOutput()
    private var lastError: OutputError?
    private var announcedDevice: String?
    /// A resume or start waiting for its first audio to be written, to report when it sounded.
    private var awaitingAudio: (command: AppliedCommand, postedAt: UInt64)?
    /// When the last interrupt began, and how long after that its fade began to sound.
    private var interruptStartedAt: UInt64 = 0
    private var audibleAfterNanoseconds: UInt64 = 0
    private var dropouts = DropoutReport()
    /// A jingle being mixed over the music, and where its mix is made.
    private var jingle: JingleVoice?
    private var jingleScratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// A live stream's titles written with the audio they name, told when it is heard.
    private var titles: [(place: TrackPosition, text: String)] = []

    init(engine: AudioEngine) {
        self.engine = engine
        output = engine.output
        devices = DevicePolicy(onLost: engine.settings.onOutputLost,
                               probeInterval: UInt64(engine.settings.deviceProbeMilliseconds) * 1_000_000)
    }

    deinit { jingleScratch.deallocate() }

    func run() {
        while true {
            var commands: [OutputCommand] = []
            // Asked before taking the lock: the control side never waits on the device.
            // Refill when half the buffer is free, not every period: a box that plays for
            // hours sleeps between large writes (commands wake it at once all the same).
            let untilWritable = state == .playing ? output.nanosecondsUntilWritable(refillFrames) : 0
            let longestSleep = self.longestSleep
            let keepRunning: Bool = engine.shared.withLock { s in
                s.audioThreadSeen = MonotonicClock.now()
                if state != .playing || s.ring.queued == 0, s.outputCommands.isEmpty, s.running {
                    s.ring.consumerWaiting = true
                    s.wait(nanoseconds: longestSleep)
                    s.ring.consumerWaiting = false
                } else if s.outputCommands.isEmpty, s.running {
                    // Wait for room here rather than inside a blocking write, so a pause or
                    // seek posted meanwhile is handled at once, not a period later.
                    if untilWritable > 200_000 { s.wait(nanoseconds: min(untilWritable, longestSleep)) }
                }
                commands = s.outputCommands
                s.outputCommands.removeAll()
                if let outside = s.outsideVolume {
                    volume = outside
                    s.outsideVolume = nil
                }
                return s.running
            }
            guard keepRunning else {
                if state == .playing { _ = interrupt() }
                output.close()
                return
            }
            for command in commands { handle(command) }
            lookForDevicesIfDue()
            if state == .playing { playSomething() }
            publish()
        }
    }

    /// Frames to wait for before writing again: half the device's buffer.
    private var refillFrames: Int { max(output.periodFrames, output.bufferFrames / 2) }

    /// How long the loop may sleep with nothing to do: long, unless devices are being
    /// looked for.
    private var longestSleep: UInt64 {
        devices.looksSoon ? 100_000_000 : 250_000_000
    }

    // MARK: Commands

    private func handle(_ command: OutputCommand) {
        switch command {
        case .begin(let newGeneration, let paused, let token, let frame, let postedAt):
            if state == .playing { _ = interrupt() }
            awaitingAudio = paused ? nil : (.start, postedAt)
            generation = newGeneration
            position.begin(at: TrackPosition(token: token, frame: frame))
            titles.removeAll()
            lastError = nil
            state = paused ? .paused : .playing
            gain.cancelFade()
        case .pause(let postedAt):
            guard state == .playing else { return }
            let heard = interrupt()
            applied(.pause, postedAt)
            state = .paused
            if let heard { reposition(to: heard) }
        case .resume(let postedAt):
            guard state == .paused else { return }
            state = .playing
            gain.fadeIn(over: fadeFrames)
            awaitingAudio = (.resume, postedAt)
        case .stop(let postedAt):
            if state == .playing {
                _ = interrupt()
                applied(.stop, postedAt)
            }
            state = .stopped
            titles.removeAll()
            engine.shared.withLock { s in
                // A play posted after this stop (its `begin` is later in this batch) has
                // asked the decode thread for its track: that request stands. Only a
                // play moves the generation past this thread's own.
                guard s.generation == generation else { return }
                s.generation += 1
                generation = s.generation
                s.decodeRequest = DecodeRequest(kind: .stop, generation: generation)
            }
        case .seek(let frame, let postedAt):
            let wasPlaying = state == .playing
            guard let token = (wasPlaying ? interrupt() : position.resting)?.token else { return }
            if wasPlaying { applied(.seek, postedAt) }
            reposition(to: TrackPosition(token: token, frame: max(0, frame)))
            if state == .playing { gain.fadeIn(over: fadeFrames) }
        case .volume(let v, let postedAt):
            volume = max(0, min(100, v))
            mixer.apply(volume)
            // Reported as applied now: the ramp starts in the next period written.
            applied(.volume, postedAt, audibleAt: MonotonicClock.now())
        case .replayGain(let rule):
            replayGain = rule
        case .sleepFade(let seconds):
            if let seconds { gain.fadeOut(over: seconds) } else { gain.restoreLevel() }
        case .speed:
            // Decoded again from the frame heard, at the new speed (a request carries it).
            if state == .playing, let heard = interrupt() {
                reposition(to: heard)
                gain.fadeIn(over: fadeFrames)
            } else if state == .paused, let resting = position.resting {
                reposition(to: resting)
            }
        case .devicesChanged:
            devices.kernelAnnounced()
            // A device that went while nothing was written is noticed here, and let go
            // of, so the kernel can free the card.
            if output.isDisconnected { lose(.disconnected(device: output.name)) }
        case .reroute(let newRoute, let policy):
            reroute(to: newRoute, policy: policy)
        case .jingle(let sound):
            jingle = JingleVoice(sound)
            if state != .playing { playJingleAlone() }
        }
    }

    /// The admin changed the devices: let go of the one open, and carry on from the sample
    /// heard last on the first of the new ones present (after a short fade, as when a
    /// preferred device is plugged in). A box waiting for a lost device tries the new ones.
    private func reroute(to newRoute: OutputRoute, policy: OutputLossPolicy) {
        let heard = state == .playing ? interrupt() : nil
        output.release()
        format = nil
        output = newRoute
        if let heard {
            reposition(to: heard)
            gain.fadeIn(over: fadeFrames)
        }
        if devices.rerouted(onLost: policy) { engine.onEvent(.outputReturned(device: newRoute.name)) }
        publish()
    }

    // MARK: Volume

    /// The open device's own control, else software gain.
    private var mixer: Mixer { output.mixer ?? software }

    /// After a device is set up: volume goes to its control (the samples then pass at full
    /// scale) or to software gain, at the volume asked for.
    private func useMixer() {
        let mixer = self.mixer
        if mixer !== software { gain.setVolume(100) }
        mixer.apply(volume)
        mixerDescription = mixer.description
        let announcement = output.mixerNote ?? mixer.description
        if announcement != mixerAnnounced {
            mixerAnnounced = announcement
            engine.onEvent(.mixerChanged(mixer.description, note: output.mixerNote))
        }
        // The control's own watch tells the engine of changes made elsewhere; its own
        // are not told back here.
        engine.mixerWatcher?.watchMixer(output.mixer?.watch(reportingTo: engine))
    }

    // MARK: Devices

    /// Looks for devices when the policy says one is due (see `DevicePolicy.look`).
    private func lookForDevicesIfDue() {
        let route = output
        switch devices.look(now: MonotonicClock.now(), activeIndex: route.activeIndex,
                            present: { route.presentIndices() }, better: { route.betterThanActive() }) {
        case .nothing:
            break
        case .returned(let found):
            engine.onEvent(.outputReturned(device: output.candidates[found].output.name))
        case .better:
            // A preferred device appeared (a DAC plugged in): move to it with a short fade.
            if state == .playing {
                let heard = interrupt()
                output.release()
                format = nil
                if let heard { reposition(to: heard) }
                gain.fadeIn(over: fadeFrames)
            } else {
                output.release()
                format = nil
            }
        }
    }

    /// The device went away, or none could be opened: let go of it, keep the place heard
    /// last, and pause until a device is back (or carry on on another, if so configured).
    private func lose(_ error: OutputError) {
        var heard = position.resting
        if state == .playing, let format {
            // The audio in flight to a pulled device (packets on their way to a USB DAC,
            // what it buffers itself) is lost with it though the driver counted it as
            // played: go on two periods earlier, so a word is heard twice, not missed.
            var lost = 0
            if case .disconnected = error { lost = 2 * output.periodFrames }
            if let delay = output.delayWhenLost() {
                // Where the driver last said the device was: it stopped counting when the
                // device went, however late the kernel told us.
                heard = position.heard(delay: delay + lost)
            } else {
                // Else the clock runs on from the last look, to when the loss was noticed.
                heard = position.heardSinceLastLook(at: MonotonicClock.now(), sampleRate: format.sampleRate, less: lost)
            }
        }
        let hadDevice = output.activeIndex != nil
        output.release()
        format = nil
        let wasPlaying = state == .playing
        if wasPlaying, let heard { reposition(to: heard) }
        let route = output
        let loss = devices.lost(error, playing: wasPlaying, hadDevice: hadDevice, now: MonotonicClock.now(),
                                firstChoice: route.candidates[0].output.name,
                                anotherPresent: { route.firstPresent() != nil }, present: { route.presentIndices() })
        if loss == .carryOn {
            gain.fadeIn(over: fadeFrames)
            return
        }
        if wasPlaying { state = .paused }
        // Published before the player hears of it, so a status that says paused never
        // shows the place heard before the loss was worked out.
        publish()
        engine.onEvent(.outputLost(error))
    }

    /// Continue `position` with a fresh generation: older queued audio is dropped.
    private func reposition(to place: TrackPosition) {
        position.restart(at: place)
        engine.shared.withLock { s in
            guard s.generation == generation else { return }  // a newer play stands (see .stop)
            s.generation += 1
            generation = s.generation
            if case .load(let ref, _)? = s.decodeRequest?.kind, ref.token == place.token {
                // The decode thread has not opened the track yet: open it at the new place.
                s.decodeRequest = DecodeRequest(kind: .load(ref, place.frame), generation: generation)
            } else {
                s.decodeRequest = DecodeRequest(kind: .reposition(token: place.token, frame: place.frame),
                                                     generation: generation)
            }
            s.broadcast()
        }
    }

    // MARK: Playing

    private var fadeFrames: Int { (format?.sampleRate ?? 44_100) * engine.settings.fadeMilliseconds / 1000 }

    private func playSomething() {
        guard let chunk = engine.queue.front() else { return }
        if chunk.generation != generation {
            engine.queue.release()  // audio from before a seek or stop
            return
        }
        if chunk.endOfStream {
            engine.queue.release()
            finishPeriod()
            endWithSilence()
            output.drain()
            position.restart(at: heardPosition())
            state = .stopped
            engine.onEvent(.finished)
            return
        }
        if chunk.format != format {
            if format != nil {  // play out the old format first
                finishPeriod()
                output.drain()
            }
            do {
                try output.configure(chunk.format)
            } catch where error.isTransient {
                lose(error)
                return
            } catch {
                fail(error)
                return
            }
            devices.opened(output.name)
            if announcedDevice != output.name {
                announcedDevice = output.name
                engine.onEvent(.outputChanged(device: output.name))
            }
            format = chunk.format
            useMixer()
            position.restart(at: position.resting)
            recent.reset(frames: max(output.bufferFrames, output.periodFrames * 16) + fadeFrames, format: chunk.format)
            engine.onEvent(.outputConfigured(output.negotiated))
        }
        let fmt = chunk.format
        // As much as the device has room for: a period at least (blocking at most one
        // period, so commands still land within one), more when it is emptier.
        let frames = min(output.writableFrames(), chunk.frames - chunk.consumed)
        let source = UnsafeRawBufferPointer(start: chunk.bytes + chunk.consumed * fmt.bytesPerFrame, count: frames * fmt.bytesPerFrame)
        gain.setReplayGain(replayGain.scale(for: chunk.loudness))
        let data = mixJingle(into: gain.process(source, frames: frames, format: fmt), frames: frames, format: fmt)
        do {
            try output.write(data)
        } catch where error.isTransient {
            lose(error)
            return
        } catch {
            fail(error)
            return
        }
        recent.remember(data)
        if let total = dropouts.due(total: output.underruns, now: MonotonicClock.now()) {
            engine.onEvent(.underrun(total: total))
        }
        if let (command, postedAt) = awaitingAudio {
            applied(command, postedAt, audibleAt: MonotonicClock.now())
            awaitingAudio = nil
        }
        let from = chunk.speed == 1 ? Int64(chunk.consumed) : Int64((Double(chunk.consumed) * chunk.speed).rounded(.down))
        position.wrote(frames, of: chunk.token, from: chunk.startFrame + from, speed: chunk.speed)
        if chunk.consumed == 0, let title = chunk.title {
            titles.append((TrackPosition(token: chunk.token, frame: chunk.startFrame), title))
        }
        chunk.consumed += frames
        if chunk.consumed >= chunk.frames { engine.queue.release() }
    }

    /// `data` with the playing jingle added, in a buffer of the worker's own (the chunk's
    /// memory stays as decoded); `data` itself when no jingle plays.
    private func mixJingle(into data: UnsafeRawBufferPointer, frames: Int, format: OutputFormat) -> UnsafeRawBufferPointer {
        guard let voice = jingle else { return data }
        if jingleScratch.count < data.count {
            jingleScratch.deallocate()
            jingleScratch = .allocate(byteCount: data.count, alignment: 16)
        }
        jingleScratch.baseAddress!.copyMemory(from: data.baseAddress!, byteCount: data.count)
        voice.mix(into: jingleScratch.baseAddress!, frames: frames, format: format)
        if voice.isFinished { jingle = nil }
        return UnsafeRawBufferPointer(start: jingleScratch.baseAddress, count: data.count)
    }

    /// A jingle when no music plays: written alone over silence in the format the device
    /// has (the jingle's own if none yet), and drained. The wait is bounded by the
    /// jingle's length (`JingleSound.longestSeconds`) and the device's buffer.
    private func playJingleAlone() {
        guard let voice = jingle else { return }
        jingle = nil
        let sound = voice.sound
        let fmt = format ?? OutputFormat(sampleRate: sound.sampleRate, channels: sound.channels, sampleFormat: .s16)
        do {
            // Set up for the jingle alone: `format` stays nil, so the music's first chunk
            // still sets the device up as its own (announced, its recent audio kept).
            if format == nil {
                try output.configure(fmt)
                useMixer()
            }
            let period = max(1, output.periodFrames)
            // Whole periods and one more of silence, so the drain ends on silence.
            let frames = (voice.remainingFrames(in: fmt) + period - 1) / period * period + period
            var pcm = [UInt8](repeating: 0, count: frames * fmt.bytesPerFrame)
            pcm.withUnsafeMutableBytes { voice.mix(into: $0.baseAddress!, frames: frames, format: fmt) }
            try pcm.withUnsafeBytes { try output.write($0) }
            output.drain()
        } catch {
            engine.onEvent(.decoderNote(path: "jingle", note: "not played: \(error)"))
        }
    }

    /// Reports when the command became audible: for a rewind-and-fade, when the fade
    /// starts to sound (what the device still had queued before it), not when the drain
    /// of the silence after it returned.
    /// `audibleAt` defaults to the last interrupt's: when its fade began to sound.
    private func applied(_ command: AppliedCommand, _ postedAt: UInt64, audibleAt: UInt64? = nil) {
        let audible = audibleAt ?? interruptStartedAt + audibleAfterNanoseconds
        engine.onEvent(.commandApplied(command, postedAt: postedAt, audibleAt: max(audible, postedAt)))
    }

    /// Ends the stream with about 100 ms of silence, so whatever a device does with the
    /// audio still queued when it stops (the loopback drops it; some DACs pop) happens to
    /// silence, not to the end of the music.
    private func endWithSilence() {
        guard let format else { return }
        let silence = [UInt8](repeating: 0, count: 10 * output.periodFrames * format.bytesPerFrame)
        try? silence.withUnsafeBytes { try output.write($0) }
    }

    /// Pads the last partial period with silence before a drain: some drivers (the
    /// loopback among them) send whole periods, stale data included.
    private func finishPeriod() {
        guard let format else { return }
        let remainder = Int(position.written % Int64(output.periodFrames))
        guard remainder > 0 else { return }
        let silence = [UInt8](repeating: 0, count: (output.periodFrames - remainder) * format.bytesPerFrame)
        try? silence.withUnsafeBytes { try output.write($0) }
    }

    private func fail(_ error: OutputError) {
        position.restart(at: heardPosition())
        output.release()
        format = nil
        state = .failed
        lastError = error
        engine.onEvent(.outputFailed(error))
    }

    /// Tells the player when the first frame of a new track is heard, then each title
    /// whose audio is heard.
    private func announceTrackChanges(_ heard: TrackPosition?) {
        if let token = position.newlyHeard(heard) { engine.onEvent(.trackStarted(token: token)) }
        while let first = titles.first, position.reached(first.place) {
            titles.removeFirst()
            engine.onEvent(.streamNews(token: first.place.token, .title(first.text)))
        }
    }

    /// The track and frame being heard now.
    private func heardPosition() -> TrackPosition? {
        position.heard(delay: output.delay())
    }

    /// Stops the sound within a period: takes back what the device has queued where it can,
    /// plays a short fade-out in its place, and discards the rest. Returns the position the
    /// listener heard last, which is where playback continues.
    private func interrupt() -> TrackPosition? {
        interruptStartedAt = MonotonicClock.now()
        audibleAfterNanoseconds = 0
        guard let format else { return position.resting }
        let queued = output.delay()
        // Leave one period alone: drivers move their pointer a period at a time, so the
        // audio just past it may already be on its way out.
        let safety = output.periodFrames
        let rewound = queued > safety + fadeFrames ? output.rewind(queued - safety) : 0
        let fade = min(fadeFrames, rewound)
        if rewound > 0, var tail = recent.slice(back: rewound * format.bytesPerFrame, count: fade * format.bytesPerFrame) {
            position.tookBack(rewound)
            tail.withUnsafeMutableBytes { GainRamp.apply($0.baseAddress!, frames: fade, format: format, from: 1, to: 0) }
            // Silence to the end of a period and one more, so no stale data follows.
            let pad = output.periodFrames - (Int(position.written) + fade) % output.periodFrames + output.periodFrames
            tail += [UInt8](repeating: 0, count: pad * format.bytesPerFrame)
            try? tail.withUnsafeBytes { try output.write($0) }
            position.rewrote(fade)
            let heard = position.position(at: position.written)
            audibleAfterNanoseconds = UInt64(queued - rewound) * 1_000_000_000 / UInt64(format.sampleRate)
            output.drain()
            return heard
        }
        // The device cannot take audio back (or holds almost none): stop at once.
        let heard = heardPosition()
        audibleAfterNanoseconds = 0
        output.dropAndPrepare()
        return heard
    }

    /// Publishes the position (one device-delay query per pass of the loop) and announces
    /// a track change once its first frame is heard.
    private func publish() {
        var now = position.resting
        if state == .playing {
            // What the rooms hear, a network player's buffer behind the device.
            now = position.look(delay: output.delay() + output.latencyFrames, at: MonotonicClock.now())
            announceTrackChanges(now)
        }
        let snapshotState: EngineSnapshot.State = switch state {
        case .idle: .idle
        case .playing: .playing
        case .paused: .paused
        case .stopped: .stopped
        case .failed: .failed
        }
        engine.shared.withLock { s in
            s.published.state = snapshotState
            s.published.token = now?.token
            s.published.frame = now?.frame ?? 0
            s.published.sampleRate = format?.sampleRate ?? 0
            s.published.error = lastError
            s.published.route = devices.route
            s.published.mixer = mixerDescription
            s.published.queuedFrames = s.ring.queued * engine.settings.chunkFrames
        }
        if devices.takeRouteMove() {
            engine.onEvent(.routeChanged(devices.route))
        }
    }
}
