import Testing
@testable import JukeboxCore

/// The audio a pause fades out comes from here: it must hand back exactly the bytes
/// written, however the writes fell across the ring's end.
@Suite struct RecentOutputTests {
    let mono8 = OutputFormat(sampleRate: 8000, channels: 1, sampleFormat: .s16)  // 2 bytes a frame

    func write(_ recent: inout RecentOutput, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { recent.remember($0) }
    }

    @Test func slicesComeBackAcrossTheRingsEnd() {
        var recent = RecentOutput()
        recent.reset(frames: 5, format: mono8)  // 10 bytes
        var all: [UInt8] = []
        for n in [3, 4, 6, 1, 7, 2] {
            let bytes = (0..<n).map { UInt8((all.count + $0) % 251) }
            all += bytes
            write(&recent, bytes)
            for back in 0...min(10, all.count) {
                for count in 0...back {
                    let start = all.count - back
                    #expect(recent.slice(back: back, count: count) == Array(all[start..<(start + count)]))
                }
            }
        }
    }

    @Test func aWriteLargerThanTheRingKeepsItsNewestBytes() {
        var recent = RecentOutput()
        recent.reset(frames: 2, format: mono8)  // 4 bytes
        write(&recent, Array(0..<9))
        #expect(recent.slice(back: 4, count: 4) == [5, 6, 7, 8])
        #expect(recent.slice(back: 5, count: 1) == nil)
    }

    @Test func nothingKeptGivesNothing() {
        var recent = RecentOutput()
        #expect(recent.slice(back: 0, count: 0) == nil)
        recent.reset(frames: 4, format: mono8)
        #expect(recent.slice(back: 2, count: 2) == nil)
        write(&recent, [1, 2])
        #expect(recent.slice(back: 2, count: 1) == [1])
        #expect(recent.slice(back: 3, count: 1) == nil)
    }
}
