/// Builds ID3v2 tags byte by byte, so tests can cover versions and text encodings that
/// no encoder on the machine writes (v2.2, v2.4 UTF-8, SYLT).
struct ID3Builder {
    enum TextEncoding: UInt8 { case latin1 = 0, utf16 = 1, utf16BE = 2, utf8 = 3 }

    var version: UInt8
    var frames: [(id: String, body: [UInt8])] = []

    init(version: UInt8) { self.version = version }

    static func encode(_ text: String, _ encoding: TextEncoding, terminated: Bool = false) -> [UInt8] {
        var out: [UInt8]
        switch encoding {
        case .latin1: out = text.unicodeScalars.map { UInt8($0.value) }
        case .utf8: out = Array(text.utf8)
        case .utf16: out = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case .utf16BE: out = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        if terminated { out += (encoding == .utf16 || encoding == .utf16BE) ? [0, 0] : [0] }
        return out
    }

    mutating func text(_ id: String, _ value: String, _ encoding: TextEncoding) {
        frames.append((id, [encoding.rawValue] + Self.encode(value, encoding)))
    }

    mutating func unsyncedLyrics(_ value: String, _ encoding: TextEncoding) {
        frames.append((version == 2 ? "ULT" : "USLT",
                       [encoding.rawValue] + Array("eng".utf8) + Self.encode("", encoding, terminated: true) + Self.encode(value, encoding)))
    }

    mutating func syncedLyrics(_ entries: [(String, UInt32)], _ encoding: TextEncoding) {
        var body: [UInt8] = [encoding.rawValue] + Array("eng".utf8) + [2, 1] + Self.encode("", encoding, terminated: true)
        for (text, ms) in entries {
            body += Self.encode(text, encoding, terminated: true)
            body += [UInt8(ms >> 24), UInt8((ms >> 16) & 0xFF), UInt8((ms >> 8) & 0xFF), UInt8(ms & 0xFF)]
        }
        frames.append((version == 2 ? "SLT" : "SYLT", body))
    }

    mutating func picture(mime: String, bytes: [UInt8]) {
        if version == 2 {
            frames.append(("PIC", [0] + Array("PNG".utf8) + [3, 0] + bytes))
        } else {
            frames.append(("APIC", [0] + Array(mime.utf8) + [0, 3, 0] + bytes))
        }
    }

    /// A CHAP frame (v2.3/v2.4): its id, start and end in ms, and a TIT2 of its own.
    mutating func chapter(_ id: String, start: UInt32, end: UInt32, title: String) {
        func be(_ n: UInt32) -> [UInt8] { [UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] }
        let tit2 = [ID3Builder.TextEncoding.utf8.rawValue] + Self.encode(title, .utf8)
        let sizeBytes = version == 4 ? Self.synchsafe(tit2.count) : be(UInt32(tit2.count))
        let sub = Array("TIT2".utf8) + sizeBytes + [0, 0] + tit2
        frames.append(("CHAP", Array(id.utf8) + [0] + be(start) + be(end) + be(.max) + be(.max) + sub))
    }

    func build() -> [UInt8] {
        var body: [UInt8] = []
        for frame in frames {
            let size = frame.body.count
            body += Array(frame.id.utf8)
            switch version {
            case 2: body += [UInt8(size >> 16), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
            case 3: body += [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF), 0, 0]
            default: body += Self.synchsafe(size) + [0, 0]
            }
            body += frame.body
        }
        return Array("ID3".utf8) + [version, 0, 0] + Self.synchsafe(body.count) + body
    }

    static func synchsafe(_ n: Int) -> [UInt8] {
        [UInt8((n >> 21) & 0x7F), UInt8((n >> 14) & 0x7F), UInt8((n >> 7) & 0x7F), UInt8(n & 0x7F)]
    }

    /// A 128-byte ID3v1.1 tag.
    static func v1(title: String, artist: String, track: UInt8, genre: UInt8) -> [UInt8] {
        func field(_ s: String, _ n: Int) -> [UInt8] {
            let b = Array(s.unicodeScalars.map { UInt8($0.value) }.prefix(n))
            return b + [UInt8](repeating: 0, count: n - b.count)
        }
        return Array("TAG".utf8) + field(title, 30) + field(artist, 30) + field("", 30) + field("1999", 4)
            + field("", 28) + [0, track, genre]
    }
}
