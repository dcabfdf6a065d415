import Testing
@testable import JukeboxCore

/// Which way a box coming back takes up its saved place, with made-up states and file
/// identities. (The real thing, with files and power cuts, runs in `PowerCutTests`,
/// `SavedQueueTests`, `QuickRestartTests` and on the board.)
@Suite struct ResumePlanTests {
    let track = "/music/Album/02.flac"
    let saveTime = FileIdentity(size: 1_000, modified: 1_700_000_000_000_000_000)
    let library = ResumePlan.Settings(policy: .playing, autoplay: true, playlist: "", musicDirectory: "/music")

    func saved(_ state: PlayerState = .playing, path: String? = "/music/Album/02.flac", source: QueueSource = .library,
               identity: FileIdentity? = FileIdentity(size: 1_000, modified: 1_700_000_000_000_000_000),
               clientQueue: Bool? = nil) -> SavedState {
        let memory = PlaybackMemory(state: state, path: path, frame: 44_100 * 60, volume: 40, mode: .once,
                                    queue: QueueMemory(current: 1, history: [0], shuffleOrder: [], shufflePosition: 0),
                                    queueFingerprint: QueueFingerprint(paths: ["/music/Album/01.flac", "/music/Album/02.flac"]),
                                    places: [])
        return SavedState(source: source, identity: identity, memory: memory, clientQueue: clientQueue)
    }

    /// The disk as the rules see it: the saved track unchanged, unless told otherwise.
    func disk(_ files: [String: FileIdentity]? = nil) -> (String) -> FileIdentity? {
        let files = files ?? [track: saveTime]
        return { files[$0] }
    }

    // MARK: The way taken at start

    @Test func nothingSavedWaitsForNothing() {
        #expect(ResumePlan.start(nil, library, identity: disk()) == .nothingSaved)
    }

    @Test func aClientsQueueComesBackBeforeAnythingElse() {
        // Even where the saved track could have played at once.
        #expect(ResumePlan.start(saved(clientQueue: true), library, identity: disk()) == .clientQueue)
        #expect(ResumePlan.start(saved(clientQueue: false), library, identity: disk()) == .atOnce(track))
    }

    @Test func theSavedTrackPlaysAtOnceWhenNothingCanHaveChangedUnderIt() {
        #expect(ResumePlan.start(saved(), library, identity: disk()) == .atOnce(track))
        var slash = library
        slash.musicDirectory = "/music/"
        #expect(ResumePlan.start(saved(), slash, identity: disk()) == .atOnce(track))
        // Stopped counts as playing: autoplay starts it.
        #expect(ResumePlan.start(saved(.stopped), library, identity: disk()) == .atOnce(track))
        var always = library
        always.policy = .always
        #expect(ResumePlan.start(saved(.paused), always, identity: disk()) == .atOnce(track))
    }

    @Test func anythingUncertainWaitsForTheLibrary() {
        var playlist = library
        playlist.playlist = "Road trip"
        var neighbour = library
        neighbour.musicDirectory = "/mus"
        var never = library
        never.policy = .never
        var noAutoplay = library
        noAutoplay.autoplay = false
        let cases: [(String, SavedState, ResumePlan.Settings, (String) -> FileIdentity?)] = [
            ("a playlist is configured", saved(), playlist, disk()),
            ("the queue was a playlist's", saved(source: .playlist("Road trip")), library, disk()),
            ("the track is outside music_dir", saved(path: "/other/02.flac"), library, disk(["/other/02.flac": saveTime])),
            ("a folder whose name starts alike", saved(path: "/music/Album/02.flac"), neighbour, disk()),
            ("no track was saved", saved(path: nil), library, disk()),
            ("the file changed", saved(), library, disk([track: FileIdentity(size: 1_001, modified: saveTime.modified)])),
            ("the file is gone", saved(), library, disk([:])),
            ("no identity was saved", saved(identity: nil), library, disk()),
            ("it was paused", saved(.paused), library, disk()),
            ("resume = never", saved(), never, disk()),
            ("autoplay is off", saved(), noAutoplay, disk()),
        ]
        for (why, state, settings, identity) in cases {
            #expect(ResumePlan.start(state, settings, identity: identity) == .afterLibrary, "\(why)")
        }
    }

    // MARK: The place in the queue

    @Test func thePlaceComesBackAsSavedWhereNothingChanged() {
        let restoring = ResumePlan.restoring(saved(), in: ["/music/Album/01.flac", track], library, identity: disk())
        #expect(restoring == ResumePlan.Restoring(memory: saved().memory, play: true, moved: nil))
        var never = library
        never.policy = .never
        #expect(!ResumePlan.restoring(saved(), in: [track], never, identity: disk()).play)
        #expect(!ResumePlan.restoring(saved(.paused), in: [track], library, identity: disk()).play)
    }

    @Test func aTrackGoneFromTheQueueStartsItFromTheTop() {
        let restoring = ResumePlan.restoring(saved(), in: ["/music/Other/01.flac"], library, identity: disk())
        #expect(restoring.moved == .notInQueue(track))
        #expect(restoring.memory.path == nil)
        #expect(restoring.memory.frame == saved().memory.frame)
        #expect(restoring.play)
    }

    @Test func aChangedFilePlaysFromItsStart() {
        let edited = disk([track: FileIdentity(size: 1_000, modified: saveTime.modified + 1)])
        let restoring = ResumePlan.restoring(saved(), in: [track], library, identity: edited)
        #expect(restoring.moved == .changed(track))
        #expect(restoring.memory.path == track)
        #expect(restoring.memory.frame == 0)
        // Without a saved identity there is nothing to compare: the frame stands.
        #expect(ResumePlan.restoring(saved(identity: nil), in: [track], library, identity: edited).moved == nil)
    }

    @Test func whatTheLibrarysFirstQueueBrings() {
        let queue = ["/music/Album/01.flac", track]
        var noAutoplay = library
        noAutoplay.autoplay = false
        #expect(ResumePlan.afterLibrary(.nothingSaved, queue: queue, alreadyPlaying: false, library, identity: disk()) == .play)
        #expect(ResumePlan.afterLibrary(.nothingSaved, queue: queue, alreadyPlaying: true, library, identity: disk()) == .nothing)
        #expect(ResumePlan.afterLibrary(.nothingSaved, queue: queue, alreadyPlaying: false, noAutoplay, identity: disk()) == .nothing)
        #expect(ResumePlan.afterLibrary(.startedEarly(saved()), queue: queue, alreadyPlaying: false, library, identity: disk())
            == .restoreQueueMemory(saved().memory))
        #expect(ResumePlan.afterLibrary(.startedEarly(saved()), queue: ["/music/Other/01.flac"], alreadyPlaying: false, library,
                                        identity: disk()) == .earlyTrackNotInQueue(track))
        #expect(ResumePlan.afterLibrary(.place(saved(.paused)), queue: queue, alreadyPlaying: true, library, identity: disk())
            == .restore(ResumePlan.Restoring(memory: saved(.paused).memory, play: false, moved: nil)))
    }

    @Test func aClientsQueueKeepsItsURLsAndTheFilesStillThere() {
        let tracks: [TrackLocation] = [.file("/music/a.flac"), .url("http://radio.example/live"), .file("/music/gone.flac")]
        let present = tracks.filter { ResumePlan.isPresent($0, identity: disk(["/music/a.flac": saveTime])) }
        #expect(present.map(\.entry) == ["/music/a.flac", "http://radio.example/live"])
    }

    // MARK: How far it has gone

    @Test func onlyTheLibrarysFirstQueueTakesUpThePlace() {
        var plan = ResumePlan(saved: saved())
        #expect(plan.holdsFirstPlay)
        #expect(plan.libraryQueue() == .place(saved()))
        #expect(!plan.holdsFirstPlay)
        #expect(plan.libraryQueue() == nil)
        var fresh = ResumePlan(saved: nil)
        #expect(!fresh.holdsFirstPlay)
        #expect(fresh.libraryQueue() == .nothingSaved)
        #expect(fresh.libraryQueue() == nil)
    }

    @Test func anEarlyStartIsFinishedByTheLibrarysQueue() {
        var plan = ResumePlan(saved: saved())
        plan.didStartEarly()
        #expect(plan.holdsFirstPlay)
        #expect(plan.libraryQueue() == .startedEarly(saved()))
    }

    @Test func aClientsQueueBackLeavesTheLibrarysQueueAlone() {
        var plan = ResumePlan(saved: saved(clientQueue: true))
        plan.didBringBackClientQueue()
        // The library still waits for its whole scan: it is not to play over the queue.
        #expect(plan.holdsFirstPlay)
        #expect(plan.libraryQueue() == nil)
        #expect(!plan.holdsFirstPlay)
    }
}
