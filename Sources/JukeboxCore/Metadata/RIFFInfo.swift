/// RIFF `LIST`/`INFO` tags.
enum RIFFInfo {
    static func metadata(_ list: [UInt8]) -> TrackMetadata {
        var m = TrackMetadata()
        guard list.count >= 4, String(decoding: list[0..<4], as: UTF8.self) == "INFO" else { return m }
        var i = 4
        while i + 8 <= list.count {
            let id = String(decoding: list[i..<(i + 4)], as: UTF8.self)
            let size = Int(list.le32(i + 4))
            let start = i + 8
            guard size >= 0, start + size <= list.count else { break }
            let value = String(decoding: list[start..<(start + size)].prefix { $0 != 0 }, as: UTF8.self).nonEmptyTrimmed
            switch id {
            case "INAM": m.title = value
            case "IART": m.artist = value
            case "IPRD": m.album = value
            case "ITRK", "IPRT": m.trackNumber = value.flatMap { TrackMetadata.numberPair($0).0 }
            case "ICRD": m.date = value
            case "IGNR": m.genre = value
            default: break
            }
            i = start + size + (size & 1)
        }
        return m
    }
}

extension Array where Element == UInt8 {
    func le16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func le32(_ i: Int) -> UInt32 {
        UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }
}
