/// A CUE sheet's tracks as chapter marks: MPD's way of splitting one file into tracks.
/// Read from a `.cue` beside the file or from a `CUESHEET` tag. Only what chapters need is
/// read: each `TRACK`'s `TITLE` and its `INDEX 01` (minutes:seconds:frames, 75 a second).
/// A sheet naming several files describes none of them alone, and gives no chapters.
enum CueSheet {
    static let framesPerSecond: Int64 = 75

    /// The marks for the file named `file` (nil: whichever file the sheet names).
    static func marks(_ text: String, for file: String? = nil) -> [ChapterMark] {
        var marks: [ChapterMark] = []
        var files: [String] = []
        var title: String?
        var inTrack = false
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let words = words(rawLine)
            guard let command = words.first?.uppercased() else { continue }
            switch command {
            case "FILE" where words.count >= 2:
                files.append(words[1])
            case "TRACK":
                inTrack = true
                title = nil
            case "TITLE" where inTrack && words.count >= 2:
                title = words[1]
            case "INDEX" where inTrack && words.count >= 3 && Int(words[1]) == 1:
                guard let start = time(words[2]), marks.count < TagLimits.maximumChapters else { continue }
                marks.append(ChapterMark(title: title, count: start, perSecond: framesPerSecond))
            default:
                break
            }
        }
        guard files.count <= 1 else { return [] }
        if let file, let named = files.first, baseName(named) != baseName(file) { return [] }
        return marks
    }

    /// `mm:ss:ff` as a count of 1/75 s.
    static func time(_ text: String) -> Int64? {
        let parts = text.split(separator: ":")
        guard parts.count == 3, let m = Int64(parts[0]), let s = Int64(parts[1]), let f = Int64(parts[2]),
              m >= 0, m < 100_000, (0..<60).contains(s), (0..<75).contains(f) else { return nil }
        return (m * 60 + s) * framesPerSecond + f
    }

    /// A line's words; a quoted word keeps its spaces.
    private static func words(_ line: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        for c in line {
            if c == "\"" { quoted.toggle(); continue }
            if c.isWhitespace, !quoted {
                if !current.isEmpty { words.append(current); current = "" }
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func baseName(_ path: String) -> Substring {
        path.split(separator: "/").last ?? Substring(path)
    }
}
