import ArgumentParser
import JukeboxCore

struct SocketOption: ParsableArguments {
    @Option(help: "The jukebox's control socket.")
    var socket = "/run/jukebox/control"

    @Option(help: "Seconds to wait for the jukebox to accept the connection and to answer each command.")
    var timeout = ControlClient.defaultTimeoutSeconds

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 3600 else {
            throw ValidationError("--timeout must be a number of seconds above 0 and at most 3600")
        }
    }

    func connect() throws -> ControlClient { try ControlClient(socketPath: socket, timeoutSeconds: timeout) }
}

struct CtlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Send one command to a running jukebox (MPD protocol: play, pause, next, seekcur +10, setvol 50, status…).")

    @OptionGroup var options: SocketOption

    @Argument(parsing: .captureForPassthrough, help: "The command and its arguments.")
    var command: [String]

    func run() throws {
        do {
            let client = try options.connect()
            for line in try client.send(command) { print(line) }
        } catch {
            StandardError.print("jukebox: \(error)")
            throw ExitCode(1)
        }
    }
}

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show what a running jukebox is playing.")

    @OptionGroup var options: SocketOption

    func run() throws {
        do {
            let client = try options.connect()
            let status = Self.fields(try client.send(["status"]))
            let song = Self.fields(try client.send(["currentsong"]))
            let state = ["play": "playing", "pause": "paused", "stop": "stopped"][status["state"] ?? ""] ?? "?"
            let title = song["Title"] ?? song["file"].map { String($0.split(separator: "/").last ?? "") } ?? "nothing"
            let artist = song["Artist"].map { " — \($0)" } ?? ""
            print("\(state): \(title)\(artist)")
            if let elapsed = status["elapsed"].flatMap(Double.init), let duration = status["duration"].flatMap(Double.init) {
                let position = (status["song"].flatMap(Int.init) ?? 0) + 1
                print("\(clock(elapsed)) / \(clock(duration))   track \(position) of \(status["playlistlength"] ?? "?")")
            }
            print("volume \(status["volume"] ?? "?")%   mode \(MPDProtocol.options(status).label)")
            if let output = status["output"] { print("output: \(output)") }
            if let mixer = status["mixer"] { print("mixer: \(mixer)") }
            if let error = status["error"] { print("error: \(error)") }
        } catch {
            StandardError.print("jukebox: \(error)")
            throw ExitCode(1)
        }
    }

    static func fields(_ lines: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let valueStart = line.index(colon, offsetBy: 2, limitedBy: line.endIndex) ?? line.endIndex
            out[String(line[..<colon])] = String(line[valueStart...])
        }
        return out
    }

    func clock(_ seconds: Double) -> String { PlayerStatus.clock(seconds) }
}
