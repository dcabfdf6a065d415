/// Decoded PCM on its way from the decode thread to the audio thread: a fixed ring of
/// reusable chunks, one producer and one consumer. Buffers are allocated once per format,
/// so steady playback allocates nothing.
///
/// Every chunk carries the generation it was decoded for. A seek, a stop or a new track
/// starts a new generation, and the audio thread drops whatever is left of older ones,
/// so neither side ever has to wait for the other to flush.
final class PCMChunk {
    var generation = 0
    /// Which queued track this audio belongs to.
    var token = 0
    /// The track frame of the first frame here.
    var startFrame: Int64 = 0
    var format = OutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .s16)
    var frames = 0
    /// Frames the audio thread has already written from this chunk.
    var consumed = 0
    /// Nothing follows: the queue ended.
    var endOfStream = false
    /// The track's loudness tags, which the audio thread levels by the ReplayGain rule.
    var loudness = ReplayGainTags()
    /// A live stream's new title, whose song starts with this chunk's first frame: told
    /// when that frame is heard.
    var title: String?
    /// Track frames per frame here: 1, or the playback speed its audio was stretched to.
    var speed = 1.0
    private(set) var bytes: UnsafeMutableRawPointer
    private(set) var capacity: Int

    init() {
        capacity = 0
        bytes = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 16)
    }

    deinit { bytes.deallocate() }

    func reserve(_ byteCount: Int) {
        guard byteCount > capacity else { return }
        bytes.deallocate()
        bytes = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
        capacity = byteCount
    }
}

/// The chunk queue's positions and who is asleep on it: part of the engine's shared state.
struct ChunkRing {
    /// Next to read, next to write.
    var head = 0
    var tail = 0
    /// Set by a side while it sleeps, so the other wakes it only when needed: waking a
    /// thread per chunk would cost more than decoding it.
    var producerWaiting = false
    var consumerWaiting = false
    var queued: Int { tail - head }
}

final class ChunkQueue: @unchecked Sendable {
    private let shared: ConditionLocked<EngineState>
    private let slots: [PCMChunk]

    init(slots count: Int, shared: ConditionLocked<EngineState>) {
        slots = (0..<count).map { _ in PCMChunk() }
        self.shared = shared
    }

    var capacity: Int { slots.count }

    /// The producer's free slot, or nil when full.
    func slotToFill() -> PCMChunk? {
        shared.withLock { s in s.ring.queued < slots.count ? slots[s.ring.tail % slots.count] : nil }
    }

    func publish() {
        shared.withLock { s in
            s.ring.tail += 1
            if s.ring.consumerWaiting { s.broadcast() }
        }
    }

    /// The consumer's next chunk, or nil when empty.
    func front() -> PCMChunk? {
        shared.withLock { s in s.ring.queued > 0 ? slots[s.ring.head % slots.count] : nil }
    }

    /// The producer is woken once the queue has drained to half, so it refills in a burst.
    func release() {
        shared.withLock { s in
            s.ring.head += 1
            if s.ring.producerWaiting, s.ring.queued <= slots.count / 2 { s.broadcast() }
        }
    }
}
