/// Vorbis comments (`NAME=value`, names case-insensitive) to track metadata.
enum VorbisComments {
    static func metadata(from entries: [String]) -> TrackMetadata {
        var m = TrackMetadata()
        for entry in entries {
            guard let eq = entry.firstIndex(of: "=") else { continue }
            let name = entry[..<eq].uppercased()
            let rawValue = String(entry[entry.index(after: eq)...])
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
            case "TITLE": m.title = m.title ?? value
            case "ARTIST": m.artist = m.artist ?? value
            case "ALBUM": m.album = m.album ?? value
            case "ALBUMARTIST", "ALBUM ARTIST", "ALBUM_ARTIST": m.albumArtist = m.albumArtist ?? value
            case "TRACKNUMBER":
                let (n, total) = TrackMetadata.numberPair(value)
                m.trackNumber = m.trackNumber ?? n
                m.trackTotal = m.trackTotal ?? total
            case "TRACKTOTAL", "TOTALTRACKS": m.trackTotal = Int(value) ?? m.trackTotal
            case "DISCNUMBER":
                let (n, total) = TrackMetadata.numberPair(value)
                m.discNumber = m.discNumber ?? n
                m.discTotal = m.discTotal ?? total
            case "DISCTOTAL", "TOTALDISCS": m.discTotal = Int(value) ?? m.discTotal
            case "DATE", "YEAR": m.date = m.date ?? value
            case "COMPOSER": m.composer = m.composer ?? value
            case "PERFORMER": m.performer = m.performer ?? value
            case "GENRE": m.genre = m.genre ?? value
            default: break
            }
        }
        return m
    }
}
