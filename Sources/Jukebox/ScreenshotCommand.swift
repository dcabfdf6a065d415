import ArgumentParser
import JukeboxCore

#if canImport(Glibc)
import Glibc
#endif

struct ScreenshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenshot",
        abstract: "Draw the screen for a track at a given second into a PNG, exactly as the box would.",
        discussion: "The PNG has the panel's own size and orientation (with --rotate, the picture is turned as it is sent to the panel).")

    @Argument(help: "The PNG to write.")
    var out: String

    @Option(help: "The audio file playing.")
    var track: String

    @Option(help: "Seconds into the track.")
    var at: Double = 0

    @Option(help: "The panel's size, WIDTHxHEIGHT.")
    var size = "320x240"

    @Option(help: "How the panel is turned: 0, 90, 180 or 270.")
    var rotate = 0

    @Option(help: "paused, stopped or playing.")
    var state = "playing"

    @Option(help: "The play mode shown: once, repeat-all, repeat-one or shuffle.")
    var mode = "repeat-all"

    @Option(help: "The volume (shown large with --show-volume).")
    var volume = 60

    @Flag(help: "Show the volume box, as after the volume changed.")
    var showVolume = false

    @Option(help: "A notice across the top, as for trouble (\"output lost: hw:1\").")
    var notice: String?

    @Option(help: "The configuration file whose [display] fonts are used, if it exists.")
    var config = "config/jukebox.toml"

    func validate() throws {
        guard ConfigLoader.size(size) != nil else { throw ValidationError("--size \(size): use WIDTHxHEIGHT, such as 320x240") }
        guard Rotation(rawValue: rotate) != nil else { throw ValidationError("--rotate \(rotate): use 0, 90, 180 or 270") }
        guard [PlayerState.playing, .paused, .stopped].contains(PlayerState(rawValue: state)) else {
            throw ValidationError("--state \(state): use playing, paused or stopped")
        }
        guard PlayMode(rawValue: mode) != nil else { throw ValidationError("--mode \(mode): use once, repeat-all, repeat-one or shuffle") }
        guard at >= 0, at <= 86_400 else { throw ValidationError("--at \(at): use seconds from 0") }
    }

    func run() throws {
        var fonts = JukeboxConfig.Display().fonts
        if access(config, F_OK) == 0 {
            do {
                fonts = try ConfigLoader.load(path: config).display.fonts
            } catch {
                StandardError.print("jukebox: \(error)")
                throw ExitCode(2)
            }
        }
        var shot = Screenshot(track: track, seconds: at)
        (shot.panelWidth, shot.panelHeight) = ConfigLoader.size(size)!
        shot.rotation = Rotation(rawValue: rotate)!
        shot.state = PlayerState(rawValue: state)!
        shot.mode = PlayMode(rawValue: mode)!
        shot.volume = volume
        shot.showVolume = showVolume
        shot.notice = notice
        var problems: [String] = []
        do {
            let chain = try FontChain(paths: fonts, problems: &problems)
            try shot.write(to: out, fonts: chain, problems: &problems)
        } catch {
            for problem in problems { StandardError.print("jukebox: warning: \(problem)") }
            StandardError.print("jukebox: \(error)")
            throw ExitCode(1)
        }
        for problem in problems { StandardError.print("jukebox: warning: \(problem)") }
    }
}
