/// Audio lost to a damaged or missing Ogg page, replaced by silence so that positions and
/// the length stay true to the granule positions (as FLACDecoder does for lost frames): a
/// seek after the damage then lands where playing through does, and the track ends when
/// its length says.
///
/// The libraries resynchronise their sample position at the first whole page after the
/// damage; the jump between what we counted and where they say they are is what was lost.
struct OggGap {
    private var pendingFrames: Int64 = 0
    /// A larger jump is taken as is (it is no gap a page of damage leaves).
    static let maximumSeconds = 30

    /// Compares the frame we have reached with the library's (`actual`, its `*_pcm_tell`).
    mutating func check(expected: Int64, actual: Int64, sampleRate: Int, warnings: inout DecodeWarnings) {
        let lost = actual - expected
        guard lost > 0, lost <= Int64(Self.maximumSeconds * sampleRate) else { return }
        pendingFrames = lost
        warnings.add("\(lost) frames lost to damage at frame \(expected), replaced by silence")
    }

    /// Writes pending silence into `buffer` from byte `offset`, in at most `room` bytes;
    /// returns the frames written.
    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer, at offset: Int, room: Int, frameBytes: Int) -> Int {
        guard pendingFrames > 0 else { return 0 }
        let frames = Int(min(pendingFrames, Int64(room / frameBytes)))
        (buffer.baseAddress! + offset).initializeMemory(as: UInt8.self, repeating: 0, count: frames * frameBytes)
        pendingFrames -= Int64(frames)
        return frames
    }
}
