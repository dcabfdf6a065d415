import ArgumentParser
import JukeboxCore

struct LyricsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lyrics",
        abstract: "Show the lyrics of an audio file or an LRC file.",
        discussion: "For an audio file, a sidecar .lrc wins over embedded synced lyrics, which win over embedded unsynced text.")

    @Argument(help: "An .lrc file or an audio file.")
    var file: String

    @Option(help: "Mark the line on show this many seconds into the track.")
    var at: Double?

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if let at, !LyricsReport.acceptedSeconds.contains(at) {
            throw ValidationError("--at must be a number of seconds from 0 to \(Int(LyricsReport.acceptedSeconds.upperBound)), not \(at)")
        }
    }

    func run() throws {
        var problems: [String] = []
        let lyrics: Lyrics
        do {
            lyrics = try LyricsLookup.lyrics(for: file, problems: &problems)
        } catch {
            StandardError.print("jukebox: \(error)")
            throw ExitCode(1)
        }
        for problem in problems { StandardError.print("jukebox: warning: \(problem)") }
        let report = LyricsReport(lyrics: lyrics, atSeconds: at)
        if json {
            print(try JSONOutput.encode(report))
            return
        }
        print("source: \(lyrics.source.rawValue), \(lyrics.synced ? "synced" : "unsynced"), offset \(lyrics.offsetMs) ms")
        for key in lyrics.metadata.keys.sorted() { print("\(key): \(lyrics.metadata[key]!)") }
        for (i, line) in lyrics.lines.enumerated() {
            let marker = i == report.current ? ">" : " "
            let time = line.timeMs.map { "[\(LRCTime.format($0))] " } ?? ""
            print("\(marker) \(time)\(line.text)")
        }
    }
}
