/// An ID3v2 `CHAP` frame (the chapter addendum): an element id, start and end in
/// milliseconds, byte offsets (unused), then frames of its own, of which `TIT2` names it.
/// The table of contents (`CTOC`) is not needed: chapters play in the order of their starts.
enum ID3Chapter {
    static func mark(_ data: [UInt8], version: UInt8) -> ChapterMark? {
        guard version >= 3, let idEnd = data.firstIndex(of: 0), idEnd + 17 <= data.count else { return nil }
        let start = ID3v2Frames.bigEndian(data, idEnd + 1)
        var i = idEnd + 17
        var title: String?
        while i + 10 <= data.count, data[i] != 0 {
            let size = version == 4 ? ID3v2Frames.synchsafe(data, i + 4) : ID3v2Frames.bigEndian(data, i + 4)
            let body = i + 10
            guard size >= 0, body + size <= data.count else { break }
            if data[i..<i + 4].elementsEqual("TIT2".utf8), size > 1 {
                var at = 1  // past the encoding byte
                title = ID3Text.terminated(Array(data[body..<body + size]), &at, encoding: data[body]).nonEmptyTrimmed
            }
            i = body + size
        }
        return ChapterMark(title: title, count: Int64(start), perSecond: 1000)
    }
}
