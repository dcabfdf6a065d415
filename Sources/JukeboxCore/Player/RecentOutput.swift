/// The most recent audio written to the device, so a pause can fade out what a rewind
/// took back instead of cutting it. Audio thread only.
struct RecentOutput {
    private var bytes: [UInt8] = []
    private var end = 0  // bytes of valid audio, newest at the end

    /// Keeps up to `frames` frames of `format`, dropping what was kept before.
    mutating func reset(frames: Int, format: OutputFormat) {
        bytes = [UInt8](repeating: 0, count: frames * format.bytesPerFrame)
        end = 0
    }

    mutating func remember(_ data: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, data.count > 0 else { return }
        let n = min(data.count, bytes.count)
        if end + n > bytes.count {
            let keep = bytes.count - n
            let from = end - keep
            bytes.withUnsafeMutableBytes { b in b.baseAddress!.copyMemory(from: b.baseAddress! + from, byteCount: keep) }
            end = keep
        }
        let at = end
        bytes.withUnsafeMutableBytes { b in (b.baseAddress! + at).copyMemory(from: data.baseAddress! + (data.count - n), byteCount: n) }
        end += n
    }

    /// The `count` bytes that start `back` bytes before the newest, or nil if not kept.
    func slice(back: Int, count: Int) -> [UInt8]? {
        guard back <= end, count <= back else { return nil }
        return Array(bytes[(end - back)..<(end - back + count)])
    }
}
