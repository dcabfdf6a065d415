/// How a file's first bytes must look for the format its extension names, checked as soon
/// as the first 64 KiB have arrived: a stream of zeros named `.flac` is refused then, not
/// after gigabytes. The full check, the library's own probe, comes at the end.
///
/// The names come from the library's one table (`LibraryScanner.audioExtensions`); of
/// those, a name whose format the decoders do not play (AIFF, WMA, raw AAC) has no
/// signature, and an upload of it is refused by name.
struct UploadSignature: Sendable, Equatable {
    /// The formats the sniffer may find in such a file.
    let formats: Set<ContainerFormat>
    /// For messages: "a FLAC", "an MP3".
    let named: String

    /// How much is looked at before the first check.
    static let sniffBytes = 64 * 1024

    init?(fileExtension ext: String) {
        guard LibraryScanner.audioExtensions.contains(ext) else { return nil }
        switch ext {
        case "flac": self.init([.flac], "a FLAC")
        case "mp3": self.init([.mp3], "an MP3")
        case "mp2": self.init([.mp3], "an MP2")
        case "wav": self.init([.wav], "a WAV")
        case "ogg", "oga": self.init([.ogg, .opus], "an Ogg")
        case "opus": self.init([.opus], "an Opus")
        case "m4a", "m4b", "mp4": self.init([.mp4], "an \(ext.uppercased())")
        default: return nil
        }
    }

    private init(_ formats: Set<ContainerFormat>, _ named: String) {
        self.formats = formats
        self.named = named
    }

    /// Whether `head` (the file's first bytes, up to `sniffBytes`) begins as this format
    /// does. An ID3v2 tag may stand before FLAC or MPEG audio: what follows it is the
    /// probe's to judge, a tag with a cover being longer than the head.
    func matches(head: [UInt8]) -> Bool {
        let startsWithTag = ID3v2Header(Array(head.prefix(10))) != nil
        return formats.contains { format in
            switch format {
            case .flac: head.starts(with: Array("fLaC".utf8)) || startsWithTag
            case .mp3: startsWithTag || FormatSniffer.findMPEGFrames(head) != nil
            case .ogg, .opus: head.starts(with: Array("OggS".utf8))
            case .wav: head.count >= 12 && head.starts(with: Array("RIFF".utf8)) && Array(head[8..<12]) == Array("WAVE".utf8)
            case .mp4: head.count >= 8 && Array(head[4..<8]) == Array("ftyp".utf8)
            }
        }
    }

    /// Refuses `head` when it is not this format.
    func check(head: [UInt8]) throws(UploadRefusal) {
        guard matches(head: head) else { throw .notThisFormat(named) }
    }
}
