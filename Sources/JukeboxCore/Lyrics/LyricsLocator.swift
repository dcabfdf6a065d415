#if canImport(Glibc)
import Glibc
#endif

/// Finds the lyrics for an audio file. Priority: a sidecar `.lrc` with the same base name,
/// then embedded synced lyrics (SYLT, or embedded text with LRC time tags), then embedded
/// unsynced text. A broken sidecar is reported and the embedded lyrics are used instead.
/// Past `deadline` the search gives up, reports it, and returns what it has (nothing).
public enum LyricsLocator {
    public static func lyrics(forAudioAt path: String, metadata: TrackMetadata,
                              problems: inout [String], deadline: LyricsDeadline? = nil) -> Lyrics? {
        if let sidecar = sidecarPath(for: path) {
            do {
                return try LRCParser.parse(file: sidecar, source: .sidecar, deadline: deadline)
            } catch let gaveUp as LyricsGaveUp {
                problems.append("\(sidecar): \(gaveUp.reason)")
                return nil
            } catch {
                problems.append("\(error)")
            }
        }
        var embedded: [Lyrics] = []
        for tag in metadata.lyrics.sorted(by: { ($0.origin == .id3SYLT ? 0 : 1) < ($1.origin == .id3SYLT ? 0 : 1) }) {
            guard let deadline else {
                embedded.append(LRCParser.parse(text: tag.text, source: .embeddedSynced))
                continue
            }
            do {
                embedded.append(try LRCParser.parse(text: tag.text, source: .embeddedSynced, deadline: deadline))
            } catch {
                problems.append("\(path): embedded \(tag.origin.rawValue) lyrics: \(error.reason)")
                return nil
            }
        }
        if var synced = embedded.first(where: { $0.synced }) {
            synced.source = .embeddedSynced
            return synced
        }
        if var unsynced = embedded.first(where: { !$0.lines.isEmpty }) {
            unsynced.source = .embeddedUnsynced
            return unsynced
        }
        return nil
    }

    /// `song.flac` → `song.lrc` (or `.LRC`, `.Lrc`) in the same folder, if it exists.
    public static func sidecarPath(for audioPath: String) -> String? {
        let slash = audioPath.lastIndex(of: "/")
        let nameStart = slash.map { audioPath.index(after: $0) } ?? audioPath.startIndex
        let base: Substring
        if let dot = audioPath[nameStart...].lastIndex(of: "."), dot > nameStart {
            base = audioPath[..<dot]
        } else {
            base = Substring(audioPath)
        }
        for ext in [".lrc", ".LRC", ".Lrc"] {
            let candidate = String(base + ext)
            var st = stat()
            if FilePath.withCString(candidate, { stat($0, &st) }) == 0, (st.st_mode & S_IFMT) == S_IFREG { return candidate }
        }
        return nil
    }
}
