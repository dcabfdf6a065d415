import Foundation
import Testing
@testable import JukeboxCore

/// `jukebox run` playing to a Snapcast pipe that the test reads as snapserver does (a
/// 20 ms chunk every 20 ms): the track arrives byte for byte, and after a seek or a pause
/// the box sends no stale audio. Its buffer is long here (1 s), so the pipe holds half a
/// second or more of audio when the command comes: without taking that back, the reader
/// would go on reading the old place for that long.
@Suite(.serialized) struct SnapcastDaemonTests {
    static let rate = 48_000

    /// Each frame says where it is in the track: left the low 15 bits of its index, right
    /// the rest, so a frame read anywhere names itself.
    static func numberedTrack(seconds: Int) -> [UInt8] {
        (0..<(rate * seconds)).flatMap { i -> [Int16] in [Int16(i & 0x7FFF), Int16(i >> 15)] }.withUnsafeBytes { Array($0) }
    }

    /// The frame indices in `bytes`; nil for frames that are not a track frame as it is
    /// (silence, a fade): a frame counts when it and its neighbours run on by one.
    static func indices(_ bytes: ArraySlice<UInt8>) -> [Int?] {
        let raw: [Int?] = Array(bytes).withUnsafeBytes { raw in
            let s = raw.bindMemory(to: Int16.self)
            return stride(from: 0, to: s.count - 1, by: 2).map { i -> Int? in
                let low = Int(s[i]), high = Int(s[i + 1])
                guard low >= 0, high >= 0, high < 100, low | high != 0 else { return nil }
                return high << 15 | low
            }
        }
        return raw.indices.map { i in
            guard let v = raw[i] else { return nil }
            let before = i > 0 ? raw[i - 1] : nil
            let after = i + 1 < raw.count ? raw[i + 1] : nil
            return before == v - 1 || after == v + 1 ? v : nil
        }
    }

    /// Reads the pipe as snapserver does, keeping everything read, until stopped.
    final class Reader: @unchecked Sendable {
        private let lock = NSLock()
        private var data: [UInt8] = []
        private var running = true
        private let fd: Int32

        init(fifo: String) {
            fd = open(fifo, O_RDONLY | O_NONBLOCK)
            Thread { [self] in run() }.start()
        }

        private func run() {
            var chunk = [UInt8](repeating: 0, count: 3840)
            var next = Date()
            while isRunning {
                next += 0.020
                var got = 0
                while got < chunk.count {
                    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
                    if n <= 0 { break }
                    got += n
                }
                append(chunk[..<got])
                Thread.sleep(until: next)
            }
            close(fd)
        }

        var isRunning: Bool { lock.withLock { running } }
        func append(_ bytes: ArraySlice<UInt8>) { lock.withLock { data += bytes } }
        var count: Int { lock.withLock { data.count } }
        var all: [UInt8] { lock.withLock { data } }
        func stop() { lock.withLock { running = false } }
    }

    private func start(_ name: String) throws -> (RunningDaemon, Reader) {
        let folder = try Fixtures.shared.scratchFolder("snapcast-daemon-\(name)")
        try Data(Self.numberedTrack(seconds: 20)).write(to: URL(fileURLWithPath: "\(folder)/numbered.raw"))
        try FileManager.default.createDirectory(atPath: "\(folder)/music", withIntermediateDirectories: true)
        try Tools.run("sox", ["-t", "raw", "-r", "48000", "-e", "signed", "-b", "16", "-c", "2", "\(folder)/numbered.raw", "\(folder)/music/numbered.wav"])
        let fifo = "\(folder)/fifo"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o666) == 0)
        let reader = Reader(fifo: fifo)
        let config = "\(folder)/jukebox.toml"
        try """
            [playback]
            autoplay = true
            start_volume = 100
            [audio]
            buffer_ms = 1000
            period_ms = 10
            [control]
            keyboard = false
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(name: "snapcast-\(name)", config: config, musicDirectory: "\(folder)/music", device: "snapcast:\(fifo)")
        return (daemon, reader)
    }

    @Test func theTrackArrivesAsItIsAndASeekSendsNothingStale() throws {
        let (daemon, reader) = try start("seek")
        defer { reader.stop() }
        #expect(daemon.wait(seconds: 10) { reader.count > 48_000 * 4 })  // a second read
        // Through the socket itself: a `jukebox ctl` process would let the reader go on for
        // tens of milliseconds after the command, past where it took effect.
        let socket = try RawMPDConnection(socket: daemon.socket)
        let before = reader.count
        #expect(socket.reply(to: "seekcur 15").last == "OK")
        let sent = reader.count
        #expect(daemon.wait(seconds: 10) { reader.count > sent + 48_000 * 4 })
        let all = reader.all
        // Up to the command: the track from its start, frame for frame.
        let start = Self.indices(all[..<before]).drop { $0 == nil }
        #expect(start.prefix(40_000).enumerated().allSatisfy { $0.element == $0.offset + 1 })
        // After it: at most what was already on its way (a chunk the reader took while the
        // command went through, a period left in the pipe, the fade), then the new place.
        let after = Self.indices(all[before...])
        let stale = after.prefix { ($0 ?? 0) < 15 * Self.rate - 48 }.count
        #expect(stale <= 48 * 60, "\(stale) frames of the old place were sent after the seek")
        let resumed = after.compactMap { $0 }.first { $0 >= 15 * Self.rate - 48 }
        #expect(resumed.map { abs($0 - 15 * Self.rate) < 960 } == true, "resumed at \(String(describing: resumed)), stale \(stale)")
    }

    @Test func aPauseSendsNothingStaleAndPlayGoesOnFromTheFrameSent() throws {
        let (daemon, reader) = try start("pause")
        defer { reader.stop() }
        #expect(daemon.wait(seconds: 10) { reader.count > 48_000 * 4 })
        let socket = try RawMPDConnection(socket: daemon.socket)
        let before = reader.count
        #expect(socket.reply(to: "pause 1").last == "OK")
        let sent = reader.count
        usleep(500_000)
        let paused = Self.indices(reader.all[before...])
        #expect(paused.compactMap { $0 }.count <= 48 * 60, "old audio went on after the pause")
        let lastSent = Self.indices(reader.all[...]).compactMap { $0 }.last ?? 0
        #expect(socket.reply(to: "pause 0").last == "OK")
        #expect(daemon.wait(seconds: 10) { reader.count > sent + 48_000 * 8 })
        // Play goes on from the last frame the reader took, through the fades out and in
        // (a few ms each), not from what the box had queued beyond it.
        let first = Self.indices(reader.all[sent...]).compactMap { $0 }.first { $0 > lastSent } ?? -1
        #expect(first > lastSent && first <= lastSent + 960, "resumed at \(first), last read \(lastSent)")
    }
}
