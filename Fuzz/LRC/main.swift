// libFuzzer target: LRC lyrics from any bytes, through the same steps `jukebox lyrics`
// takes (text decoding, parsing, the line on show, formatting times).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLRC(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let raw = LRCParser.parse(text: String(decoding: bytes, as: UTF8.self), source: .file)
    exercise(raw)
    if let decoded = try? TextDecoding.decode(bytes) {
        exercise(LRCParser.parse(text: decoded.text, source: .file))
    }
    return 0
}

private func exercise(_ lyrics: Lyrics) {
    for line in lyrics.lines {
        if let time = line.timeMs {
            _ = LRCTime.format(time)
            _ = lyrics.currentLineIndex(atMs: time)
        }
        for word in line.words { _ = LRCTime.format(word.timeMs) }
    }
    _ = LyricsReport(lyrics: lyrics, atSeconds: 1.5)
}
