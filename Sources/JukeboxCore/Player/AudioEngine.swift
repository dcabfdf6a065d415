/// A track as the engine sees it: where it lives and the token that names this play of it.
public struct TrackRef: Sendable, Equatable {
    public var token: Int
    public var location: TrackLocation
    /// The queue's entry for it (the player's queue keeps entries as strings).
    public var path: String { location.entry }
    public init(token: Int, path: String) { self.token = token; location = TrackLocation(path) }
}

/// What the engine tells the player, from its threads. The player hops these onto its
/// own queue; the engine never waits for them to be handled.
public enum EngineEvent: Sendable {
    /// The decode thread opened this track (as current or as the pre-opened next).
    case trackOpened(token: Int, info: StreamInfo, metadata: TrackMetadata)
    /// The first frame of this track is being heard (after a load, or a gapless change).
    case trackStarted(token: Int)
    /// The decode thread moved into the pre-opened next track (before it is heard): the
    /// player names the one after, so even tracks shorter than the decode-ahead join up.
    case decoderAdvanced(token: Int)
    /// The track could not be opened or decoded; the player skips it.
    case trackFailed(token: Int, error: MediaError)
    /// The last queued audio has been played out.
    case finished
    /// The output failed for good (a refused format, an I/O error); playback stopped.
    case outputFailed(OutputError)
    /// The device went away (or none was there to start with): the engine paused itself at
    /// the last frame heard and waits for a device.
    case outputLost(OutputError)
    /// A device is there again after `outputLost`; nothing plays until resumed.
    case outputReturned(device: String)
    /// Audio now goes to this device (the first open, a fallback, a preferred one back).
    case outputChanged(device: String)
    /// The output ran dry and the listener heard a dropout; `total` counts them since start.
    /// Reported at most every 10 s.
    case underrun(total: Int)
    /// A stretch of a track could not be decoded and plays as silence; the track goes on.
    case damaged(MediaError)
    /// A live stream said its station's name, or a new title (internet radio).
    case streamNews(token: Int, StreamNews)
    /// The decoder noted something about the file worth a log line (a lost sync, a CRC).
    case decoderNote(path: String, note: String)
    /// Where the audio goes changed (published: the engine's snapshot says it already).
    case routeChanged(RouteState)
    /// The device is set up: what was negotiated, for the log.
    case outputConfigured(String)
    /// Volume is now applied here: a card's control, or software (with why, if a control
    /// was wanted but is not there).
    case mixerChanged(String, note: String?)
    /// Someone else changed the card's volume control (alsamixer): the volume it stands for.
    /// Told from the mixer watcher's thread; the engine has it already.
    case volumeChangedOutside(Int)
    /// A pause, resume, seek, stop, start or volume change took effect on the output: asked
    /// for at `postedAt`, heard from `audibleAt` (CLOCK_MONOTONIC ns).
    case commandApplied(AppliedCommand, postedAt: UInt64, audibleAt: UInt64)
}

extension EngineEvent {
    /// Said for the log (and the latency figures) alone: the player has nothing to do
    /// with it, so it is not handed to the player's thread at all.
    public var isOnlyForTheLog: Bool {
        switch self {
        case .damaged, .decoderNote, .outputConfigured, .mixerChanged, .underrun, .commandApplied: true
        default: false
        }
    }
}

/// What took effect on the output, as `EngineEvent.commandApplied` reports it; written as
/// the log and the latency benchmarks read it ("pause heard … ms after the edge").
public enum AppliedCommand: String, Sendable, CaseIterable, CustomStringConvertible {
    case start, pause, resume, seek, stop, volume
    public var description: String { rawValue }
}

/// Where the audio goes, for the status.
public enum RouteState: Sendable, Equatable, CustomStringConvertible {
    /// Nothing opened yet.
    case idle
    case playingOn(String)
    /// No device present: waiting for the first choice.
    case waitingFor(String)
    /// The device in use went away.
    case lost(String)

    public var description: String {
        switch self {
        case .idle: "idle"
        case .playingOn(let d): "playing on \(d)"
        case .waitingFor(let d): "waiting for \(d)"
        case .lost(let d): "lost \(d)"
        }
    }
}

/// What the player can read at any time without waiting for the audio thread.
public struct EngineSnapshot: Sendable, Equatable {
    public enum State: String, Sendable { case idle, playing, paused, stopped, failed }
    public var state: State = .idle
    public var token: Int?
    /// The track frame being heard now.
    public var frame: Int64 = 0
    public var sampleRate: Int = 0
    public var route = RouteState.idle
    /// Where volume is applied: "software", or the card's control and its range.
    public var mixer = "software"
    public var error: OutputError?
    /// Decoded audio waiting to be played, in frames.
    public var queuedFrames = 0
    /// The track being decoded comes from the network: how it is doing.
    public var stream: StreamBuffer?
}

/// A network track's buffer, as the decode thread sees it.
public struct StreamBuffer: Sendable, Equatable {
    /// The play it describes: the one being decoded, which is not always the one heard.
    public var token: Int
    /// Seconds of audio downloaded but not yet decoded.
    public var secondsAhead: Double
    /// The decoder is waiting for bytes that have not arrived.
    public var waiting: Bool
}

/// Plays tracks: a decode thread fills a bounded chunk queue ahead of time, and an audio
/// thread writes it to the output. Control calls only post requests and return; nothing
/// here blocks on disk, screen or network, and the audio thread never waits on them.
public final class AudioEngine: @unchecked Sendable {
    public struct Settings: Sendable {
        /// Chunks decoded ahead (each `chunkFrames` long): about 3 s at 44.1 kHz by default.
        /// Fewer, larger chunks mean fewer hand-offs between the threads.
        public var queueChunks = 16
        public var chunkFrames = 8192
        /// Fade length for pause, stop and seek.
        public var fadeMilliseconds = 5
        /// Audio a network track downloads before it starts (`[network] prebuffer_seconds`).
        public var prebufferSeconds = 2.0
        /// When the device in use goes: pause, or carry on on the next device present.
        public var onOutputLost = OutputLossPolicy.pause
        /// While waiting for a device, or playing on one the admin likes less, look for
        /// devices this often even without a kernel announcement.
        public var deviceProbeMilliseconds = 2000
        public init() {}
    }

    let settings: Settings
    /// Opens URL tracks (the daemon's download cache).
    let network: NetworkPlayback
    let shared = ConditionLocked(EngineState())
    let queue: ChunkQueue
    /// The devices the audio thread starts with (see `reroute`).
    let output: OutputRoute
    /// Who hears the engine's events; set once, before `start` (see `listen`).
    private(set) var onEvent: @Sendable (EngineEvent) -> Void
    /// Who polls the watch of each card control the audio thread opens (the hotplug thread).
    let mixerWatcher: MixerWatcher?

    private var threads: [pthread_t] = []
    private static let threadNames = ["jukebox-decode", "jukebox-audio"]

    /// `mixerWatcher` follows changes made elsewhere to the card controls it uses (none:
    /// they are not followed).
    public init(route: OutputRoute, settings: Settings = Settings(), network: NetworkPlayback = NetworkPlayback(),
                mixerWatcher: MixerWatcher? = nil, onEvent: @escaping @Sendable (EngineEvent) -> Void = { _ in }) {
        self.output = route
        self.mixerWatcher = mixerWatcher
        self.settings = settings
        self.network = network
        self.onEvent = onEvent
        queue = ChunkQueue(slots: settings.queueChunks, shared: shared)
    }

    /// An engine with one output that is always there.
    public convenience init(output: AudioOutput, settings: Settings = Settings(), onEvent: @escaping @Sendable (EngineEvent) -> Void) {
        self.init(route: OutputRoute(fixed: output), settings: settings, onEvent: onEvent)
    }

    /// Names who hears the engine's events, when the parts are wired (the player exists
    /// only after its engine). Threads read it without a lock, so it is set before `start`.
    public func listen(_ listener: @escaping @Sendable (EngineEvent) -> Void) {
        precondition(threads.isEmpty, "the engine's listener is set before it starts")
        onEvent = listener
    }

    /// Starts the decode and audio threads; throws if the system cannot make them.
    public func start() throws(Errno) {
        let decode = DecodeWorker(engine: self)
        let audio = OutputWorker(engine: self)
        threads.append(try WorkerThread.start(name: Self.threadNames[0]) { [self] in
            decode.run()
            post { $0.finishedThreads.insert(Self.threadNames[0]) }
        })
        do {
            threads.append(try WorkerThread.start(name: Self.threadNames[1], realtime: true) { [self] in
                audio.run()
                post { $0.finishedThreads.insert(Self.threadNames[1]) }
            })
        } catch {
            shutdown()
            throw error
        }
    }

    /// Stops both threads and closes the output, waiting at most `seconds`. Returns the
    /// names of the threads that did not stop in time (empty when all did): they are left
    /// running, and the caller (a daemon about to exit) decides what to do.
    @discardableResult
    public func shutdown(within seconds: Double = 3) -> [String] {
        let deadline = MonotonicClock.now() + UInt64(seconds * 1e9)
        let started = threads.count
        let stuck: [String] = shared.withLock { s in
            s.running = false
            s.broadcast()
            while s.finishedThreads.count < started {
                let now = MonotonicClock.now()
                guard now < deadline else { break }
                s.wait(nanoseconds: min(deadline - now, 50_000_000))
            }
            let finished = s.finishedThreads
            return Self.threadNames.prefix(started).filter { !finished.contains($0) }
        }
        guard stuck.isEmpty else { return stuck }
        for thread in threads { pthread_join(thread, nil) }
        threads.removeAll()
        return []
    }

    /// When the audio thread last went round its loop; 0 before it first did.
    public var audioThreadSeen: UInt64 { shared.withLock { $0.audioThreadSeen } }

    // MARK: Control (any thread; returns at once)

    /// Starts `track`, with `next` to follow it gaplessly (nil: nothing yet; `setNext`
    /// changes it), both in one step.
    public func play(_ track: TrackRef, from frame: Int64 = 0, paused: Bool = false, next: TrackRef? = nil) {
        let t = MonotonicClock.now()
        post { e in
            e.generation += 1
            e.nextTrack = next
            e.nextTrackChanged = true
            e.decodeRequest = DecodeRequest(kind: .load(track, frame), generation: e.generation)
            e.outputCommands.append(.begin(generation: e.generation, paused: paused, token: track.token, frame: frame, postedAt: t))
        }
    }

    /// The track to continue with, gaplessly, when the current one ends; nil for none.
    public func setNext(_ track: TrackRef?) {
        post { e in
            e.nextTrack = track
            e.nextTrackChanged = true
        }
    }

    public func pause() { let t = MonotonicClock.now(); post { $0.outputCommands.append(.pause(postedAt: t)) } }
    public func resume() { let t = MonotonicClock.now(); post { $0.outputCommands.append(.resume(postedAt: t)) } }
    public func stop() { let t = MonotonicClock.now(); post { $0.outputCommands.append(.stop(postedAt: t)) } }
    public func seek(toFrame frame: Int64) { let t = MonotonicClock.now(); post { $0.outputCommands.append(.seek(frame, postedAt: t)) } }
    public func setVolume(_ volume: Int) { let t = MonotonicClock.now(); post { $0.outputCommands.append(.volume(volume, postedAt: t)) } }
    /// Plays at `speed` times the tempo, pitch kept (1: as recorded). The audio already
    /// decoded is decoded again from the frame heard, so it takes effect within a fade.
    public func setSpeed(_ speed: Double) {
        post { e in
            e.speed = speed
            e.outputCommands.append(.speed)
        }
    }
    /// Levels what is heard from now on, the audio already queued included.
    public func setReplayGain(_ rule: ReplayGainRule) { post { $0.outputCommands.append(.replayGain(rule)) } }
    /// Plays `sound` over the music from the next write on, or alone when nothing plays
    /// (see `OutputWorker.playJingleAlone`); a new jingle replaces one still playing.
    public func playJingle(_ sound: JingleSound) { post { $0.outputCommands.append(.jingle(sound)) } }
    /// The kernel announced a sound device coming or going: the audio thread looks.
    public func devicesChanged() { post { $0.outputCommands.append(.devicesChanged) } }

    /// Plays to these devices from now on, carrying on from the sample heard last (the
    /// admin edited the config's audio section).
    public func reroute(_ route: OutputRoute, onOutputLost policy: OutputLossPolicy) {
        post { $0.outputCommands.append(.reroute(route, policy)) }
    }

    public var snapshot: EngineSnapshot { shared.withLock { $0.published } }

    func post(_ change: (ConditionLocked<EngineState>.Access) -> Void) {
        shared.withLock { s in
            change(s)
            s.broadcast()
        }
    }
}

extension AudioEngine: MixerListener {
    /// A card's control was moved elsewhere (told on the watcher's thread): the volume the
    /// audio thread keeps follows it, and the player hears of it. The audio thread is not
    /// woken: nothing on it has to change.
    public func mixerChangedOutside(volume: Int) {
        shared.withLock { $0.outsideVolume = volume }
        onEvent(.volumeChangedOutside(volume))
    }
}

/// What the engine's threads and its callers share, behind one lock.
struct EngineState {
    var running = true
    /// Bumped by every load, seek, stop and reposition: older audio is dropped.
    var generation = 0
    var decodeRequest: DecodeRequest?
    var nextTrack: TrackRef?
    var nextTrackChanged = false
    var outputCommands: [OutputCommand] = []
    var published = EngineSnapshot()
    /// Names of the threads whose loop has returned.
    var finishedThreads: Set<String> = []
    var ring = ChunkRing()
    /// When the audio thread last went round its loop (0: not yet), for the watchdog.
    var audioThreadSeen: UInt64 = 0
    /// The volume a card's control was moved to elsewhere, for the audio thread to keep
    /// (it sets the control at it again after a device setup) without being woken.
    var outsideVolume: Int?
    /// The playback speed the decode thread stretches to, read with each request.
    var speed = 1.0
}

struct DecodeRequest {
    enum Kind {
        case load(TrackRef, Int64)
        /// Continue `token` from `frame` (after a pause or seek), reopening it if needed.
        case reposition(token: Int, frame: Int64)
        case stop
    }
    var kind: Kind
    var generation: Int
}

enum OutputCommand {
    // Each carries when it was posted, so the audio thread can report how long it took.
    case begin(generation: Int, paused: Bool, token: Int, frame: Int64, postedAt: UInt64)
    case pause(postedAt: UInt64)
    case resume(postedAt: UInt64)
    case stop(postedAt: UInt64)
    case seek(Int64, postedAt: UInt64)
    case volume(Int, postedAt: UInt64)
    /// The speed changed (`EngineState.speed`): what is queued was stretched to the old one.
    case speed
    case replayGain(ReplayGainRule)
    case devicesChanged
    case reroute(OutputRoute, OutputLossPolicy)
    case jingle(JingleSound)
}

public enum OutputLossPolicy: String, Sendable, Equatable {
    /// Pause, and resume on the device's return (as phones do when headphones are pulled).
    case pause
    /// Carry on on the next device present; pause only when none is.
    case `continue`
}

#if canImport(Glibc)
import Glibc
#endif
