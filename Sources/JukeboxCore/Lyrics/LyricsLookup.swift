/// Lyrics for whatever file the user names: an audio file (sidecar, then embedded, as
/// `LyricsLocator` orders them) or an LRC file itself.
public enum LyricsLookup {
    public static func lyrics(for path: String, problems: inout [String]) throws -> Lyrics {
        let reader: FileReader
        do { reader = try FileReader(path: path) } catch let error as MediaError {
            throw LyricsError(path: path, reason: error.reason)
        }
        let isAudio: Bool
        do {
            _ = try FormatSniffer.sniff(reader)
            isAudio = true
        } catch MediaError.unrecognised, MediaError.empty {
            isAudio = false
        }
        guard isAudio else { return try LRCParser.parse(file: path, source: .file) }
        let decoder = try AudioFile.open(path)
        guard let found = LyricsLocator.lyrics(forAudioAt: path, metadata: decoder.metadata, problems: &problems) else {
            throw LyricsError(path: path, reason: "no lyrics: no sidecar .lrc beside it and none embedded")
        }
        return found
    }
}
