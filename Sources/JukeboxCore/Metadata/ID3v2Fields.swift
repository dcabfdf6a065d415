import CMpg123

/// libmpg123's parsed ID3v2 (v2.2 frames are already renamed to their v2.3 names, and all
/// text is converted to UTF-8) to track metadata.
enum ID3v2Fields {
    static func metadata(_ tag: mpg123_id3v2) -> TrackMetadata {
        var m = TrackMetadata()
        for t in texts(tag.text, tag.texts) {
            guard let value = t.text.nonEmptyTrimmed else { continue }
            switch t.id {
            case "TIT2": m.title = value
            case "TPE1": m.artist = value
            case "TALB": m.album = value
            case "TPE2": m.albumArtist = value
            case "TRCK": (m.trackNumber, m.trackTotal) = TrackMetadata.numberPair(value)
            case "TPOS": (m.discNumber, m.discTotal) = TrackMetadata.numberPair(value)
            case "TDRC", "TYER": m.date = m.date ?? value
            case "TCON": m.genre = ID3Genres.resolve(value)
            case "USLT": m.lyrics.append(EmbeddedLyrics(origin: .id3USLT, text: t.text))
            default: break
            }
        }
        // USLT frames are kept with the comments in some libmpg123 versions.
        for t in texts(tag.comment_list, tag.comments) where t.id == "USLT" && t.text.nonEmptyTrimmed != nil {
            m.lyrics.append(EmbeddedLyrics(origin: .id3USLT, text: t.text))
        }
        for i in 0..<tag.pictures {
            let p = tag.picture[i]
            let bytes = p.data.map { Array(UnsafeBufferPointer(start: $0, count: p.size)) } ?? []
            m.pictures.append(EmbeddedPicture(type: Int(p.type), mimeType: string(p.mime_type),
                                              description: string(p.description), data: bytes))
        }
        return m
    }

    private static func texts(_ list: UnsafeMutablePointer<mpg123_text>?, _ count: Int) -> [(id: String, text: String)] {
        guard let list else { return [] }
        return (0..<count).map { i in
            let id = withUnsafeBytes(of: list[i].id) { String(decoding: $0, as: UTF8.self) }
            return (id, string(list[i].text))
        }
    }

    private static func string(_ s: mpg123_string) -> String {
        guard let p = s.p, s.fill > 0 else { return "" }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: s.fill)
        // `fill` counts the terminating zero; some strings carry more than one.
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
