// libFuzzer target: every reader of tag bytes written in Swift. The same input is read
// as an ID3v2 tag (with ID3v1 at its end), a FLAC Vorbis comment list, a RIFF INFO list,
// a SYLT frame, and by the format sniffer's header checks.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetadata(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let tags = InMemoryTagBytes(bytes: bytes)
    if let m = try? MP3Tags.metadata(in: tags, mpegFrameSeconds: 1152.0 / 44_100) {
        for lyrics in m.lyrics { _ = LRCParser.parse(text: lyrics.text, source: .embeddedSynced) }
    }
    // An ID3v2 header in front of the same bytes reaches the frame walker directly.
    for version: UInt8 in [2, 3, 4] {
        for flags: UInt8 in [0, 0x80, 0x40] {
            let header = Array("ID3".utf8) + [version, 0, flags] + synchsafe(bytes.count)
            _ = try? ID3v2Reader.metadata(in: InMemoryTagBytes(bytes: header + bytes), mpegFrameSeconds: 0.026)
        }
    }
    if bytes.count >= 128 { _ = ID3v1.metadata(Array(bytes.suffix(128))) }
    let entries = bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    _ = VorbisComments.metadata(from: entries)
    _ = RIFFInfo.metadata(bytes)
    _ = RIFFInfo.metadata(Array("INFO".utf8) + bytes)
    for format: UInt8 in [1, 2] {
        let frame = bytes.count >= 6 ? Array(bytes[0..<4]) + [format] + Array(bytes[5...]) : bytes
        if let lyrics = SYLT.lrcText(from: frame, mpegFrameSeconds: 0.026) {
            _ = LRCParser.parse(text: lyrics.text, source: .embeddedSynced)
        }
    }
    _ = LegacyPicture.parse(bytes)
    _ = ID3Genres.resolve(String(decoding: bytes, as: UTF8.self))
    _ = TrackMetadata.numberPair(String(decoding: bytes, as: UTF8.self))
    _ = FormatSniffer.findMPEGFrames(bytes)
    _ = FormatSniffer.findMPEGFrames(bytes, afterID3v2: true)
    _ = ID3v2Header(bytes)
    return 0
}

private func synchsafe(_ n: Int) -> [UInt8] {
    [UInt8((n >> 21) & 0x7F), UInt8((n >> 14) & 0x7F), UInt8((n >> 7) & 0x7F), UInt8(n & 0x7F)]
}
