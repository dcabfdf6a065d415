import Foundation
import Testing
@testable import JukeboxCore

/// Where the playback speed is set: the player's command, the config default, the socket,
/// the buttons and knobs, and each book folder's own, kept with its place.
@Suite struct PlaybackSpeedSettingTests {
    let info = StreamInfo(sampleRate: 1000, channels: 2, sampleFormat: .s16, totalFrames: 60_000)
    static let books = ["/music/Books/1.mp3", "/music/Books/2.mp3"]
    static let songs = ["/music/Songs/a.flac", "/music/Songs/b.flac"]

    func player(speed: Double = 1) -> (Player, FakeEngine) {
        var settings = Player.Settings()
        settings.rememberFolders = ["/music/Books"]
        settings.speed = speed
        let engine = FakeEngine()
        let player = Player(engine: engine, settings: settings)
        player.setTracks(Self.songs + Self.books)
        return (player, engine)
    }

    func speeds(_ engine: FakeEngine) -> [Double] {
        engine.calls.compactMap { if case .speed(let s) = $0 { s } else { nil } }
    }

    /// Plays the entry at `position` and hears it at `frame`.
    func play(_ position: Int, _ player: Player, _ engine: FakeEngine, heardAt frame: Int64 = 0) {
        player.perform(.playPosition(position))
        _ = player.status
        let token = engine.lastPlayToken!
        player.engineEvent(.trackOpened(token: token, info: info, metadata: TrackMetadata()))
        engine.snapshot = EngineSnapshot(state: .playing, token: token, frame: frame, sampleRate: 1000)
        player.engineEvent(.trackStarted(token: token))
        _ = player.status
    }

    @Test func speedIsKeptOnItsStepsWithinItsRange() {
        let (player, engine) = player()
        player.perform(.setSpeed(1.23))
        #expect(player.status.speed == 1.25)
        player.perform(.speedStep(1))
        #expect(player.status.speed == 1.3)
        player.perform(.speedStep(-20))
        #expect(player.status.speed == 0.5)
        player.perform(.setSpeed(7))
        #expect(player.status.speed == 2)
        player.perform(.setSpeed(2))  // no change: the engine is not told again
        #expect(speeds(engine) == [1.25, 1.3, 0.5, 2])
        #expect(PlaybackSpeed.text(1.25) == "1.25" && PlaybackSpeed.text(1.5) == "1.5" && PlaybackSpeed.text(2) == "2"
            && PlaybackSpeed.text(0.55) == "0.55" && PlaybackSpeed.text(1.05) == "1.05")
    }

    @Test func theConfiguredSpeedIsWhereItStartsAndAReloadAppliesIt() {
        let (player, engine) = player(speed: 1.5)
        #expect(player.status.speed == 1.5 && speeds(engine) == [1.5])
        var settings = Player.Settings()
        settings.rememberFolders = ["/music/Books"]
        settings.speed = 0.75
        player.updateSettings(settings)
        #expect(player.status.speed == 0.75 && speeds(engine) == [1.5, 0.75])
    }

    @Test func aBookFolderKeepsItsSpeedWithItsPlace() throws {
        let (player, engine) = player()
        play(2, player, engine, heardAt: 500)  // into the book
        player.perform(.setSpeed(1.5))
        play(0, player, engine)  // out to music: the configured speed
        #expect(player.status.speed == 1)
        play(3, player, engine)  // back into the book: its place and its speed
        #expect(player.status.speed == 1.5)
        #expect(engine.calls.last { if case .play = $0 { true } else { false } } == .play(token: engine.lastPlayToken!, path: Self.books[0], frame: 500, paused: false))
        #expect(speeds(engine) == [1.5, 1, 1.5])
        // Kept with the place in the memory, and back from it after a restart.
        let memory = player.memory
        #expect(memory.places.first?.speed == 1.5)
        let (restored, restoredEngine) = self.player()
        play(0, restored, restoredEngine)
        restored.restore(memory, play: true)
        _ = restored.status
        #expect(restored.status.speed == 1.5)
        // A state file written before speeds were kept reads as no speed kept.
        let old = try JSONDecoder().decode(FolderPlaces.Place.self, from: Data(#"{"folder":"/b","path":"/b/1.mp3","frame":5}"#.utf8))
        #expect(old.speed == nil)
    }

    @Test func theConfigTakesASpeedOnItsStepsAndSaysWhatIsWrong() throws {
        #expect(try ConfigLoader.parse("[playback]\nspeed = 1.25\n", path: "j.toml").playback.player.speed == 1.25)
        #expect(try ConfigLoader.parse("", path: "j.toml").playback.player.speed == 1)
        func error(_ text: String) -> ConfigError? {
            do { _ = try ConfigLoader.parse(text, path: "j.toml"); return nil } catch { return error as? ConfigError }
        }
        let step = error("[playback]\n\nspeed = 1.23\n")
        #expect(step?.line == 3 && step?.reason == "speed is 1.23; it goes in steps of 0.05, such as 1.25")
        #expect(error("[playback]\nspeed = 3\n")?.reason == "speed is 3.0; it must be from 0.5 to 2.0")
        #expect(error("[playback]\nspeed = \"fast\"\n")?.reason == "speed must be a number")
    }

    @Test func theSocketSetsAndSaysTheSpeed() {
        let (player, _) = player()
        let s = ControlSession(player: player, scope: .init(musicDirectory: "/music/"), local: false, password: "")
        func say(_ line: String) -> String {
            if case .reply(let text) = s.handle(line: line) { return text }
            return ""
        }
        #expect(say("speed") == "speed: 1\nOK\n")
        #expect(!say("status").contains("speed"))  // at 1 the status is MPD's own
        #expect(say("speed 1.25") == "OK\n")
        #expect(say("speed") == "speed: 1.25\nOK\n")
        #expect(say("status").contains("\nspeed: 1.25\n"))
        #expect(say("speed 2.5") == "ACK [2@0] {speed} Speed from 0.5 to 2 expected: 2.5\n")
        #expect(say("speed fast") == "ACK [2@0] {speed} Speed from 0.5 to 2 expected: fast\n")
        #expect(say("commands").contains("command: speed\n"))
        #expect(player.status.speed == 1.25)
    }

    @Test func buttonsAndKnobsStepTheSpeed() {
        #expect(ButtonAction.command(named: "speed-up", skipSeconds: 10) == .speedStep(1))
        #expect(ButtonAction.command(named: "speed-down", skipSeconds: 10) == .speedStep(-1))
        #expect(ButtonAction.command(named: "speed-reset", skipSeconds: 10) == .setSpeed(1))
        #expect(ButtonAction.names.contains { $0.name == "speed-up" })
        #expect(StepAction(name: "speed", seekSeconds: 5)?.commands(steps: -2) == [.speedStep(-2)])
        let (player, _) = player()
        player.perform(.speedStep(3))
        #expect(player.status.speed == 1.15)
        player.perform(.setSpeed(1))
        #expect(player.status.speed == 1)
    }

    @Test func theScreenShowsTheSpeedWhileItIsNotOneAndItsClockRunsAtIt() throws {
        let second: UInt64 = 1_000_000_000
        let r = ScreenRenderer(width: 320, height: 240, fonts: try ScreenFixtures.fonts())
        var s = PlayerStatus()
        s.state = .playing
        s.path = "/music/Books/1.mp3"
        s.duration = 100
        s.elapsed = 10
        var input = ScreenInput()
        input.status = s
        input.statusAt = 100 * second
        let (normal, _) = r.content(for: input, at: 104 * second)
        #expect(!normal.state.contains("×") && normal.elapsed == "0:14")
        input.status?.speed = 1.25
        let (fast, _) = r.content(for: input, at: 104 * second)
        #expect(fast.state.hasSuffix("  1.25×"), "\(fast.state)")
        #expect(fast.elapsed == "0:15")  // four seconds heard are five of the track
    }
}
