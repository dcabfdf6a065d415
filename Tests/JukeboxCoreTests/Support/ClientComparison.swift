import Foundation
import Testing

/// What one real client showed for each server, scenario by scenario, held against MPD:
/// the box must show what MPD 0.24.2 shows. Where MPD 0.23.12 shows otherwise than 0.24.2
/// the box goes with 0.24.2, the release it follows; where the two agree, the box's
/// difference from one is its difference from the other. A scenario in which the box
/// differs must be listed, with the reason, in the client's allowlist under `Golden/`;
/// one listed that no longer differs must leave it, so the list only shrinks.
/// A line `key NAME: why` leaves the key's lines (`NAME: …`, or `"NAME" : …` in JSON)
/// out of every scenario: for a field MPD 0.24 sends and the box does not yet, which
/// would otherwise hide every other difference in the scenarios it comes in. It must
/// leave the list once the box sends the key.
struct ClientComparison {
    let client: String
    let allowlist: String
    private(set) var shown: [(scenario: String, output: [ThreeServers.Server: [String]])] = []

    init(client: String, allowlist: String) {
        self.client = client
        self.allowlist = allowlist
    }

    mutating func record(_ scenario: String, _ output: [ThreeServers.Server: [String]]) {
        shown.append((scenario, output))
    }

    /// Records an issue for each scenario that differs unlisted, or is listed and the same.
    func check() throws {
        let allowed = try MPDDifferentialTests.allowed(allowlist)
        let keys = allowed.keys.filter { $0.hasPrefix("key ") }.map { String($0.dropFirst(4)) }
        func isKey(_ line: String, _ key: String) -> Bool {
            let trimmed = line.drop { $0 == " " }
            return trimmed.hasPrefix(key + ": ") || trimmed.hasPrefix("\"\(key)\" : ")
        }
        // JSON's commas go with the keys left out.
        func kept(_ lines: [String]) -> [String] {
            lines.filter { line in !keys.contains { isKey(line, $0) } }.map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }
        }
        for key in keys where shown.contains(where: { $0.output[.box]?.contains { isKey($0, key) } ?? false }) {
            Issue.record("\(client): the box sends \(key) now; take `key \(key)` out of Golden/\(allowlist)")
        }
        for (scenario, output) in shown {
            let (mpd, box, old) = (kept(output[.mpd24] ?? []), kept(output[.box] ?? []), kept(output[.mpd23] ?? []))
            if mpd != box, allowed[scenario] == nil {
                var report = "\(client), \(scenario): the box shows otherwise than MPD 0.24.2\n" + Self.difference(mpd, box)
                if old == box {
                    report += "\n  (as MPD 0.23.12 shows it)"
                } else if old != mpd {
                    report += "\n  and than MPD 0.23.12:\n" + Self.difference(old, box)
                }
                Issue.record(Comment(rawValue: report))
            }
            if mpd == box, allowed[scenario] != nil {
                Issue.record("\(client), \(scenario): now the same as MPD's; take it out of Golden/\(allowlist)")
            }
        }
        for name in allowed.keys where !name.hasPrefix("key ") && !shown.contains(where: { $0.scenario == name }) {
            Issue.record("Golden/\(allowlist) names \(name), which is no scenario")
        }
    }

    /// The lines that differ: `-` MPD's alone, `+` the box's alone, by line number.
    static func difference(_ mpd: [String], _ box: [String]) -> String {
        let changes = box.difference(from: mpd).map { change in
            switch change {
            case .remove(let offset, let line, _): return (offset, "  -\(offset + 1) \(line)")
            case .insert(let offset, let line, _): return (offset, "  +\(offset + 1) \(line)")
            }
        }
        return changes.sorted { $0.0 < $1.0 }.prefix(40).map(\.1).joined(separator: "\n")
    }
}
