import Foundation
import Testing
@testable import JukeboxCore

/// mpc, every subcommand, against MPD and against the box on the same library: what a
/// person at a terminal reads must be the same. Each scenario starts stopped, with an
/// empty queue and every mode off; its mpc runs go to both servers in turn and their
/// output (standard output and errors) is compared once the clock is taken out of it.
/// Each release of MPD the protocol is held against is asked (`MPDDifferentialTests.oracles`).
/// A scenario that differs must be listed, with the reason, in that release's list
/// (`Golden/mpc-differences.txt` for 0.24, `mpc-0.23-differences.txt` for 0.23); one listed
/// that no longer differs must leave it.
@Suite(.serialized) struct MPDClientDifferentialTests {
    /// mpc's subcommands (`mpc help`), scenario by scenario. Those that wait for an event
    /// (`idle`, `idleloop`, `waitmessage`, `subscribe`) are run with one made for them.
    static let scenarios: [(name: String, runs: [[String]])] = [
        ("ls", [["ls"], ["ls", "Artist One"], ["ls", "Artist One/First Album"], ["ls", "Nowhere"]]),
        ("listall", [["listall"], ["listall", "Various"]]),
        ("search", [["search", "title", "a"], ["search", "any", "ünï"], ["find", "artist", "Artist One"], ["find", "artist", "Guest Singer"]]),
        ("list", [["list", "artist"], ["list", "album", "artist", "Artist One"], ["list", "albumartist"], ["list", "genre"],
                  ["list", "date"], ["list", "album", "group", "albumartist"]]),
        ("stats", [["stats"]]),
        ("queue", [["add", ""], ["playlist"], ["move", "1", "3"], ["del", "1"], ["playlist"], ["insert", "Mp3/Song.mp3"], ["playlist"],
                   ["crop"], ["clear"], ["playlist"]]),
        ("findadd", [["findadd", "album", "Two Discs"], ["searchadd", "title", "o"], ["playlist"]]),
        ("play", [["add", ""], ["play", "2"], ["current"], ["queued"], ["next"], ["prev"], ["pause"], ["toggle"], ["stop"], ["pause-if-playing"]]),
        ("cdprev", [["add", ""], ["play", "3"], ["cdprev"]]),
        ("seek", [["add", ""], ["play", "1"], ["pause"], ["seek", "50%"], ["seek", "+5"], ["seekthrough", "+5"], ["seek", "0:10"]]),
        ("searchplay", [["add", ""], ["searchplay", "Beta"], ["crop"], ["playlist"]]),
        ("modes", [["repeat", "on"], ["random", "on"], ["single", "once"], ["consume", "on"], ["repeat"], ["random", "off"], ["single", "off"],
                   ["consume", "off"]]),
        ("volume", [["volume", "30"], ["volume", "+5"], ["volume", "-10"], ["volume"]]),
        ("crossfade", [["crossfade"], ["crossfade", "3"], ["mixrampdb"], ["mixrampdelay"]]),
        ("replaygain", [["replaygain"], ["replaygain", "track"], ["replaygain"], ["replaygain", "loud"], ["replaygain", "auto"]]),
        ("outputs", [["outputs"], ["disable", "1"], ["enable", "1"], ["toggleoutput", "1"], ["toggleoutput", "1"], ["outputset", "1", "a=b"]]),
        ("playlists", [["lsplaylists"], ["playlist", "saved"], ["add", "Various"], ["save", "mix"], ["playlist", "mix"], ["clear"],
                       ["load", "mix"], ["playlist"], ["rm", "mix"], ["lsplaylists"]]),
        ("shuffle", [["add", ""], ["shuffle"], ["status"]]),
        ("prio", [["add", ""], ["prio", "5", "1"]]),
        ("database", [["update", "Various"], ["rescan"], ["clearerror"]]),
        ("version", [["version"]]),
        ("sticker", [["sticker", "Mp3/Song.mp3", "list"]]),
        ("messages", [["channels"], ["sendmessage", "chat", "hello"]]),
        ("mounts", [["listneighbors"], ["mount"], ["mount", "usb", "foo://bar"], ["unmount", "usb"]]),
        ("pictures", [["albumart", "Artist One/First Album/01 Opening.flac"], ["readpicture", "Artist One/First Album/01 Opening.flac"]]),
        ("errors", [["play", "99"], ["del", "99"], ["volume", "loud"], ["seek", "1:00"]]),
        ("mixramp-off", [["mixrampdb", "0"], ["mixrampdb"], ["mixrampdelay", "-1"], ["mixrampdelay"]]),
        ("mixramp-on", [["mixrampdb", "-17"], ["mixrampdelay", "2"], ["mixrampdelay"], ["mixrampdelay", "-1"], ["mixrampdb", "0"]]),
    ]

    /// What an mpc run prints, with the clock taken out: elapsed times and percentages
    /// in the status line, and stats' uptimes (the two servers did not start together).
    static func normalised(_ text: String) -> String {
        var out = text.replacing(/\] +#(\d+)\/(\d+) +\d+:\d+\/(\d+:\d+) \(\d+%\)/) { "] #\($0.output.1)/\($0.output.2) *:**/\($0.output.3) (*%)" }
        out = out.replacing(/(?m)^(Uptime|Play Time|DB Updated): .*$/) { "\($0.output.1): *" }
        // Whether a job still runs when mpc asks is timing: its lines are left out.
        out = out.replacing(/(?m)^Updating DB \(#\d+\) \.\.\.\n/) { _ in "" }
        return out
    }

    /// The allowed differences for each of `MPDDifferentialTests.oracles`, in its order.
    static let differences = ["mpc-differences.txt", "mpc-0.23-differences.txt"]

    @Test func mpcPrintsWhatItPrintsForMPD() throws {
        let library = try DifferentialLibrary(name: "mpc-differential")
        defer { library.remove() }
        let (mpds, box) = try library.serve()
        let allowed = try Self.differences.map { try MPDDifferentialTests.allowed($0) }
        @Sendable func printed(_ socket: String, _ runs: [[String]]) -> [String] {
            let connection = try? RawMPDConnection(socket: socket)
            // ReplayGain off as MPD starts: the box applies it unless told not to.
            for line in ["stop", "clear", "clearerror", "repeat 0", "random 0", "single 0", "consume 0", "setvol 100", "enableoutput 0",
                         "replay_gain_mode off"] {
                _ = connection?.reply(to: line)
            }
            return runs.flatMap { arguments -> [String] in
                let run = try? Tools.run("mpc", ["--host", socket] + arguments, check: false)
                let text = Self.normalised((run?.text ?? "") + (run?.stderr ?? ""))
                return ["$ mpc " + arguments.joined(separator: " ")] + text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            }
        }
        // Each server on a thread of its own, as in MPDDifferentialTests.
        let sockets = [box.socket] + mpds.map(\.socket)
        let heard = Heard(count: sockets.count)
        DispatchQueue.concurrentPerform(iterations: sockets.count) { at in
            for (name, runs) in Self.scenarios { heard.keep(at, name, .success(printed(sockets[at], runs))) }
        }
        for (name, _) in Self.scenarios {
            let ours = try heard[0, name]
            for (at, (mpd, (file, allowed))) in zip(mpds, zip(Self.differences, allowed)).enumerated() {
                let theirs = try heard[at + 1, name]
                let release = mpd.release.rawValue
                if theirs != ours, allowed[name] == nil {
                    func shown(_ lines: [String]) -> String { lines.prefix(60).map { "    " + $0 }.joined(separator: "\n") }
                    Issue.record("\(name): mpc prints otherwise for the box than for MPD \(release)\n  MPD:\n\(shown(theirs))\n  box:\n\(shown(ours))")
                }
                if theirs == ours, allowed[name] != nil {
                    Issue.record("\(name): now the same as for MPD \(release); take it out of Golden/\(file)")
                }
            }
        }
        for (file, allowed) in zip(Self.differences, allowed) {
            for name in allowed.keys where !Self.scenarios.contains(where: { $0.name == name }) {
                Issue.record("Golden/\(file) names \(name), which is no scenario")
            }
        }
    }
}
