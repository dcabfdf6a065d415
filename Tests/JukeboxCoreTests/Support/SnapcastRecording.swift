import Foundation

/// Raw 48 kHz 16-bit stereo PCM (snapclient's file player, `jukebox decode -o -`) held as
/// one 32-bit word per frame: two frames are equal when their words are, so alignment
/// and bit-exact comparison are integer searches, with no correlation maths.
struct StereoPCM: Equatable {
    static let rate = 48_000
    static let bytesPerFrame = 4
    var frames: [UInt32]

    init(frames: [UInt32]) { self.frames = frames }

    /// Little-endian bytes; a trailing partial frame (a write caught half done) is left out.
    init(_ data: Data) {
        let count = data.count / Self.bytesPerFrame
        var frames = [UInt32](repeating: 0, count: count)
        frames.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { out.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(count * Self.bytesPerFrame))) }
        }
        self.frames = frames.map { UInt32(littleEndian: $0) }
    }

    init(contentsOf path: String) throws { self.init(try Data(contentsOf: URL(fileURLWithPath: path))) }

    var count: Int { frames.count }
    var seconds: Double { Double(count) / Double(Self.rate) }

    /// The first and last frame that is not digital silence.
    var firstSound: Int? { frames.firstIndex { $0 != 0 } }
    var lastSound: Int? { frames.lastIndex { $0 != 0 } }

    /// Where `segment` occurs first at or after `start`, frame for frame.
    func firstIndex(of segment: ArraySlice<UInt32>, from start: Int = 0) -> Int? {
        guard let head = segment.first, segment.count <= count else { return nil }
        var at = max(0, start)
        let last = count - segment.count
        return frames.withUnsafeBufferPointer { all in
            while at <= last {
                if all[at] == head, all[at..<(at + segment.count)].elementsEqual(segment) { return at }
                at += 1
            }
            return nil
        }
    }

    /// Where `reference` begins in this recording: its first `probe` frames after its own
    /// leading silence, found exactly (noise makes them unique), minus that silence.
    func start(of reference: StereoPCM, probe: Int = 64) -> Int? {
        guard let sound = reference.firstSound, sound + probe <= reference.count else { return nil }
        return firstIndex(of: reference.frames[sound..<(sound + probe)]).map { $0 - sound }
    }

    /// This recording against `reference` laid from frame `start` on: where they first
    /// differ (nil when every frame of the reference is there, bit for bit).
    func firstDifference(from reference: StereoPCM, at start: Int) -> Int? {
        for index in reference.frames.indices {
            let at = start + index
            guard at >= 0, at < count else { return index }
            if frames[at] != reference.frames[index] { return index }
        }
        return nil
    }

    /// This recording against `reference` laid from frame `start` on, allowing for
    /// snapclient's soft sync, which nudges its rate by repeating or dropping a frame now
    /// and then: where they part, the comparison picks the track up again `probe` frames
    /// later within `maxShift` frames of where it was. The corrections (reference frame,
    /// frames repeated (+) or dropped (-)), and the reference frame where the track could
    /// not be picked up (a silence, a jump, the recording's end); nil when all of it follows.
    func follow(_ reference: StereoPCM, from start: Int, maxShift: Int = 4, probe: Int = 64)
        -> (corrections: [(frame: Int, shift: Int)], brokenAt: Int?) {
        var corrections: [(frame: Int, shift: Int)] = []
        var here = start, there = 0
        while true {
            var same = 0
            while there + same < reference.count, here + same < count, frames[here + same] == reference.frames[there + same] { same += 1 }
            if there + same == reference.count { return (corrections, nil) }
            let parted = there + same
            let picked = here + same + probe
            guard picked + probe <= count else { return (corrections, parted) }
            let segment = frames[picked..<(picked + probe)]
            let expected = parted + probe
            let found = (max(0, expected - maxShift)...min(reference.count - probe, expected + maxShift)).first {
                reference.frames[$0..<($0 + probe)].elementsEqual(segment)
            }
            guard let found, segment.contains(where: { $0 != 0 }) else { return (corrections, parted) }
            corrections.append((parted, expected - found))
            here = picked
            there = found
        }
    }

    /// Which frame of `other` holds the same `probe` frames as this recording's frame
    /// `index` (a segment of noise occurs once). Nil when that segment is silent or
    /// absent.
    func sameContent(at index: Int, in other: StereoPCM, probe: Int = 64) -> Int? {
        guard index >= 0, index + probe <= count else { return nil }
        let segment = frames[index..<(index + probe)]
        guard segment.contains(where: { $0 != 0 }) else { return nil }
        return other.firstIndex(of: segment)
    }

    /// Runs of digital silence at least `minimum` frames long between `range`'s bounds.
    func silentRuns(in range: Range<Int>, minimum: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var begin: Int?
        let range = max(0, range.lowerBound)..<min(count, range.upperBound)
        for index in range {
            if frames[index] == 0 {
                if begin == nil { begin = index }
            } else if let from = begin {
                if index - from >= minimum { runs.append(from..<index) }
                begin = nil
            }
        }
        if let from = begin, range.upperBound - from >= minimum { runs.append(from..<range.upperBound) }
        return runs
    }

    static func seconds(_ frames: Int) -> Double { Double(frames) / Double(rate) }
    static func frames(_ seconds: Double) -> Int { Int((seconds * Double(rate)).rounded()) }
}

/// When the frames of a recording by snapclient's file player were meant to be heard, on
/// CLOCK_MONOTONIC (snapclient's steady clock). The file player writes 50 ms per wake-up
/// on a fixed schedule (start + k × 50 ms) and asks each time for what is heard 10 ms
/// later; a wake-up later than a whole period restarts the schedule. The times a chunk
/// was first seen in the file are upper bounds of its wake-up, so the schedule in force
/// at chunk k is the least of `seen(j) − (j − k) × 50 ms` over the chunks that follow it
/// (a restart only ever moves the schedule later).
struct FilePlayerClock {
    static let chunkFrames = 2_400
    static let period = 0.05
    static let dacDelay = 0.010
    /// Chunk index → when it was first seen growing the file (seconds, monotonic).
    var seen: [Int: Double] = [:]

    mutating func saw(bytes: Int, at time: Double) {
        guard bytes > 0 else { return }
        let chunk = (bytes - 1) / (Self.chunkFrames * StereoPCM.bytesPerFrame)
        if seen[chunk] == nil { seen[chunk] = time }
    }

    /// When frame `index` of the file was meant to be heard; nil with fewer than half the
    /// `window` chunks after it stamped (the newest ones: too few bounds to be tight).
    func time(ofFrame index: Int, window: Int = 20) -> Double? {
        let chunk = index / Self.chunkFrames
        var best: Double?
        var stamped = 0
        for later in chunk..<(chunk + window) {
            guard let time = seen[later] else { continue }
            let start = time - Double(later - chunk) * Self.period
            best = min(best ?? start, start)
            stamped += 1
        }
        guard stamped * 2 >= window else { return nil }
        return best.map { $0 + Double(index - chunk * Self.chunkFrames) / Double(StereoPCM.rate) + Self.dacDelay }
    }

    /// The frame meant to be heard at `time` (the inverse of `time(ofFrame:)`), from the
    /// timed chunk nearest to it.
    func frame(at time: Double) -> Int? {
        let nearest = seen.sorted { abs($0.value - time) < abs($1.value - time) }
        for (chunk, _) in nearest.prefix(400) {
            if let start = self.time(ofFrame: chunk * Self.chunkFrames) {
                return chunk * Self.chunkFrames + StereoPCM.frames(time - start)
            }
        }
        return nil
    }
}

/// CLOCK_MONOTONIC in seconds: snapclient's steady clock, and the tests' stamps.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Two rooms' recordings compared by what they were heard at: for frames of `a` taken
/// every `step`, the same content found in `b`, and the difference of their times in
/// frames (positive: `a` plays it later). Frames whose content or stamps are missing are
/// left out.
func roomOffsets(_ a: StereoPCM, _ aClock: FilePlayerClock, _ b: StereoPCM, _ bClock: FilePlayerClock,
                 in range: Range<Int>, step: Int = 4_800) -> [Int] {
    var offsets: [Int] = []
    for index in stride(from: max(0, range.lowerBound), to: min(a.count, range.upperBound), by: step) {
        guard let other = a.sameContent(at: index, in: b), let aTime = aClock.time(ofFrame: index),
              let bTime = bClock.time(ofFrame: other) else { continue }
        offsets.append(StereoPCM.frames(aTime - bTime))
    }
    return offsets
}
