import Foundation
import Testing

/// ncmpcpp's and ncmpc's screens, for MPD 0.24.2, MPD 0.23.12 and the box on one
/// library: each client runs in three 120x40 tmux panes at once, one per server, gets the
/// same keys, and each screen it comes to is captured (attributes too) once it has
/// stood still, and compared. The servers start alike: the whole library queued, the
/// second entry paused at 0:12, repeat on.
@Suite(.serialized) struct ClientScreensAgainstMPDTests {
    /// A screen: the keys that lead to it, and text only it shows, so a capture of the
    /// screen before is never taken for it.
    struct Step {
        enum Input { case key(String), text(String) }
        let screen: String
        let input: [Input]
        let marker: String

        init(_ screen: String, _ input: [Input], until marker: String) {
            self.screen = screen
            self.input = input
            self.marker = marker
        }
    }

    static let start = ["add \"\"", "play 1", "pause 1"]
    static let startOpened = ["seekcur 12", "repeat 1"]

    static let ncmpcppSteps: [Step] = [
        Step("queue", [], until: "Playlist ("),
        Step("browse", [.key("2")], until: "Browse: /"),
        Step("browse folder", [.key("Enter"), .key("Down"), .key("Enter")], until: "Browse: Artist One/First Album"),
        Step("media library", [.key("4")], until: "Media library"),
        Step("media library, third artist", [.key("Down"), .key("Down")], until: "(2010) Two Discs"),
        Step("search engine", [.key("3")], until: "Search engine"),
        Step("search", [.key("Home"), .key("Enter"), .text("o"), .key("Enter")] + Array(repeating: .key("Down"), count: 13) + [.key("Enter")],
             until: "Search results"),
        Step("playlist editor", [.key("5")], until: "Playlist editor"),
        Step("outputs", [.key("7")], until: "Outputs"),
        Step("song info", [.key("1"), .key("i")], until: "Song info"),
        // Repeat off, random, single and consume on, the volume a step down.
        Step("modes and volume", [.key("1"), .key("r"), .key("z"), .key("y"), .key("R"), .key("-")], until: "Volume: 98%"),
        Step("queue entry deleted", [.key("Home"), .key("Delete")], until: "Playlist (8 items"),
    ]

    static let ncmpcSteps: [Step] = [
        Step("queue", [], until: "Queue on"),
        Step("browse", [.key("3")], until: "Browse:"),
        Step("browse folder", [.key("Enter"), .key("Down"), .key("Enter")], until: "Browse: Artist One/First Album"),
        Step("library", [.key("4")], until: "Artists"),
        Step("library, artist", [.key("Down"), .key("Enter")], until: "Songs: "),
        Step("search", [.key("5"), .key("5"), .text("o"), .key("Enter")], until: "Search 'o'"),
        Step("outputs", [.key("8")], until: "Outputs"),
        Step("song viewer", [.key("2"), .key("i")], until: "Song viewer"),
        Step("modes and volume", [.key("2"), .key("r"), .key("z"), .key("y"), .key("C"), .key("-")], until: "Volume 99%"),
    ]

    @Test func ncmpcppShowsWhatItShowsForMPD() throws {
        try compare(client: "ncmpcpp", steps: Self.ncmpcppSteps, configFile: ".config/ncmpcpp/config") { socket in
            // Messages shown for a second, so none is left when a screen stands still.
            "mpd_host = \"\(socket)\"\ncolors_enabled = no\nmessage_delay_time = 1\n"
        }
    }

    @Test func ncmpcShowsWhatItShowsForMPD() throws {
        try compare(client: "ncmpc", steps: Self.ncmpcSteps, configFile: ".config/ncmpc/config") { socket in
            // The cursor stays; messages go after a second; titles stand still.
            "host = \"\(socket)\"\nenable-colors = no\nhide-cursor = 0\nscroll = no\nwelcome-screen-list = no\nstatus-message-time = 1\n"
        }
    }

    /// Runs `client` against the three servers in step, and compares its screens.
    func compare(client: String, steps: [Step], configFile: String, config: (String) -> String) throws {
        let servers = try ThreeServers(name: client)
        // Each client reaches its server by a link of the same length in one folder, so a
        // title that names the socket is the same but for one digit, which is starred.
        let folder = servers.library.folder + "/screens"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var panes: [ThreeServers.Server: TmuxPane] = [:]
        // The panes' sockets are in the library's folder, which goes with the servers.
        defer { withExtendedLifetime(servers) { panes.values.forEach { $0.close() } } }
        for (index, server) in ThreeServers.Server.allCases.enumerated() {
            servers.reset(server, then: Self.start, opened: Self.startOpened)
            let link = "\(folder)/s\(index)"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: servers.socket(server))
            let home = "\(folder)/home\(index)"
            let configPath = home + "/" + configFile
            try FileManager.default.createDirectory(atPath: (configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try config(link).write(toFile: configPath, atomically: true, encoding: .utf8)
            panes[server] = try TmuxPane(socket: "\(folder)/tmux\(index)", columns: 120, rows: 40,
                                         command: "env HOME=\(home) TERM=screen LANG=C.UTF-8 \(client)")
        }
        var comparison = ClientComparison(client: client, allowlist: "\(client)-differences.txt")
        for step in steps {
            for pane in panes.values {
                for input in step.input {
                    switch input {
                    case .key(let key): try pane.keys(key)
                    case .text(let text): try pane.type(text)
                    }
                }
            }
            let screens = Self.settled(panes, showing: step.marker)
            for (server, screen) in screens where screen == nil {
                Issue.record("\(client), \(step.screen): \(server.rawValue)'s screen never showed \(step.marker):\n\(panes[server]?.screen ?? "")")
            }
            comparison.record(step.screen, screens.mapValues { Self.normalised($0 ?? "", folder: folder) })
        }
        try comparison.check()
    }

    /// Each pane's screen once it shows `marker` and has not changed for 1.5 s (longer
    /// than a message stays), polled every quarter second for up to 20 s; nil for a
    /// pane that never settles so.
    static func settled(_ panes: [ThreeServers.Server: TmuxPane], showing marker: String) -> [ThreeServers.Server: String?] {
        var last: [ThreeServers.Server: (screen: String, since: Date)] = [:]
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            for (server, pane) in panes {
                let screen = pane.screenWithAttributes
                if last[server]?.screen != screen { last[server] = (screen, Date()) }
            }
            let done = panes.keys.allSatisfy { server in
                guard let seen = last[server] else { return false }
                return plain(seen.screen).contains(marker) && Date().timeIntervalSince(seen.since) >= 1.5
            }
            if done { break }
            usleep(250_000)
        }
        return panes.keys.reduce(into: [:]) { result, server in
            let screen = last[server]?.screen
            result[server] = screen.map { plain($0).contains(marker) } == true ? screen : nil
        }
    }

    /// The screen's text alone: attributes and the line-drawing switches taken out.
    static func plain(_ screen: String) -> String {
        screen.replacing(/\x{1B}\[[0-9;]*m/, with: "").replacing(/[\x{0E}\x{0F}]/, with: "")
    }

    /// Each line on its own, with the attributes its text is drawn in written before it
    /// (`{b}` bold, `{r}` reverse, `{u}` underline, `{}` none): tmux writes only changes,
    /// so a line's escapes would depend on the lines above it. Colours are off.
    static func canonical(_ screen: String) -> [String] {
        var attributes: Set<Character> = []
        var lines: [String] = []
        for raw in plainCharset(screen).split(separator: "\n", omittingEmptySubsequences: false) {
            var line = "", written: Set<Character> = [], rest = Substring(raw)
            func write(_ text: Substring) {
                guard !text.isEmpty else { return }
                if attributes != written { line += "{" + String(attributes.sorted()) + "}" }
                written = attributes
                line += text
            }
            while let match = rest.firstMatch(of: /\x{1B}\[([0-9;]*)m/) {
                write(rest[..<match.range.lowerBound])
                for code in match.output.1.split(separator: ";", omittingEmptySubsequences: false).map({ Int($0) ?? 0 }) {
                    switch code {
                    case 0: attributes = []
                    case 1: attributes.insert("b")
                    case 4: attributes.insert("u")
                    case 7: attributes.insert("r")
                    case 22: attributes.remove("b")
                    case 24: attributes.remove("u")
                    case 27: attributes.remove("r")
                    default: break  // colours
                    }
                }
                rest = rest[match.range.upperBound...]
            }
            write(rest)
            lines.append(line)
        }
        return lines
    }

    /// The screen without the switches to and from the line-drawing set.
    static func plainCharset(_ screen: String) -> String { screen.replacing(/[\x{0E}\x{0F}]/, with: "") }

    /// Lines in `canonical` form, with the socket's link starred, and what the song
    /// viewer shows that moves by itself (uptime, time played, the last update) starred.
    /// The stream's bitrate goes with its line: after a seek while paused MPD 0.24 has
    /// none to show, 0.23 and the box the last one decoded. Blank lines go too, so one
    /// line fewer above them does not show as a difference in the last.
    static func normalised(_ screen: String, folder: String) -> [String] {
        canonical(screen).filter { !$0.isEmpty && !$0.hasPrefix("Bitrate:") }.map { line in
            line.replacing(folder + "/s", with: "<socket>")
                .replacing(/<socket>\d/, with: "<socket>*")
                .replacing(/((?:Playtime|Uptime|Most recent db update):[^0-9]*)[0-9].*$/) { "\($0.output.1)*" }
        }
    }
}
