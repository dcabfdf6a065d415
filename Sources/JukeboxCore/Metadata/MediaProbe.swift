/// Everything known about one audio file without playing it: stream info, tags, cover
/// and lyrics. Probing follows playback's rule: a file whose first audio decodes is
/// playable, and damage after that (a cut-off end, broken frames) is reported, not fatal.
public struct ProbeResult: Sendable {
    public var path: String
    public var container: ContainerFormat
    public var info: StreamInfo
    public var metadata: TrackMetadata
    public var lyrics: Lyrics?
    /// The file's chapters, each a track of its own (`path/chapter001`); none for most files.
    public var chapters: [Chapter]
    /// Non-fatal problems: a broken sidecar, damaged frames stepped over, a missing end.
    public var problems: [String]
}

public enum MediaProbe {
    public static func probe(_ path: String) throws -> ProbeResult {
        let decoder = try AudioFile.open(path)
        let damage = try checkPlayable(decoder)
        var problems = decoder.warnings.messages + damage
        let lyrics = LyricsLocator.lyrics(forAudioAt: path, metadata: decoder.metadata, problems: &problems)
        let chapters = AudioFile.chapters(of: path, metadata: decoder.metadata, info: decoder.info)
        return ProbeResult(path: path, container: decoder.container, info: decoder.info,
                           metadata: decoder.metadata, lyrics: lyrics, chapters: chapters, problems: problems)
    }

    /// Throws only when the player could not play the file at all: no audio decodes at
    /// its start. Returns what is wrong further on: an end that cannot be reached, or
    /// audio that stops before the length the header promises.
    static func checkPlayable(_ decoder: any AudioDecoder) throws -> [String] {
        let info = decoder.info
        let window = 4096
        var buffer = [UInt8](repeating: 0, count: window * info.bytesPerFrame)
        let first = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }
        guard first > 0 else { throw MediaError.corrupt(decoder.path, "no decodable audio frames") }
        let promised = format(info.durationSeconds)
        let tail = max(0, info.totalFrames - Int64(window))
        do {
            try decoder.seek(toFrame: tail)
        } catch {
            return ["truncated: the stream header promises \(promised) but the end cannot be reached; "
                    + "plays until the audio stops"]
        }
        var got = 0
        do {
            while true {
                let n = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }
                if n == 0 { break }
                got += n
            }
        } catch let error as MediaError {
            return ["damaged near the end (\(error.reason)); plays until the audio stops"]
        }
        let expected = Int(info.totalFrames - tail)
        if got < expected {
            return ["truncated: the audio ends before the \(promised) the header promises"]
        }
        return []
    }

    static func format(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 600):\(String((tenths / 10) % 60).leftPadded(to: 2)).\(tenths % 10)"
    }
}
