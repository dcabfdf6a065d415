/// Everything known about one audio file without playing it: stream info, tags, cover
/// and lyrics. Opening checks that the first audio decodes and that the end of the
/// stream is reachable, so a truncated or empty-bodied file is reported as such.
public struct ProbeResult: Sendable {
    public var path: String
    public var container: ContainerFormat
    public var info: StreamInfo
    public var metadata: TrackMetadata
    public var lyrics: Lyrics?
    /// Non-fatal problems: a broken sidecar, damaged frames stepped over.
    public var problems: [String]
}

public enum MediaProbe {
    public static func probe(_ path: String) throws -> ProbeResult {
        let decoder = try AudioFile.open(path)
        try verifyDecodable(decoder)
        var problems = decoder.warnings.messages
        let lyrics = LyricsLocator.lyrics(forAudioAt: path, metadata: decoder.metadata, problems: &problems)
        return ProbeResult(path: path, container: decoder.container, info: decoder.info,
                           metadata: decoder.metadata, lyrics: lyrics, problems: problems)
    }

    /// Decodes a little at the start and at the end.
    static func verifyDecodable(_ decoder: any AudioDecoder) throws {
        let info = decoder.info
        let window = 4096
        var buffer = [UInt8](repeating: 0, count: window * info.bytesPerFrame)
        let first = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }
        guard first > 0 else { throw MediaError.corrupt(decoder.path, "no decodable audio frames") }
        let tail = max(0, info.totalFrames - Int64(window))
        do {
            try decoder.seek(toFrame: tail)
        } catch {
            throw MediaError.truncated(decoder.path, "the stream header promises \(format(info.durationSeconds)) but the end cannot be reached")
        }
        var got = 0
        while true {
            let n = try buffer.withUnsafeMutableBytes { try decoder.read(into: $0) }
            if n == 0 { break }
            got += n
        }
        let expected = Int(info.totalFrames - tail)
        if got < expected {
            throw MediaError.truncated(decoder.path, "audio stops \(expected - got) frames before the \(format(info.durationSeconds)) the header promises")
        }
        try decoder.seek(toFrame: 0)
    }

    static func format(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 600):\(String((tenths / 10) % 60).leftPadded(to: 2)).\(tenths % 10)"
    }
}
