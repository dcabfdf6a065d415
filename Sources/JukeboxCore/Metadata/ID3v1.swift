/// The 128-byte ID3v1/v1.1 tag at the end of a file. Its text is Latin-1.
enum ID3v1 {
    static func metadata(_ tag: [UInt8]) -> TrackMetadata? {
        guard tag.count == 128, tag[0] == 0x54, tag[1] == 0x41, tag[2] == 0x47 else { return nil }
        var m = TrackMetadata()
        m.title = latin1(tag[3..<33])
        m.artist = latin1(tag[33..<63])
        m.album = latin1(tag[63..<93])
        m.date = latin1(tag[93..<97])
        // ID3v1.1: a zero byte before the last comment byte makes that byte the track.
        if tag[125] == 0, tag[126] != 0 { m.trackNumber = Int(tag[126]) }
        if Int(tag[127]) < ID3Genres.names.count { m.genre = ID3Genres.names[Int(tag[127])] }
        return m
    }

    static func latin1(_ bytes: ArraySlice<UInt8>) -> String? {
        let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
        var s = ""
        for b in bytes[bytes.startIndex..<end] { s.unicodeScalars.append(Unicode.Scalar(b)) }
        return s.nonEmptyTrimmed
    }
}
