/// Decides a file's format from its first bytes. The extension is never consulted:
/// an MP3 named `.flac` is an MP3.
enum FormatSniffer {
    /// How far past a leading ID3v2 tag we look for the first MPEG frame.
    static let mpegSearchWindow = 64 * 1024

    static func sniff(_ file: any MediaSource) throws -> ContainerFormat {
        guard file.size > 0 else { throw MediaError.empty(file.path) }
        let head = try file.read(at: 0, count: 12)
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WAVE".utf8) {
            return .wav
        }
        if head.count >= 8, Array(head[4..<8]) == Array("ftyp".utf8) { return .mp4 }
        if head.starts(with: Array("RF64".utf8)) {
            throw MediaError.unsupported(file.path, "RF64 WAV files are not supported")
        }
        let audioStart = try offsetAfterID3v2(file)
        // A small look first, a wider one only when it is needed: a download or a radio
        // stream would otherwise wait for the whole window before the first sound.
        var probe: [UInt8] = []
        for window in [4 << 10, 16 << 10, mpegSearchWindow] {
            probe = try file.read(at: audioStart, count: window)
            if probe.starts(with: Array("fLaC".utf8)) { return .flac }
            if probe.starts(with: Array("OggS".utf8)) { return try oggCodec(probe, file.path) }
            if let other = knownOtherFormat(probe) {
                throw MediaError.unsupported(file.path, "\(other) files are not supported")
            }
            if findMPEGFrames(probe, afterID3v2: audioStart > 0) != nil { return .mp3 }
            if probe.count < window { break }
        }
        if audioStart >= file.size {
            throw MediaError.truncated(file.path, "file ends inside its ID3v2 tag, no audio follows")
        }
        let shown = probe.prefix(8).map { byte in String(byte, radix: 16).leftPadded(to: 2) }.joined(separator: " ")
        throw MediaError.unrecognised(file.path, "no FLAC, MP3, WAV, Ogg Vorbis, Opus or MP4 signature (first bytes: \(shown))")
    }

    /// Skips any number of stacked ID3v2 tags at the start of the file. A tag that claims
    /// more bytes than the file holds (256 MB in a 5 MB file) has a damaged size: the audio
    /// is then where the first MPEG frames after its header are, as mpg123 finds it.
    static func offsetAfterID3v2(_ file: any MediaSource) throws -> Int64 {
        var offset: Int64 = 0
        while true {
            let header = try file.read(at: offset, count: 10)
            guard let size = ID3v2Header(header)?.totalSize else { return offset }
            if offset + Int64(size) > file.size, let frames = try firstMPEGFrames(in: file, from: offset + 10) { return frames }
            offset += Int64(size)
        }
    }

    /// How far a tag with a damaged size is searched for audio: beyond the largest cover
    /// kept, and the search reads in windows, so memory stays small.
    static let damagedTagSearchLimit: Int64 = 2 * Int64(TagLimits.maximumPictureBytes)

    /// The offset of the first two MPEG frames at or after `start`, or nil.
    private static func firstMPEGFrames(in file: any MediaSource, from start: Int64) throws -> Int64? {
        let window = mpegSearchWindow
        var at = start
        while at < min(file.size, start + damagedTagSearchLimit) {
            let bytes = try file.read(at: at, count: window)
            if let found = findMPEGFrames(bytes) { return at + Int64(found) }
            if bytes.count < window { return nil }
            at += Int64(window - 4096)  // windows overlap by more than a frame
        }
        return nil
    }

    /// The offset of the first of two consecutive valid MPEG audio frame headers, or nil.
    /// Requiring the second header makes random bytes that happen to contain 0xFFE
    /// very unlikely to pass as MP3: a UTF-16LE text file starts `FF FE`, which reads
    /// as a frame header. Only behind an ID3v2 tag may a very short file hold one frame.
    static func findMPEGFrames(_ bytes: [UInt8], afterID3v2: Bool = false) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for start in 0..<(bytes.count - 3) where bytes[start] == 0xFF {
            guard let first = MPEGFrameHeader(bytes, at: start) else { continue }
            let next = start + first.length
            if next + 4 <= bytes.count {
                if let second = MPEGFrameHeader(bytes, at: next), second.isCompatible(with: first) { return start }
            } else if afterID3v2, bytes.count < 4096 {
                // A very short file: one frame is all there is to check.
                return start
            }
        }
        return nil
    }

    /// Vorbis or Opus, by the first packet of the first Ogg page: the page header is 27
    /// bytes and a table of segment lengths, then the codec's identification header.
    private static func oggCodec(_ page: [UInt8], _ path: String) throws -> ContainerFormat {
        let packet = page.count > 26 ? page.dropFirst(27 + Int(page[26])) : []
        if packet.starts(with: [0x01] + Array("vorbis".utf8)) { return .ogg }
        if packet.starts(with: Array("OpusHead".utf8)) { return .opus }
        if packet.starts(with: [0x7F] + Array("FLAC".utf8)) { throw MediaError.unsupported(path, "FLAC in an Ogg container is not supported") }
        if packet.starts(with: Array("Speex".utf8)) { throw MediaError.unsupported(path, "Speex files are not supported") }
        throw MediaError.unrecognised(path, "an Ogg file whose first stream is neither Vorbis nor Opus")
    }

    private static func knownOtherFormat(_ b: [UInt8]) -> String? {
        if b.starts(with: Array("FORM".utf8)) { return "AIFF" }
        if b.starts(with: [0x30, 0x26, 0xB2, 0x75]) { return "WMA/ASF" }
        if b.starts(with: Array("MAC ".utf8)) { return "Monkey's Audio" }
        if b.starts(with: Array("wvpk".utf8)) { return "WavPack" }
        return nil
    }
}

/// The 10-byte ID3v2 header; `totalSize` includes the header and any footer.
struct ID3v2Header {
    let majorVersion: UInt8
    let flags: UInt8
    let bodySize: Int

    init?(_ b: [UInt8]) {
        guard b.count >= 10, b[0] == 0x49, b[1] == 0x44, b[2] == 0x33,
              b[3] != 0xFF, b[4] != 0xFF,
              b[6] & 0x80 == 0, b[7] & 0x80 == 0, b[8] & 0x80 == 0, b[9] & 0x80 == 0 else { return nil }
        majorVersion = b[3]
        flags = b[5]
        bodySize = Int(b[6]) << 21 | Int(b[7]) << 14 | Int(b[8]) << 7 | Int(b[9])
    }

    var hasFooter: Bool { majorVersion >= 4 && flags & 0x10 != 0 }
    var unsynchronised: Bool { flags & 0x80 != 0 }
    var totalSize: Int { 10 + bodySize + (hasFooter ? 10 : 0) }
}

/// One MPEG-1/2/2.5 audio frame header (layers I–III).
struct MPEGFrameHeader {
    let version: Int      // 1, 2, or 25 for MPEG-2.5
    let layer: Int        // 1...3
    let sampleRate: Int
    let channelMode: Int
    let length: Int

    private static let bitrates: [[Int]] = [
        // MPEG-1 layer I, II, III
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
        // MPEG-2/2.5 layer I, then II and III
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ]
    private static let rates = [44_100, 48_000, 32_000]

    init?(_ b: [UInt8], at i: Int) {
        guard i + 4 <= b.count, b[i] == 0xFF, b[i + 1] & 0xE0 == 0xE0 else { return nil }
        let versionBits = Int(b[i + 1] >> 3) & 3
        let layerBits = Int(b[i + 1] >> 1) & 3
        let bitrateIndex = Int(b[i + 2] >> 4)
        let rateIndex = Int(b[i + 2] >> 2) & 3
        let padding = Int(b[i + 2] >> 1) & 1
        guard versionBits != 1, layerBits != 0, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3,
              b[i + 3] & 3 != 2 /* reserved emphasis */ else { return nil }
        version = [25, 0, 2, 1][versionBits]
        layer = 4 - layerBits
        sampleRate = Self.rates[rateIndex] >> (version == 1 ? 0 : version == 2 ? 1 : 2)
        channelMode = Int(b[i + 3] >> 6)
        let table = version == 1 ? layer - 1 : (layer == 1 ? 3 : 4)
        let kbps = Self.bitrates[table][bitrateIndex]
        switch layer {
        case 1: length = (12 * kbps * 1000 / sampleRate + padding) * 4
        case 3 where version != 1: length = 72 * kbps * 1000 / sampleRate + padding
        default: length = 144 * kbps * 1000 / sampleRate + padding
        }
    }

    func isCompatible(with other: MPEGFrameHeader) -> Bool {
        version == other.version && layer == other.layer && sampleRate == other.sampleRate
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
