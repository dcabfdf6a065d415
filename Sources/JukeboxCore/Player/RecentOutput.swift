/// The most recent audio written to the device, so a pause can fade out what a rewind
/// took back instead of cutting it. A ring: each write is copied once, nothing moves.
/// Audio thread only.
struct RecentOutput {
    private var ring: [UInt8] = []
    private var next = 0  // where the next byte goes
    private var kept = 0  // bytes of valid audio, ending just before `next`

    /// Keeps up to `frames` frames of `format`, dropping what was kept before. It must
    /// cover all a rewind can take back: the device's whole buffer.
    mutating func reset(frames: Int, format: OutputFormat) {
        ring = [UInt8](repeating: 0, count: frames * format.bytesPerFrame)
        next = 0
        kept = 0
    }

    mutating func remember(_ data: UnsafeRawBufferPointer) {
        guard !ring.isEmpty, data.count > 0 else { return }
        let n = min(data.count, ring.count)
        var source = data.baseAddress! + (data.count - n)
        var left = n
        ring.withUnsafeMutableBytes { r in
            while left > 0 {
                let run = min(left, r.count - next)
                (r.baseAddress! + next).copyMemory(from: source, byteCount: run)
                next = (next + run) % r.count
                source += run
                left -= run
            }
        }
        kept = min(ring.count, kept + n)
    }

    /// The `count` bytes that start `back` bytes before the newest, or nil if not kept.
    func slice(back: Int, count: Int) -> [UInt8]? {
        guard !ring.isEmpty, back <= kept, count <= back, count >= 0 else { return nil }
        let start = (next - back + ring.count) % ring.count
        let first = min(count, ring.count - start)
        return Array(ring[start..<(start + first)]) + Array(ring[0..<(count - first)])
    }
}
