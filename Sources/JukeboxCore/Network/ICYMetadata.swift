/// Internet radio's in-band titles (Shoutcast/Icecast, asked for with `Icy-MetaData: 1`):
/// after every `interval` bytes of audio comes one length byte (×16) and that many bytes
/// of text such as `StreamTitle='Artist - Song';`. This takes them out of the audio.
struct ICYDemuxer: Sendable {
    let interval: Int
    /// Audio bytes left before the next metadata block.
    private var audioLeft: Int
    /// Metadata bytes left of the block being read; nil while in audio, 0 before the length byte.
    private var metadataLeft: Int?
    private var block: [UInt8] = []

    init(interval: Int) {
        self.interval = interval
        audioLeft = interval
    }

    /// Splits `bytes`: the audio goes to `audio`, and each title found to `title`, in the
    /// order they came, so the caller knows which audio each title comes before (the
    /// song it names starts there).
    mutating func feed(_ bytes: UnsafeRawBufferPointer, audio: (UnsafeRawBufferPointer) -> Void, title: (String) -> Void) {
        var at = 0
        while at < bytes.count {
            if let left = metadataLeft {
                if left == 0 && block.isEmpty && audioLeft == 0 {
                    // The length byte.
                    let length = Int(bytes[at]) * 16
                    at += 1
                    audioLeft = interval
                    if length == 0 { metadataLeft = nil } else { metadataLeft = length; block.reserveCapacity(length) }
                    continue
                }
                let take = min(left, bytes.count - at)
                block.append(contentsOf: bytes[at..<(at + take)])
                at += take
                metadataLeft = left - take
                if metadataLeft == 0 {
                    if let found = Self.title(in: block) { title(found) }
                    block.removeAll(keepingCapacity: true)
                    metadataLeft = nil
                }
                continue
            }
            let take = min(audioLeft, bytes.count - at)
            audio(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + take)]))
            at += take
            audioLeft -= take
            if audioLeft == 0 { metadataLeft = 0 }
        }
    }

    /// The `StreamTitle` of a metadata block: UTF-8, or Latin-1 when it is not.
    static func title(in block: [UInt8]) -> String? {
        let key = Array("StreamTitle='".utf8)
        guard let start = block.firstRange(of: key)?.upperBound else { return nil }
        var end = block.endIndex
        if let close = block[start...].firstRange(of: Array("';".utf8)) { end = close.lowerBound }
        let raw = block[start..<end].prefix { $0 != 0 }
        let text = String(validating: raw, as: UTF8.self) ?? String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
        let trimmed = text.trimmingSpaces
        return trimmed.isEmpty ? nil : trimmed
    }
}
