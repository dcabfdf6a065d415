/// The last bytes of a live stream, addressed by their place since the stream began: a
/// bounded buffer, so a stream that never ends never grows memory. A reader that falls
/// more than `capacity` behind skips to the oldest byte kept. Its memory is taken as the
/// stream fills it (pages untouched until written), not all at the start.
final class LiveRing: @unchecked Sendable {  // shared under the download's lock
    let capacity: Int
    private let storage: UnsafeMutableRawPointer
    /// The place of the oldest byte kept, and of the next byte to come.
    private(set) var start: Int64 = 0
    private(set) var end: Int64 = 0

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    func append(_ bytes: UnsafeRawBufferPointer) {
        var bytes = bytes
        if bytes.count > capacity { bytes = UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - capacity)...]) }
        var at = Int(end % Int64(capacity))
        var done = 0
        while done < bytes.count {
            let take = min(capacity - at, bytes.count - done)
            storage.advanced(by: at).copyMemory(from: bytes.baseAddress!.advanced(by: done), byteCount: take)
            done += take
            at = (at + take) % capacity
        }
        end += Int64(bytes.count)
        start = max(start, end - Int64(capacity))
    }

    /// Bytes from `offset` (or the oldest kept, if it is older) into `buffer`: where they
    /// came from and how many; 0 when nothing new is there yet.
    func read(from offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> (from: Int64, count: Int) {
        let from = max(offset, start)
        let count = Int(min(Int64(buffer.count), max(0, end - from)))
        var at = Int(from % Int64(capacity))
        var done = 0
        while done < count {
            let take = min(capacity - at, count - done)
            buffer.baseAddress!.advanced(by: done).copyMemory(from: storage.advanced(by: at), byteCount: take)
            done += take
            at = (at + take) % capacity
        }
        return (from, count)
    }
}
