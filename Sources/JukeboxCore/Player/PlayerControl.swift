/// The engine's side of the player, as MPD's `PlayerControl`: it plays the track it is
/// given, pauses, resumes, seeks and stops, and keeps the state, the volume within its
/// limits, the time played, the last error and what paused the music without the
/// listener asking. Each change is put in the outbox where it is made.
final class PlayerControl {
    private let engine: PlaybackEngine
    private let outbox: PlayerOutbox
    /// Fast-forward's steps and the tick while playing; the player's other parts stop the
    /// steps too.
    let timers: PlayerTimers
    private var playTime = PlayTime()
    private var interruptions = Interruptions()
    var state = PlayerState.stopped {
        didSet {
            guard state != oldValue else { return }
            outbox.changed(.state)
            playTime.stateChanged(from: oldValue, to: state, at: MonotonicClock.now())
        }
    }
    private(set) var volume: Int {
        didSet { if volume != oldValue { outbox.changed(.mixer) } }
    }
    /// The playback speed (1: as recorded).
    private(set) var speed = 1.0 {
        didSet { if speed != oldValue { outbox.changed(.options) } }
    }
    /// The speed outside the folders that keep their own (`[playback] speed`).
    var defaultSpeed = 1.0
    var lastError: String? {
        didSet { if lastError != oldValue { outbox.changed(.error) } }
    }
    /// The loudness settings in force; a client may change their mode (MPD's options).
    var replayGain: ReplayGainSettings {
        didSet {
            guard replayGain != oldValue else { return }
            if replayGain.mode != oldValue.mode { outbox.changed(.options) }
            engine.setReplayGain(replayGain.rule(shuffling: shuffling))
        }
    }
    /// The queue plays in a random order: `auto` then levels by track.
    var shuffling: Bool {
        didSet { if shuffling != oldValue { engine.setReplayGain(replayGain.rule(shuffling: shuffling)) } }
    }

    init(engine: PlaybackEngine, outbox: PlayerOutbox, timers: PlayerTimers, volume: Int,
         replayGain: ReplayGainSettings, shuffling: Bool, speed: Double) {
        self.engine = engine
        self.outbox = outbox
        self.timers = timers
        self.volume = volume
        self.replayGain = replayGain
        self.shuffling = shuffling
        engine.setVolume(volume)
        engine.setReplayGain(replayGain.rule(shuffling: shuffling))
        defaultSpeed = PlaybackSpeed.clamped(speed)
        setSpeed(defaultSpeed)
    }

    /// Playing, or about to: what a pause or an interruption stops.
    var isPlaying: Bool { state == .playing || state == .loading }

    var snapshot: EngineSnapshot { engine.snapshot }

    var playedSeconds: Double { playTime.seconds(at: MonotonicClock.now()) }

    /// The device the music waits for, while it does.
    var lostOutput: OutputError? { interruptions.lostOutput }

    /// Plays `track` from `frame` (or holds it there, `paused`), with what follows named
    /// in the same step.
    func play(_ track: TrackRef, from frame: Int64, paused: Bool, next: TrackRef?) {
        engine.play(track, from: frame, paused: paused, next: next)
        state = paused ? .paused : .loading
        // While playing, observers also hear about progress once a second.
        timers.startTicking { $0.tick() }
    }

    /// Names what follows the last track the engine has.
    func setNext(_ track: TrackRef?) { engine.setNext(track) }

    func pause() {
        timers.stopScanning()
        engine.pause()
        state = .paused
    }

    func resume() {
        engine.resume()
        state = .playing
    }

    /// Stops the engine; the state is the caller's to say (stopped, or an error).
    func stopEngine() {
        timers.stopScanning()
        engine.stop()
    }

    func seek(toFrame frame: Int64) {
        engine.seek(toFrame: frame)
        outbox.changed(.seeked)
    }

    func setVolume(_ requested: Int, within limits: ClosedRange<Int>) {
        volume = max(limits.lowerBound, min(limits.upperBound, requested))
        engine.setVolume(volume)
    }

    /// Plays at `requested` (on the nearest step within the range) from now on.
    func setSpeed(_ requested: Double) {
        let new = PlaybackSpeed.clamped(requested)
        guard new != speed else { return }
        speed = new
        engine.setSpeed(new)
    }

    /// The control was moved elsewhere: that is the volume now, within the limits (a
    /// control set beyond them is brought back).
    func volumeMovedOutside(to outside: Int, within limits: ClosedRange<Int>) {
        if limits.contains(outside) {
            volume = outside  // the engine has it already; sending it back would move the control
        } else {
            setVolume(outside, within: limits)
        }
    }

    /// The listener paused or stopped on purpose: it stays so when an interruption or a
    /// lost device is over.
    func listenerPaused() { interruptions.listenerPaused() }

    func interruptionBegan() {
        if interruptions.began(playing: isPlaying) { pause() }
    }

    func interruptionEnded(resuming: Bool) {
        if interruptions.ended(), resuming, state == .paused { resume() }
    }

    /// As an interruption: the engine has paused itself at the frame heard last.
    func outputLost(_ error: OutputError) {
        interruptions.outputLost(error, playing: isPlaying)
        if isPlaying {
            timers.stopScanning()
            state = .paused
        }
    }

    func outputReturned(resuming: Bool) {
        if interruptions.outputReturned(), resuming, state == .paused { resume() }
    }

    func outputChanged() { interruptions.outputChanged() }

    func outputFailed(_ error: OutputError) {
        lastError = "\(error)"
        state = .error
    }
}
