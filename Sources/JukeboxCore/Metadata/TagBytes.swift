/// Where tag bytes come from: the audio file itself, or bytes already in memory (an
/// unsynchronised tag, tests, the fuzzer). Readers ask for what they keep and skip the
/// rest, so a tag's size never decides how much memory reading it costs.
public protocol TagBytes {
    var size: Int64 { get }
    /// Up to `count` bytes at `offset`; fewer only at the end.
    func read(at offset: Int64, count: Int) throws -> [UInt8]
}

struct InMemoryTagBytes: TagBytes {
    let bytes: [UInt8]
    var size: Int64 { Int64(bytes.count) }

    func read(at offset: Int64, count: Int) -> [UInt8] {
        guard count > 0, offset >= 0, offset < size else { return [] }
        let start = Int(offset)
        return Array(bytes[start..<(start + min(count, bytes.count - start))])
    }
}
