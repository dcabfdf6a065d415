import Foundation
import Testing
@testable import JukeboxCore

/// Records what the player asks of the engine; the test plays the engine's part.
final class FakeEngine: PlaybackEngine, @unchecked Sendable {
    enum Call: Equatable {
        case play(token: Int, path: String, frame: Int64, paused: Bool)
        case setNext(String?)
        case pause, resume, stop
        case seek(Int64)
        case volume(Int)
        case speed(Double)
    }
    private let lock = NSLock()
    private var _calls: [Call] = []
    private var _snapshot = EngineSnapshot()
    var nextToken: Int?

    var calls: [Call] { lock.withLock { _calls } }
    var snapshot: EngineSnapshot {
        get { lock.withLock { _snapshot } }
        set { lock.withLock { _snapshot = newValue } }
    }
    var lastPlayToken: Int? {
        calls.reversed().compactMap { if case .play(let t, _, _, _) = $0 { t } else { nil } }.first
    }
    private func record(_ call: Call) { lock.withLock { _calls.append(call) } }

    func play(_ track: TrackRef, from frame: Int64, paused: Bool, next: TrackRef?) {
        record(.play(token: track.token, path: track.path, frame: frame, paused: paused))
        setNext(next)  // told with the start, as the engine takes it
    }
    func setNext(_ track: TrackRef?) { lock.withLock { nextToken = track?.token }; record(.setNext(track?.path)) }
    func pause() { record(.pause) }
    func resume() { record(.resume) }
    func stop() { record(.stop) }
    func seek(toFrame frame: Int64) { record(.seek(frame)) }
    func setVolume(_ volume: Int) { record(.volume(volume)) }
    func setSpeed(_ speed: Double) { record(.speed(speed)) }
    /// Kept apart from `calls`: the rule is told at start and whenever it changes.
    private var _replayGain: [ReplayGainRule] = []
    var replayGainRules: [ReplayGainRule] { lock.withLock { _replayGain } }
    func setReplayGain(_ rule: ReplayGainRule) { lock.withLock { _replayGain.append(rule) } }
}

@Suite struct PlayerTests {
    let info = StreamInfo(sampleRate: 1000, channels: 2, sampleFormat: .s16, totalFrames: 60_000)

    func player(_ count: Int = 4, _ configure: (inout Player.Settings) -> Void = { _ in }) -> (Player, FakeEngine) {
        var settings = Player.Settings()
        configure(&settings)
        let engine = FakeEngine()
        let player = Player(engine: engine, settings: settings)
        player.setTracks((0..<count).map { "/music/\($0).flac" })
        return (player, engine)
    }

    /// Plays the engine's part for the track just started: opened, then heard.
    func startHearing(_ player: Player, _ engine: FakeEngine, at frame: Int64 = 0) {
        _ = player.status  // let the player's queue catch up
        hear(engine.lastPlayToken!, player, engine, at: frame)
    }

    /// Plays the engine's part for `token`: opened, then heard (a gapless change into a
    /// track named next, or a start).
    func hear(_ token: Int, _ player: Player, _ engine: FakeEngine, at frame: Int64 = 0) {
        player.engineEvent(.trackOpened(token: token, info: info, metadata: TrackMetadata()))
        engine.snapshot = EngineSnapshot(state: .playing, token: token, frame: frame, sampleRate: 1000)
        player.engineEvent(.trackStarted(token: token))
    }

    /// The player's `completed` events, as they come.
    func completions(of player: Player) -> Recorder<PlayerEvent> {
        let completed = Recorder<PlayerEvent>()
        player.observe { event in if case .completed = event { completed.append(event) } }
        return completed
    }

    /// What a thread queued (`send`, an engine event) is applied before what it then asks,
    /// though asking takes the lock on the asker's own thread; and commands from several
    /// threads at once all land.
    @Test func whatWasQueuedIsAppliedBeforeWhatIsAskedNext() async {
        let (player, _) = player()
        for volume in 0..<500 {
            player.send(.setVolume(volume % 101))
            #expect(player.status.volume == volume % 101)
            player.perform(.setVolume((volume + 50) % 101))
            #expect(player.status.volume == (volume + 50) % 101)
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<250 { player.send(.volumeStep(1)) } }
                group.addTask { for _ in 0..<250 { player.perform(.volumeStep(-1)) } }
            }
        }
        player.perform(.setVolume(50))
        #expect(player.status.volume == 50)
    }

    /// A button's command is applied on the input thread itself (the change is told
    /// there), but never waits behind the player's queued work: it is queued behind it.
    @Test func aButtonsCommandNeverWaitsBehindQueuedWork() {
        final class Told: @unchecked Sendable { var on: [pthread_t] = [] }
        let told = Told()
        let (player, _) = player()
        _ = player.status
        player.observe { event in if case .changed(let changes, _) = event, changes.contains(.mixer) { told.on.append(pthread_self()) } }
        player.performUnlessBusy(.setVolume(20))
        #expect(told.on.count == 1 && pthread_equal(told.on[0], pthread_self()) != 0, "applied on the caller's thread")
        let release = DispatchSemaphore(value: 0)
        player.whenCaughtUp { _ = release.wait(timeout: .now() + 30) }  // the queue is busy
        let returned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            player.performUnlessBusy(.setVolume(33))
            returned.signal()
        }
        #expect(returned.wait(timeout: .now() + 10) == .success, "it returned while the queue was busy")
        release.signal()
        #expect(player.status.volume == 33)
    }

    @Test func playGoesThroughLoadingToPlaying() {
        let (player, engine) = player()
        player.perform(.play)
        #expect(player.status.state == .loading)
        #expect(engine.calls.contains(.play(token: engine.lastPlayToken!, path: "/music/0.flac", frame: 0, paused: false)))
        #expect(engine.calls.contains(.setNext("/music/1.flac")))  // opened ahead, for a gapless change
        startHearing(player, engine, at: 2500)
        let status = player.status
        #expect(status.state == .playing)
        #expect(status.queuePosition == 0)
        #expect(status.elapsed == 2.5)
        #expect(status.duration == 60)
        #expect(abs(status.progress - 2.5 / 60) < 1e-9)
    }

    @Test func toggleAndPauseAndStop() {
        let (player, engine) = player()
        player.perform(.play)
        startHearing(player, engine)
        player.perform(.toggle)
        #expect(player.status.state == .paused)
        player.perform(.toggle)
        #expect(player.status.state == .playing)
        #expect(engine.calls.suffix(2) == [.pause, .resume])
        player.perform(.stop)
        #expect(player.status.state == .stopped)
    }

    @Test func previousRestartsAfterThreeSecondsElseGoesBack() {
        let (player, engine) = player()
        player.perform(.playPosition(2))
        startHearing(player, engine, at: 5000)
        player.perform(.previous)
        #expect(engine.calls.last == .seek(0))
        engine.snapshot.frame = 1000
        player.perform(.previous)
        _ = player.status
        #expect(engine.calls.contains { if case .play(_, "/music/1.flac", 0, false) = $0 { true } else { false } })
    }

    @Test func gaplessChangeAdvancesTheQueueAndSchedulesTheFollowingTrack() {
        let (player, engine) = player()
        let completed = completions(of: player)
        player.perform(.play)
        startHearing(player, engine)
        _ = player.status
        let nextToken = engine.nextToken!
        hear(nextToken, player, engine)
        #expect(player.status.queuePosition == 1)
        #expect(engine.calls.last == .setNext("/music/2.flac"))
        #expect(completed.items == [.completed(position: 0, queueEnded: false)])
    }

    /// Short tracks: the decode thread moves on twice before the first change is heard;
    /// each move names the following track at once, and the heard changes catch up.
    @Test func decoderRunningAheadOfShortTracks() {
        let (player, engine) = player(5)
        player.perform(.play)
        startHearing(player, engine)
        let second = engine.nextToken!
        player.engineEvent(.decoderAdvanced(token: second))
        _ = player.status
        #expect(engine.calls.last == .setNext("/music/2.flac"))
        let third = engine.nextToken!
        player.engineEvent(.decoderAdvanced(token: third))
        _ = player.status
        #expect(engine.calls.last == .setNext("/music/3.flac"))
        #expect(player.status.queuePosition == 0)  // still hearing the first
        player.engineEvent(.trackStarted(token: second))
        #expect(player.status.queuePosition == 1)
        player.engineEvent(.trackStarted(token: third))
        #expect(player.status.queuePosition == 2)
        #expect(engine.calls.last == .setNext("/music/3.flac"))  // unchanged: already named
    }

    /// The paths the player asked the engine to start, in order.
    func started(_ engine: FakeEngine) -> [String] {
        engine.calls.compactMap { if case .play(_, let path, _, _) = $0 { path } else { nil } }
    }

    /// The track named next cannot be opened (a file gone, a dead URL): the one after it
    /// is named at once, the decoder goes on into it without a gap, and the queue steps
    /// over the broken entry, which "previous" then never walks back onto.
    @Test func aNextTrackThatFailsToOpenIsPassedOver() {
        let (player, engine) = player()
        let completed = completions(of: player)
        player.perform(.play)
        startHearing(player, engine)
        let broken = engine.nextToken!
        player.engineEvent(.trackFailed(token: broken, error: .empty("/music/1.flac")))
        _ = player.status
        #expect(engine.calls.last == .setNext("/music/2.flac"))
        let third = engine.nextToken!
        player.engineEvent(.decoderAdvanced(token: third))
        _ = player.status
        #expect(engine.calls.last == .setNext("/music/3.flac"))
        hear(third, player, engine)
        #expect(player.status.queuePosition == 2)
        #expect(completed.items == [.completed(position: 0, queueEnded: false)])
        player.perform(.previous)
        #expect(started(engine) == ["/music/0.flac", "/music/0.flac"])
    }

    /// A client removes the entry the decoder passed over (mpc del): the music goes on as
    /// decoded, with no new start of the track that plays.
    @Test func removingAPassedOverEntryLeavesThePlayingTrackAlone() throws {
        let (player, engine) = player()
        player.perform(.play)
        startHearing(player, engine)
        player.engineEvent(.trackFailed(token: engine.nextToken!, error: .empty("/music/1.flac")))
        _ = player.status
        let third = engine.nextToken!
        player.engineEvent(.decoderAdvanced(token: third))
        _ = player.status
        try player.editQueue { try $0.remove(1..<2) }
        #expect(started(engine) == ["/music/0.flac"])
        hear(third, player, engine)
        #expect(player.status.queuePosition == 1 && player.status.path == "/music/2.flac")
    }

    /// The last entry fails to open: the queue ends when the track before it does, and
    /// nothing tries the broken one again.
    @Test func aFailedLastTrackEndsTheQueueWithTheOneBefore() {
        let (player, engine) = player(2)
        let completed = completions(of: player)
        player.perform(.play)
        startHearing(player, engine)
        player.engineEvent(.trackFailed(token: engine.nextToken!, error: .empty("/music/1.flac")))
        _ = player.status
        #expect(engine.calls.last == .setNext(nil))
        player.engineEvent(.finished)
        #expect(player.status.state == .stopped)
        #expect(completed.items == [.completed(position: 0, queueEnded: true)])
        #expect(started(engine) == ["/music/0.flac"])
    }

    /// "previous" onto a track that no longer opens goes on back past it, not forward
    /// again to where it was pressed.
    @Test func previousGoesOnBackPastATrackThatFails() {
        let (player, engine) = player()
        player.perform(.play)
        startHearing(player, engine)
        player.perform(.next)
        startHearing(player, engine)
        player.perform(.next)
        startHearing(player, engine)
        player.perform(.previous)
        #expect(started(engine).last == "/music/1.flac")
        player.engineEvent(.trackFailed(token: engine.lastPlayToken!, error: .empty("/music/1.flac")))
        _ = player.status
        #expect(started(engine).last == "/music/0.flac")
        startHearing(player, engine)
        player.perform(.next)
        #expect(started(engine).last == "/music/1.flac")  // tried again when asked for
    }

    /// At the start of the queue there is nowhere further back: on forward again.
    @Test func previousOntoAFailingFirstTrackGoesForward() {
        let (player, engine) = player()
        player.perform(.playPosition(1))
        startHearing(player, engine)
        player.perform(.previous)
        #expect(started(engine).last == "/music/0.flac")
        player.engineEvent(.trackFailed(token: engine.lastPlayToken!, error: .empty("/music/0.flac")))
        _ = player.status
        #expect(started(engine).last == "/music/1.flac")
        #expect(player.status.queuePosition == 1)
    }

    @Test func queueEndInOnceModeStops() {
        let (player, engine) = player(1)
        player.perform(.play)
        startHearing(player, engine)
        player.engineEvent(.finished)
        #expect(player.status.state == .stopped)
    }

    @Test func undecodableTrackIsSkipped() {
        let (player, engine) = player()
        player.perform(.play)
        _ = player.status
        let token = engine.lastPlayToken!
        player.engineEvent(.trackFailed(token: token, error: .corrupt("/music/0.flac", "bad frame")))
        _ = player.status
        #expect(engine.lastPlayToken != token)
        #expect(engine.calls.contains { if case .play(_, "/music/1.flac", 0, false) = $0 { true } else { false } })
        #expect(player.status.lastError == "/music/0.flac: corrupt: bad frame")
    }

    @Test func allTracksFailingEndsInError() {
        let (player, engine) = player(3)
        player.perform(.play)
        _ = player.status
        for _ in 0..<3 { player.engineEvent(.trackFailed(token: engine.lastPlayToken!, error: .empty("/music/x.flac"))); _ = player.status }
        #expect(player.status.state == .error)
    }

    @Test func volumeStaysWithinTheConfiguredLimits() {
        let (player, engine) = player { $0.startVolume = 50; $0.minimumVolume = 10; $0.maximumVolume = 70; $0.volumeStep = 15 }
        #expect(player.status.volume == 50)
        player.perform(.volumeStep(+1))
        player.perform(.volumeStep(+1))
        #expect(player.status.volume == 70)
        player.perform(.setVolume(0))
        #expect(player.status.volume == 10)
        #expect(engine.calls.last == .volume(10))
    }

    @Test func skipAndSeekFraction() {
        let (player, engine) = player()
        player.perform(.play)
        startHearing(player, engine, at: 20_000)
        player.perform(.skip(seconds: 10))
        #expect(engine.calls.last == .seek(30_000))
        player.perform(.skip(seconds: -30))
        #expect(engine.calls.last == .seek(0))
        player.perform(.seekFraction(0.5))
        #expect(engine.calls.last == .seek(30_000))
        player.perform(.skip(seconds: 50))  // past the end: next track
        _ = player.status
        #expect(engine.calls.contains { if case .play(_, "/music/1.flac", 0, false) = $0 { true } else { false } })
    }

    @Test func interruptionPausesAndResumesOnlyIfItWasPlaying() {
        let (player, engine) = player()
        player.perform(.play)
        startHearing(player, engine)
        player.perform(.interruptionBegan)
        #expect(player.status.state == .paused)
        player.perform(.interruptionEnded)
        #expect(player.status.state == .playing)

        player.perform(.pause)
        player.perform(.interruptionBegan)
        player.perform(.interruptionEnded)
        #expect(player.status.state == .paused)
    }

    @Test func interruptionDoesNotResumeWhenConfiguredNotTo() {
        let (player, engine) = player { $0.resumeAfterInterruption = false }
        player.perform(.play)
        startHearing(player, engine)
        player.perform(.interruptionBegan)
        player.perform(.interruptionEnded)
        #expect(player.status.state == .paused)
    }

    @Test func holdingFastForwardSkipsRepeatedlyUntilReleased() throws {
        let (player, engine) = player { $0.scanStepSeconds = 2; $0.scanIntervalMilliseconds = 20 }
        player.perform(.play)
        startHearing(player, engine, at: 1000)
        player.perform(.fastForward(.begin))
        usleep(110_000)
        player.perform(.fastForward(.end))
        _ = player.status
        let seeks = engine.calls.filter { if case .seek = $0 { true } else { false } }.count
        #expect(seeks >= 3)
        usleep(60_000)
        let after = engine.calls.filter { if case .seek = $0 { true } else { false } }.count
        #expect(after == seeks)
    }

    @Test func modeCycleReschedulesTheNextTrack() {
        let (player, engine) = player()
        player.perform(.play)
        startHearing(player, engine)
        player.perform(.setMode(.repeatOne))
        #expect(player.status.mode == .repeatOne)
        #expect(engine.calls.last == .setNext("/music/0.flac"))
        player.perform(.cycleMode)
        #expect(player.status.mode == .shuffle)
    }
}

final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var _items: [T] = []
    func append(_ item: T) { lock.withLock { _items.append(item) } }
    var items: [T] { lock.withLock { _items } }
}

extension Player {
    /// Sends a command and waits until the player's queue has handled it.
    func perform(_ command: PlayerCommand) {
        send(command)
        _ = status
    }
}

@Suite struct PlayerOutputLossTests {
    let info = StreamInfo(sampleRate: 1000, channels: 2, sampleFormat: .s16, totalFrames: 60_000)

    func playing(_ configure: (inout Player.Settings) -> Void = { _ in }) -> (Player, FakeEngine) {
        var settings = Player.Settings()
        configure(&settings)
        let engine = FakeEngine()
        let player = Player(engine: engine, settings: settings)
        player.setTracks(["/music/0.flac", "/music/1.flac"])
        player.perform(.play)
        _ = player.status
        let token = engine.lastPlayToken!
        player.engineEvent(.trackOpened(token: token, info: info, metadata: TrackMetadata()))
        engine.snapshot = EngineSnapshot(state: .playing, token: token, frame: 1500, sampleRate: 1000)
        player.engineEvent(.trackStarted(token: token))
        return (player, engine)
    }

    @Test func aLostDevicePausesWithTheReasonAndItsReturnResumes() {
        let (player, engine) = playing()
        player.engineEvent(.outputLost(.disconnected(device: "hw:CARD=DAC")))
        let lost = player.status
        #expect(lost.state == .paused)
        #expect(lost.lastError == "output lost: hw:CARD=DAC")
        #expect(lost.elapsed == 1.5)  // the place is kept
        player.engineEvent(.outputReturned(device: "hw:CARD=DAC"))
        #expect(player.status.state == .playing)
        #expect(player.status.lastError == nil)
        #expect(engine.calls.last == .resume)
    }

    @Test func pausedOnPurposeStaysPausedWhenTheDeviceReturns() {
        let (player, engine) = playing()
        player.perform(.pause)
        player.engineEvent(.outputLost(.disconnected(device: "dac")))
        player.engineEvent(.outputReturned(device: "dac"))
        #expect(player.status.state == .paused)
        #expect(engine.calls.last == .pause)
    }

    @Test func aPauseWhileWaitingMeansStayPaused() {
        let (player, _) = playing()
        player.engineEvent(.outputLost(.absent(device: "dac")))
        #expect(player.status.lastError == "waiting for dac")
        player.perform(.pause)
        player.engineEvent(.outputReturned(device: "dac"))
        #expect(player.status.state == .paused)
    }

    @Test func resumeOnReconnectOffKeepsItPaused() {
        let (player, _) = playing { $0.resumeOnReconnect = false }
        player.engineEvent(.outputLost(.disconnected(device: "dac")))
        player.engineEvent(.outputReturned(device: "dac"))
        #expect(player.status.state == .paused)
    }
}
