/// Where a decoder's bytes come from, by offset: a local file (`FileReader`), or a
/// download that may still be arriving (`HTTPSource`). A read may wait until its bytes
/// are there; a source that waits asks `interruption` between bounded waits and throws
/// `DecodeInterrupted` when it says so, so a stop or a seek is never held up by the
/// network.
public protocol MediaSource: AnyObject, TagBytes {
    /// What messages name: the file's path, or the URL.
    var path: String { get }
    /// The length in bytes.
    var size: Int64 { get }
    /// Some bytes from `offset` into `buffer`, waiting for at least one; 0 only at the end.
    /// A file fills the buffer; a download gives what has arrived.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int
    var interruption: DecodeInterruption? { get set }
    /// A radio stream: no end and no length, its bytes read once, in order.
    var isLive: Bool { get }
    /// Whether `size` is the exact length: a file's is; a download's once the server has
    /// said it or its end has come; a live stream's never.
    var lengthIsKnown: Bool { get }
    /// A download's news, buffer and rate; nil for a file, whose bytes are all there.
    var network: (any NetworkFeed)? { get }
}

extension MediaSource {
    // What a file answers.
    public var isLive: Bool { false }
    public var lengthIsKnown: Bool { true }
    public var network: (any NetworkFeed)? { nil }

    /// Its bytes come over the network: reading its end (or all of it, to count an MP3's
    /// frames) would wait for the whole download.
    var isDownload: Bool { network != nil }

    /// `count` bytes at `offset` (waiting for a download's); fewer only at the end.
    func read(at offset: Int64, count: Int) throws -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        let wanted = Int(min(Int64(count), size - offset))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var got = 0
        while got < wanted {
            let n = try bytes.withUnsafeMutableBytes { try read(into: UnsafeMutableRawBufferPointer(rebasing: $0[got...]), at: offset + Int64(got)) }
            if n == 0 { break }
            got += n
        }
        if got < wanted { bytes.removeLast(wanted - got) }
        return bytes
    }
}

/// True when the caller has something more urgent (a stop, seek, load or shutdown).
public typealias DecodeInterruption = () -> Bool

/// A `read` or `seek` given up because the interruption check asked for it.
public struct DecodeInterrupted: Error, Equatable {}
