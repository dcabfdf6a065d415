import ArgumentParser
import JukeboxCore

struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Show format, tags, cover, lyrics and chapters of audio files.",
        discussion: "Exits 0 when every file is readable, 1 otherwise. Every file is reported either way.")

    @Argument(help: "Audio files (recognised by content, not name), or a chapter of one (book.m4b/chapter002).")
    var files: [String]

    @Flag(help: "Print a JSON array, one object per file.")
    var json = false

    func run() throws {
        let reports = files.map(ProbeReport.init(path:))
        if json {
            print(try JSONOutput.encode(reports))
        } else {
            for (i, report) in reports.enumerated() {
                if i > 0 { print("") }
                print(ProbeSummary.text(report))
            }
        }
        if reports.contains(where: { !$0.ok }) { throw ExitCode(1) }
    }
}

/// The readable form of a probe: one block per file.
enum ProbeSummary {
    static func text(_ report: ProbeReport) -> String {
        switch report.result {
        case .failure(let error):
            return "\(report.path)\n  error    \(error.reason)"
        case .success(let p):
            let m = p.metadata
            var rows = [report.path]
            func row(_ label: String, _ value: String?) {
                if let value { rows.append("  " + label.padding(8) + " " + value) }
            }
            row("format", "\(p.container.rawValue.uppercased()), \(p.info.sampleRate) Hz, \(p.info.channels) ch, "
                + "\(p.info.sampleFormat.bitsPerSample)-bit, \(duration(p.info.durationSeconds)) (\(p.info.totalFrames) frames)")
            row("title", m.title)
            row("artist", m.artist)
            row("album", m.album)
            row("album artist", m.albumArtist)
            row("track", m.trackNumber.map { n in m.trackTotal.map { "\(n)/\($0)" } ?? "\(n)" })
            row("disc", m.discNumber.map { n in m.discTotal.map { "\(n)/\($0)" } ?? "\(n)" })
            row("date", m.date)
            row("genre", m.genre)
            row("cover", m.cover.map { "\($0.mimeType), \($0.size) bytes" } ?? "none")
            row("lyrics", p.lyrics.map { "\($0.source.rawValue), \($0.synced ? "synced" : "unsynced"), \($0.lines.count) lines" } ?? "none")
            let rate = Double(p.info.sampleRate)
            for (i, chapter) in p.chapters.enumerated() {
                row(i == 0 ? "chapters" : "", "\(String(i + 1).leftPadded(3))  \(duration(Double(chapter.startFrame) / rate))  \(chapter.title)")
            }
            for problem in p.problems { row("warning", problem) }
            return rows.joined(separator: "\n")
        }
    }

    static func duration(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        return "\(ms / 60_000):\(String((ms / 1000) % 60).leftPadded(2)).\(String(ms % 1000).leftPadded(3))"
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
