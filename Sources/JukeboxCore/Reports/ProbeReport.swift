/// One file's entry in `jukebox probe --json`. The field names are an interface.
public struct ProbeReport: Encodable, Sendable {
    public var path: String
    public var result: Result<ProbeResult, MediaError>

    public init(path: String) {
        self.path = path
        do { result = .success(try MediaProbe.probe(path)) } catch let error as MediaError {
            result = .failure(error)
        } catch {
            result = .failure(.unreadable(path, "\(error)"))
        }
    }

    public var ok: Bool { if case .success = result { true } else { false } }

    enum Keys: String, CodingKey {
        case path, ok, error, format, sampleRate, channels, bitsPerSample, durationSeconds
        case title, artist, album, trackNumber, hasCover, lyrics, chapters, warnings
    }

    enum ChapterKeys: String, CodingKey { case entry, title, startSeconds, endSeconds }

    enum LyricsKeys: String, CodingKey { case source, synced, lineCount }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(path, forKey: .path)
        try c.encode(ok, forKey: .ok)
        let probe = try? result.get()
        if case .failure(let error) = result { try c.encode(error.reason, forKey: .error) } else { try c.encodeNil(forKey: .error) }
        try c.encodeOrNull(probe?.container.rawValue, forKey: .format)
        try c.encodeOrNull(probe?.info.sampleRate, forKey: .sampleRate)
        try c.encodeOrNull(probe?.info.channels, forKey: .channels)
        try c.encodeOrNull(probe?.info.sampleFormat.bitsPerSample, forKey: .bitsPerSample)
        try c.encodeOrNull(probe.map { ($0.info.durationSeconds * 1000).rounded() / 1000 }, forKey: .durationSeconds)
        try c.encodeOrNull(probe?.metadata.title, forKey: .title)
        try c.encodeOrNull(probe?.metadata.artist, forKey: .artist)
        try c.encodeOrNull(probe?.metadata.album, forKey: .album)
        try c.encodeOrNull(probe?.metadata.trackNumber, forKey: .trackNumber)
        try c.encode(probe?.metadata.cover != nil, forKey: .hasCover)
        if let lyrics = probe?.lyrics {
            var l = c.nestedContainer(keyedBy: LyricsKeys.self, forKey: .lyrics)
            try l.encode(lyrics.source, forKey: .source)
            try l.encode(lyrics.synced, forKey: .synced)
            try l.encode(lyrics.lines.count, forKey: .lineCount)
        } else {
            try c.encodeNil(forKey: .lyrics)
        }
        var chapters = c.nestedUnkeyedContainer(forKey: .chapters)
        if let probe {
            let rate = Double(probe.info.sampleRate)
            for (i, chapter) in probe.chapters.enumerated() {
                var one = chapters.nestedContainer(keyedBy: ChapterKeys.self)
                try one.encode(ChapterEntry(file: path, index: i).entry, forKey: .entry)
                try one.encode(chapter.title, forKey: .title)
                try one.encode((Double(chapter.startFrame) / rate * 1000).rounded() / 1000, forKey: .startSeconds)
                try one.encode((Double(chapter.endFrame) / rate * 1000).rounded() / 1000, forKey: .endSeconds)
            }
        }
        try c.encode(probe?.problems ?? [], forKey: .warnings)
    }
}
