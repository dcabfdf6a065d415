import Foundation
import Testing

/// The room recordings' analysis on synthetic input: alignment, bit-exact comparison,
/// the file player's clock, and offsets between rooms.
@Suite struct SnapcastRecordingTests {
    /// Frames of "noise" that never repeat and are never silent.
    private func noise(_ count: Int, seed: UInt32 = 11) -> [UInt32] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return state | 1
        }
    }

    @Test func aReferenceIsFoundAndComparedFrameForFrame() {
        let music = noise(10_000)
        let reference = StereoPCM(frames: [0, 0] + music)
        var recording = StereoPCM(frames: [UInt32](repeating: 0, count: 777) + music + [0, 0, 0])
        #expect(recording.start(of: reference) == 775)
        #expect(recording.firstDifference(from: reference, at: 775) == nil)
        recording.frames[775 + 2 + 5_000] ^= 1
        #expect(recording.firstDifference(from: reference, at: 775) == 5_002)
        // Cut short: the first frame missing is the difference.
        let short = StereoPCM(frames: Array(recording.frames.prefix(775 + 2 + 100)))
        #expect(short.firstDifference(from: reference, at: 775) == 102)
        #expect(recording.silentRuns(in: 0..<recording.count, minimum: 3) == [0..<777, (recording.count - 3)..<recording.count])
        #expect(StereoPCM(frames: [0, 0, 0]).start(of: reference) == nil)
    }

    /// A frame repeated and, later, one dropped (snapclient's soft sync) are corrections;
    /// a silence or a jump breaks the track.
    @Test func softSyncCorrectionsAreToldFromGaps() {
        let music = noise(20_000)
        let reference = StereoPCM(frames: music)
        var nudged = Array(music[0..<5_000]) + [music[4_999]] + Array(music[5_000..<12_000]) + Array(music[12_001...])
        let recording = StereoPCM(frames: [0, 0, 0] + nudged)
        let followed = recording.follow(reference, from: 3)
        #expect(followed.brokenAt == nil)
        #expect(followed.corrections.map(\.shift) == [1, -1])
        #expect(recording.firstDifference(from: reference, at: 3) == 5_000)
        nudged.replaceSubrange(8_000..<8_100, with: [UInt32](repeating: 0, count: 100))
        #expect(StereoPCM(frames: nudged).follow(reference, from: 0).brokenAt == 7_999)
        let jumped = StereoPCM(frames: Array(music[0..<9_000]) + Array(music[9_500...]))
        #expect(jumped.follow(reference, from: 0).brokenAt == 9_000)
    }

    @Test func bytesAreLittleEndianFramesAndAPartialFrameIsDropped() {
        let pcm = StereoPCM(Data([1, 0, 2, 0, 0xFF, 0xFF, 0, 0x80, 9]))
        #expect(pcm.frames == [0x0002_0001, 0x8000_FFFF])
    }

    /// Stamps late by up to 1 ms, with one wake-up 80 ms late that restarts the schedule:
    /// the times found are those of the schedule in force, within the least lateness.
    @Test func theFilePlayersScheduleIsFoundFromLateStamps() throws {
        var clock = FilePlayerClock()
        let start = 1_000.0
        var lateness = noise(200).map { Double($0 % 1_000) / 1e6 + 0.000_05 }
        lateness[120] = 0.080
        for chunk in 0..<200 {
            // After chunk 120 the schedule restarts 80 ms + 1 ms later.
            let scheduled = start + Double(chunk) * 0.05 + (chunk >= 120 ? 0.081 : 0)
            clock.saw(bytes: (chunk + 1) * 9_600, at: scheduled + (chunk == 120 ? 0.080 : lateness[chunk]))
            clock.saw(bytes: (chunk + 1) * 9_600, at: scheduled + 0.5)  // a second event of the same write
        }
        let early = try #require(clock.time(ofFrame: 10 * 2_400 + 480))
        #expect(abs(early - (start + 0.5 + 0.01 + 0.01)) < 0.000_5)
        let late = try #require(clock.time(ofFrame: 150 * 2_400))
        #expect(abs(late - (start + 7.5 + 0.081 + 0.01)) < 0.000_5)
        #expect(clock.time(ofFrame: 195 * 2_400) == nil)  // too few stamps after it
        #expect(clock.frame(at: start + 2.01).map { abs($0 - 40 * 2_400) <= 48 } == true)
    }

    /// Two rooms that play the same music 30 frames apart in time, though their files
    /// began at different moments: the offset is 30, whatever the files' positions.
    @Test func roomsAreComparedByWhenTheyPlayTheSameFrames() {
        let music = noise(48_000)
        let a = StereoPCM(frames: [UInt32](repeating: 0, count: 24_000) + music)
        let b = StereoPCM(frames: [UInt32](repeating: 0, count: 12_000) + music)
        var aClock = FilePlayerClock(), bClock = FilePlayerClock()
        // a's file began at 100 s; b's at 100.25 s, and b plays each frame 30 frames earlier.
        for chunk in 0..<40 {
            aClock.saw(bytes: (chunk + 1) * 9_600, at: 100 + Double(chunk) * 0.05)
            bClock.saw(bytes: (chunk + 1) * 9_600, at: 100.25 - 30.0 / 48_000 + Double(chunk) * 0.05)
        }
        let offsets = roomOffsets(a, aClock, b, bClock, in: 24_000..<60_000)
        #expect(offsets.count >= 5)
        #expect(offsets.allSatisfy { $0 == 30 }, "\(offsets)")
    }
}
