import Foundation
import Testing
@testable import JukeboxCore

/// Files that used to block or stall: FIFOs, and FLACs and MP3s padded with gigabytes of zeros.
/// Every wait here is bounded and generous: a hang fails the test instead of the run.
@Suite struct HostileFileTests {
    let fx = Fixtures.shared

    /// Runs `body` on its own thread and reports whether it returned within `seconds`.
    static func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread { body(); done.signal() }.start()
        return done.wait(timeout: .now() + seconds) == .success
    }

    /// Runs the jukebox binary, killing it after `seconds`; nil when it had to be killed.
    static func jukebox(_ arguments: [String], killAfter seconds: Double) throws -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.jukebox)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    func fifo(_ name: String) throws -> String {
        let path = fx.path(name)
        unlink(path)
        #expect(mkfifo(path, 0o644) == 0)
        return path
    }

    /// Unblocks a reader stuck in `open` on the old code, so a failed test does not leak a thread.
    func release(_ fifo: String) {
        let fd = open(fifo, O_RDWR | O_NONBLOCK)
        if fd >= 0 { close(fd) }
    }

    @Test func fifoIsRefusedByProbeAndDecode() throws {
        let path = try fifo("hostile-probe.flac")
        defer { release(path) }
        #expect(try Self.jukebox(["probe", path], killAfter: 30) == 1)
        #expect(try Self.jukebox(["decode", path, "-o", "/dev/null"], killAfter: 30) == 1)
    }

    @Test func fifoIsRefusedAsConfigAndAsLyrics() throws {
        let config = try fifo("hostile-config.toml")
        defer { release(config) }
        #expect(throws: ConfigError.self) { try ConfigLoader.load(path: config) }
        let status = try Self.jukebox(["run", "--state", "", "--config", config, "--music-dir", fx.path(""), "--socket", fx.path("fifo.sock")], killAfter: 30)
        #expect(status != nil && status != 0)
        let lyrics = try fifo("hostile-lyrics.lrc")
        defer { release(lyrics) }
        #expect(try Self.jukebox(["lyrics", lyrics], killAfter: 30) == 1)
    }

    @Test func fifoIsRefusedInProcess() throws {
        let path = try fifo("hostile-inprocess.lrc")
        defer { release(path) }
        nonisolated(unsafe) var openError: MediaError?
        nonisolated(unsafe) var contentsError: MediaError?
        #expect(Self.finishes(within: 10) {
            do { _ = try AudioFile.open(path) } catch { openError = error as? MediaError }
            do { _ = try FileReader.contents(of: path, limit: 1 << 20) } catch { contentsError = error as? MediaError }
        })
        #expect(openError?.reason.contains("not a regular file (a FIFO)") == true)
        #expect(contentsError?.reason.contains("not a regular file (a FIFO)") == true)
    }

    /// `source` followed by zeros up to 4 GiB, sparse so it costs no disk. With
    /// `unknownLength` STREAMINFO's sample count is cleared, as a streamed encode leaves it.
    func zeroPadded(_ source: String, as name: String, unknownLength: Bool = false) throws -> String {
        var bytes = try fx.bytes(source)
        if unknownLength {
            // The 36-bit total sample count: low nibble of byte 21, then bytes 22...25.
            bytes[21] &= 0xF0
            for i in 22...25 { bytes[i] = 0 }
        }
        let path = try fx.write(name, bytes)
        #expect(truncate(path, 4 << 30) == 0)
        return path
    }

    @Test(arguments: ["music16.flac", "noseek16.flac"])
    func zeroPaddedFLACDecodesExactlyItsAudio(source: String) throws {
        for unknownLength in [false, true] {
            let path = try zeroPadded(source, as: "padded-\(unknownLength)-\(source)", unknownLength: unknownLength)
            defer { unlink(path) }
            let reference = try fx.flacReference(source)
            nonisolated(unsafe) var decoded: [UInt8] = []
            nonisolated(unsafe) var tail: [UInt8] = []
            nonisolated(unsafe) var failure: (any Error)?
            nonisolated(unsafe) var landed: Int64 = -1
            nonisolated(unsafe) var target: Int64 = 0
            #expect(Self.finishes(within: 60) {
                do {
                    let decoder = try AudioFile.open(path)
                    decoded = try decoder.readAll()
                    target = decoder.info.totalFrames - 1000
                    try decoder.seek(toFrame: target)
                    landed = decoder.position
                    tail = try decoder.readAll()
                } catch { failure = error }
            }, "decoding \(path)")
            #expect(failure == nil)
            #expect(landed == target)
            expectSame(decoded, reference)
            expectSame(tail, reference.suffix(1000 * 4))
        }
    }

    /// An MP3 with no LAME info frame (cbr.mp3 without its first frame), padded to 4 GiB.
    /// Its length must come from the frames, not from the file size: a seek towards an
    /// invented end made libmpg123 read the zeros one byte per read(2), 45 s per 64 MiB.
    @Test func zeroPaddedMP3WithoutInfoFrameHasItsRealLength() throws {
        let whole = try fx.bytes("cbr.mp3")
        let firstFrame = 417  // MPEG-1 layer III, 128 kbit/s, 44.1 kHz, no padding bit
        #expect(whole.count > firstFrame && whole[firstFrame] == 0xFF)
        let path = try fx.write("padded-noinfo.mp3", Array(whole.dropFirst(firstFrame)))
        defer { unlink(path) }
        #expect(truncate(path, 4 << 30) == 0)
        nonisolated(unsafe) var seconds = 0.0
        nonisolated(unsafe) var tailFrames = -1
        nonisolated(unsafe) var failure: (any Error)?
        #expect(Self.finishes(within: 60) {
            do {
                let decoder = try AudioFile.open(path)
                seconds = decoder.info.durationSeconds
                try decoder.seek(toFrame: decoder.info.totalFrames - 1000)
                tailFrames = try decoder.readAll().count / decoder.info.bytesPerFrame
            } catch { failure = error }
        }, "decoding \(path)")
        #expect(failure == nil)
        #expect(seconds > 5.9 && seconds < 6.1, "length \(seconds) s")
        #expect(tailFrames == 1000)
        #expect(try Self.jukebox(["probe", path], killAfter: 60) == 0)
    }

    @Test func zeroPaddedFLACProbesPromptly() throws {
        let path = try zeroPadded("noseek16.flac", as: "padded-probe.flac")
        defer { unlink(path) }
        #expect(try Self.jukebox(["probe", path], killAfter: 60) == 0)
    }

    @Test func engineMovesOnThroughZeroPadding() throws {
        let padded = try zeroPadded("noseek16.flac", as: "padded-engine.flac", unknownLength: true)
        defer { unlink(padded) }
        let output = RecordingOutput()
        let log = EventLog()
        let engine = AudioEngine(output: output) { log.append($0) }
        try engine.start()
        engine.play(TrackRef(token: 1, path: padded), next: TrackRef(token: 2, path: fx.path("mono8k.flac")))
        #expect(log.wait(seconds: 60) { if case .trackStarted(1) = $0 { true } else { false } })
        engine.seek(toFrame: 44_100 * 5)
        #expect(log.wait(seconds: 60) { if case .trackStarted(2) = $0 { true } else { false } })
        #expect(log.wait(seconds: 60) { $0.isFinished })
        #expect(engine.shutdown(within: 30).isEmpty)
    }

    /// A regression guard only: it also passes on the code before the fix, because this
    /// daemon has not yet reached the padded track's decoding when SIGTERM arrives.
    @Test func daemonStopsOnSIGTERMWithZeroPaddedLibrary() throws {
        let library = try fx.scratchFolder("hostile-library")
        try? FileManager.default.removeItem(atPath: library)
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        for (name, unknownLength) in [("1 padded.flac", true), ("2 padded.flac", false)] {
            let made = try zeroPadded("noseek16.flac", as: "daemon-\(unknownLength).flac", unknownLength: unknownLength)
            try FileManager.default.moveItem(atPath: made, toPath: "\(library)/\(name)")
        }
        defer { try? FileManager.default.removeItem(atPath: library) }
        let config = fx.path("hostile-run.toml")
        try "[control]\nkeyboard = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.jukebox)
        process.arguments = ["run", "--state", "", "--config", config, "--music-dir", library, "--device", "null",
                             "--socket", NSTemporaryDirectory() + "jukebox-hostile-\(getpid()).sock"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        usleep(3_000_000)
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        let stopped = !process.isRunning
        if !stopped { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(stopped)
    }
}

/// `probe` and playback follow one rule: report the damage and play what can be played.
/// Probe must never refuse a file that playback plays, nor pass one it cannot.
@Suite struct DamagedFLACVerdictTests {
    let fx = Fixtures.shared

    /// Whether the player would play it: it opens and yields audio.
    static func plays(_ path: String) -> Bool {
        guard let decoder = try? AudioFile.open(path), let audio = try? decoder.readAll() else { return false }
        return !audio.isEmpty
    }

    @Test(arguments: [false, true])
    func probeAndPlaybackAgreeOnFlippedBits(unknownLength: Bool) throws {
        var original = try fx.bytes("noseek16.flac")
        if unknownLength {
            // STREAMINFO's 36-bit total sample count cleared, as a streamed encode leaves it.
            original[21] &= 0xF0
            for i in 22...25 { original[i] = 0 }
        }
        var disagreements: [String] = []
        // Offsets spread over the headers and the audio, the same on every run.
        let offsets = (0..<60).map { 42 + ($0 * $0 * 997) % (original.count - 42) } + Array(4..<42)
        for (n, offset) in offsets.enumerated() {
            var bytes = original
            bytes[offset] ^= UInt8(1 << (n % 8))
            let path = try fx.write("flipped-\(unknownLength)-\(n).flac", bytes)
            defer { unlink(path) }
            let report = ProbeReport(path: path)
            if report.ok != Self.plays(path) {
                let verdict = (try? report.result.get()).map { _ in "probe ok" } ?? "probe refused"
                disagreements.append("byte \(offset) bit \(n % 8): \(verdict), playback \(report.ok ? "refused" : "plays")")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
    }
}
