/// Vorbis comments (`NAME=value`, names case-insensitive) to track metadata.
enum VorbisComments {
    static func metadata(from entries: [String]) -> TrackMetadata {
        var m = TrackMetadata()
        // YEAR counts only where there is no DATE (older rippers write both).
        let hasDate = entries.contains { $0.utf8.count > 5 && $0.prefix(5).uppercased() == "DATE=" }
        for entry in entries {
            guard let eq = entry.firstIndex(of: "=") else { continue }
            let name = entry[..<eq].uppercased()
            let rawValue = String(entry[entry.index(after: eq)...])
            // Each as written, but no longer than a tag's frame: lyrics of a megabyte are not listed.
            if eq != entry.startIndex, m.rawTags.count < TagLimits.maximumTagValues, entry.utf8.count <= TagLimits.maximumTextFrameBytes {
                m.rawTags.append(RawTag(name: String(entry[..<eq]), value: rawValue))
            }
            if name == "LYRICS" || name == "UNSYNCEDLYRICS" {
                guard rawValue.nonEmptyTrimmed != nil else { continue }
                m.lyrics.append(EmbeddedLyrics(origin: name == "LYRICS" ? .vorbisLyrics : .vorbisUnsyncedLyrics, text: rawValue))
                continue
            }
            guard let value = rawValue.nonEmptyTrimmed else { continue }
            if m.replayGain.take(tag: name, value: value) { continue }
            if name == "CUESHEET" {
                if m.chapterMarks.isEmpty, value.utf8.count <= TagLimits.maximumCueSheetBytes { m.chapterMarks = CueSheet.marks(value) }
                continue
            }
            switch name {
            case "TRACKTOTAL", "TOTALTRACKS": m.trackTotal = Int(value) ?? m.trackTotal
            case "DISCTOTAL", "TOTALDISCS": m.discTotal = Int(value) ?? m.discTotal
            case "YEAR" where hasDate: break
            default:
                // Every value is kept: a second ARTIST is a second artist.
                if let tag = MPDTag(commentName: name) { m.add(tag, value) }
            }
        }
        return m
    }
}
