import Foundation
import Testing

/// The client libraries programs are written with, against MPD 0.24.2, MPD 0.23.12 and
/// the box on one library: python-mpd2 (Debian's python3-mpd) makes about seventy
/// calls, and a walk of our own over libmpdclient's API (Debian's libmpdclient-dev)
/// prints what it receives. Each call's or section's output is compared once what may
/// differ is starred: ids, clocks, the announced version.
@Suite(.serialized) struct LibraryClientsAgainstMPDTests {
    static let clients = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Clients").standardized.path

    /// Keys whose values are the server's own: queue ids and versions, clocks, when it
    /// saw a file, and the bitrate, which MPD gives as its decoder last reported it.
    static let volatileKeys: Set<String> = [
        "id", "songid", "nextsongid", "playlist", "uptime", "playtime", "db_update", "last-modified", "added", "bitrate",
    ]
    /// The walk's own names for them, and the version the server announces.
    static let volatileWalkKeys: Set<String> = ["id", "version", "queue_version", "uptime", "db_update_time", "play_time"]

    /// One JSON line of python-mpd2.py, volatile values starred, and from the box's
    /// status the keys it adds (clients skip keys they do not know); the call's name apart.
    static func normalisedCall(_ line: String, box: Bool) -> (call: String, shown: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let call = object["call"] as? String else { return ("<unreadable>", line) }
        func starred(_ value: Any, key: String?) -> Any {
            if let key, volatileKeys.contains(key), !(value is [Any]), !(value is [String: Any]) { return "*" }
            if let map = value as? [String: Any] {
                return map.reduce(into: [String: Any]()) { result, entry in
                    if box, MPDDifferentialTests.boxOwnKeys.contains(Substring(entry.key)) { return }
                    result[entry.key] = starred(entry.value, key: entry.key)
                }
            }
            if let list = value as? [Any] { return list.map { starred($0, key: key) } }
            return value
        }
        // The whole reply of `mpd_version` is the version.
        let result = call == "mpd_version" ? "*" : starred(object["result"] ?? NSNull(), key: nil)
        let shown = ["result": result, "error": object["error"] ?? NSNull()]
        let data = (try? JSONSerialization.data(withJSONObject: shown, options: [.sortedKeys, .prettyPrinted])) ?? Data()
        return (call, String(decoding: data, as: UTF8.self))
    }

    @Test func pythonMPD2CallsAnswerAsMPDs() throws {
        let servers = try ThreeServers(name: "python-mpd2")
        var comparison = ClientComparison(client: "python-mpd2", allowlist: "python-mpd2-differences.txt")
        var calls: [ThreeServers.Server: [(call: String, shown: String)]] = [:]
        for server in ThreeServers.Server.allCases {
            servers.reset(server)
            let run = try Tools.run("/usr/bin/python3", [Self.clients + "/python-mpd2.py", servers.socket(server)], check: false)
            #expect(run.status == 0, "python-mpd2.py against \(server.rawValue): \(run.stderr)")
            calls[server] = run.text.split(separator: "\n").map { Self.normalisedCall(String($0), box: server == .box) }
        }
        for (index, call) in (calls[.mpd24] ?? []).enumerated() {
            comparison.record(call.call, calls.mapValues { index < $0.count ? $0[index].shown.split(separator: "\n").map(String.init) : [] })
        }
        try comparison.check()
    }

    /// `key: value` lines with volatile values starred, section by section.
    static func sections(_ text: String) -> [(name: String, lines: [String])] {
        var sections: [(name: String, lines: [String])] = []
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("# ") {
                sections.append((String(line.dropFirst(2)), []))
                continue
            }
            guard !sections.isEmpty else { continue }
            let trimmed = line.drop { $0 == " " }
            let key = String(trimmed.prefix { $0 != ":" })
            let shown = volatileWalkKeys.contains(key) ? line.prefix { $0 != ":" } + ": *" : line
            sections[sections.count - 1].lines.append(shown)
        }
        return sections
    }

    @Test func libmpdclientWalkReceivesWhatMPDsSend() throws {
        let binary = Fixtures.shared.path("libmpdclient-walk")
        let flags = try Tools.run("pkg-config", ["--cflags", "--libs", "libmpdclient"]).text.split(whereSeparator: \.isWhitespace).map(String.init)
        try Tools.run("cc", ["-Wall", "-Werror", "-o", binary, Self.clients + "/libmpdclient-walk.c"] + flags)
        let servers = try ThreeServers(name: "libmpdclient")
        var comparison = ClientComparison(client: "libmpdclient", allowlist: "libmpdclient-differences.txt")
        var walks: [ThreeServers.Server: [(name: String, lines: [String])]] = [:]
        for server in ThreeServers.Server.allCases {
            servers.reset(server)
            let run = try Tools.run(binary, [servers.socket(server)], check: false)
            #expect(run.status == 0, "libmpdclient-walk against \(server.rawValue): \(run.stderr)")
            walks[server] = Self.sections(run.text)
        }
        for (index, section) in (walks[.mpd24] ?? []).enumerated() {
            comparison.record(section.name, walks.mapValues { index < $0.count ? $0[index].lines : [] })
        }
        try comparison.check()
    }
}
