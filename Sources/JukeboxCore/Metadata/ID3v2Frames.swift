/// Byte-level helpers shared by the ID3v2 readers: sizes and unsynchronisation.
enum ID3v2Frames {
    static func removeUnsynchronisation(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for b in bytes {
            if previous == 0xFF && b == 0 { previous = 0; continue }
            out.append(b)
            previous = b
        }
        return out
    }

    static func bigEndian(_ b: [UInt8], _ i: Int) -> Int {
        guard i + 4 <= b.count else { return -1 }
        return Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }

    static func synchsafe(_ b: [UInt8], _ i: Int) -> Int {
        guard i + 4 <= b.count else { return -1 }
        return Int(b[i] & 0x7F) << 21 | Int(b[i + 1] & 0x7F) << 14 | Int(b[i + 2] & 0x7F) << 7 | Int(b[i + 3] & 0x7F)
    }
}

/// ID3 SYLT (synchronised lyrics): text/timestamp pairs, rendered as LRC so the one LRC
/// parser reads every kind of lyrics.
enum SYLT {
    static func lrcText(from frame: [UInt8], mpegFrameSeconds: Double) -> EmbeddedLyrics? {
        guard frame.count >= 6 else { return nil }
        let encoding = frame[0]
        let timestampFormat = frame[4]  // 1: MPEG frames, 2: milliseconds
        guard timestampFormat == 1 || timestampFormat == 2 else { return nil }
        var i = 6
        _ = ID3Text.terminated(frame, &i, encoding: encoding)  // content descriptor
        var lines: [String] = []
        while i < frame.count {
            let text = ID3Text.terminated(frame, &i, encoding: encoding)
            guard i + 4 <= frame.count else { break }
            let stamp = Int(frame[i]) << 24 | Int(frame[i + 1]) << 16 | Int(frame[i + 2]) << 8 | Int(frame[i + 3])
            i += 4
            // A stamp is at most 2^32, so frames times a frame's length stays far from Int's limits.
            let frameMs = (Double(stamp) * mpegFrameSeconds * 1000).rounded()
            let ms = timestampFormat == 2 ? stamp : frameMs.isFinite && frameMs >= 0 && frameMs < 1e15 ? Int(frameMs) : 0
            let clean = text.replacingNewlines
            lines.append("[\(LRCTime.format(ms))]\(clean)")
        }
        return lines.isEmpty ? nil : EmbeddedLyrics(origin: .id3SYLT, text: lines.joined(separator: "\n"))
    }
}

/// ID3v2 text in its four encodings: 0 Latin-1, 1 UTF-16 with BOM, 2 UTF-16BE, 3 UTF-8.
enum ID3Text {
    /// Reads a string ending in the encoding's terminator (or the end of `bytes`).
    static func terminated(_ bytes: [UInt8], _ i: inout Int, encoding: UInt8) -> String {
        let wide = encoding == 1 || encoding == 2
        var end = i
        if wide {
            while end + 1 < bytes.count, !(bytes[end] == 0 && bytes[end + 1] == 0) { end += 2 }
        } else {
            while end < bytes.count, bytes[end] != 0 { end += 1 }
        }
        let slice = Array(bytes[min(i, bytes.count)..<min(end, bytes.count)])
        i = min(bytes.count, end + (wide ? 2 : 1))
        switch encoding {
        case 0: return String(slice.map { Character(Unicode.Scalar($0)) })
        case 3: return String(decoding: slice, as: UTF8.self)
        default: return TextDecoding.utf16(slice, defaultBigEndian: encoding == 2)
        }
    }
}

extension String {
    /// Lyrics lines keep one line each: SYLT entries often start with a newline.
    var replacingNewlines: String {
        String(unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) }).trimmingSpaces
    }
}

/// An ID3v2.2 PIC frame: encoding, a three-letter image format, type, description, data.
enum LegacyPicture {
    static func parse(_ frame: [UInt8]) -> EmbeddedPicture? {
        guard frame.count >= 6 else { return nil }
        let format = String(decoding: frame[1..<4], as: UTF8.self).uppercased()
        var i = 5
        let description = ID3Text.terminated(frame, &i, encoding: frame[0])
        let mime = format == "PNG" ? "image/png" : format == "JPG" ? "image/jpeg" : "image/\(format.lowercased())"
        return EmbeddedPicture(type: Int(frame[4]), mimeType: mime, description: description, data: Array(frame[i...]))
    }
}
