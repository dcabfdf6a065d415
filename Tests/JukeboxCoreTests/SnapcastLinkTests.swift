import Foundation
import Testing
@testable import JukeboxCore

/// The Snapcast output on a real FIFO, with the test as snapserver: absent until a reader
/// holds the pipe, paced by what the reader takes, lost when the reader goes, and a pause
/// takes back exactly the newest audio not yet read, leaving the older in order.
@Suite(.serialized) struct SnapcastPipeTests {
    let format = OutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s16)

    private func fifo(_ name: String) throws -> String {
        let path = try Fixtures.shared.scratchFolder("snapcast-pipe") + "/\(name)"
        unlink(path)
        #expect(mkfifo(path, 0o666) == 0)
        return path
    }

    /// Frames numbered in both channels, so what comes out says where it came from.
    private func numbered(_ range: Range<Int>) -> [UInt8] {
        range.flatMap { i -> [Int16] in [Int16(truncatingIfNeeded: i), Int16(truncatingIfNeeded: i)] }.withUnsafeBytes { Array($0) }
    }

    private func frameNumbers(_ bytes: [UInt8]) -> [Int] {
        bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.enumerated().filter { $0.offset % 2 == 0 }.map { Int(UInt16(bitPattern: $0.element)) }
    }

    private func readAll(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got <= 0 { return out }
            out += buffer[..<got]
        }
    }

    @Test func aMissingPipeOrNoSnapserverIsAbsent() throws {
        let output = SnapcastOutput(.pipe(path: "/nonexistent/jukebox"), settings: .init())
        #expect(!output.isPresent())
        #expect(throws: OutputError.absent(device: "snapcast:/nonexistent/jukebox")) { try output.configure(format) }

        let path = try fifo("nobody-reads")
        let lonely = SnapcastOutput(.pipe(path: path), settings: .init())
        #expect(!lonely.isPresent())  // the box holds its end, but no snapserver reads
        #expect(throws: OutputError.absent(device: "snapcast:\(path)")) { try lonely.configure(format) }
        lonely.close()
    }

    @Test func writesReachTheReaderAndAPauseTakesBackTheNewest() throws {
        let path = try fifo("taken-back")
        let output = SnapcastOutput(.pipe(path: path), settings: .init(), bufferMilliseconds: 200, periodMilliseconds: 10)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        #expect(output.isPresent())
        try output.configure(format)
        #expect(output.bufferFrames == 9600 && output.periodFrames == 480)
        #expect(output.writableFrames() == 9600)

        let first = numbered(0..<1000)
        try first.withUnsafeBytes { try output.write($0) }
        #expect(output.delay() == 1000)
        #expect(output.writableFrames() == 8600)
        var received = readAll(reader)
        #expect(frameNumbers(received) == Array(0..<1000))
        #expect(output.delay() == 0)

        // 3000 more, unread: a pause takes back the newest 2000 and leaves 1000 in order.
        try numbered(1000..<4000).withUnsafeBytes { try output.write($0) }
        #expect(output.rewind(2000) == 2000)
        #expect(output.delay() == 1000)
        try numbered(5000..<5010).withUnsafeBytes { try output.write($0) }  // the fade, say
        received = readAll(reader)
        #expect(frameNumbers(received) == Array(1000..<2000) + Array(5000..<5010))
        // A rewind asks at most for what is there.
        try numbered(0..<100).withUnsafeBytes { try output.write($0) }
        #expect(output.rewind(5000) == 100)
        output.dropAndPrepare()
        #expect(output.delay() == 0)
        output.close()
    }

    @Test func theRoomsBufferIsLatencyNotDelay() throws {
        var settings = SnapcastOutput.Settings()
        settings.latencyMilliseconds = 1000
        let path = try fifo("latency")
        let output = SnapcastOutput(.pipe(path: path), settings: settings)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        try output.configure(OutputFormat(sampleRate: 44_100, channels: 2, sampleFormat: .s16))
        #expect(output.latencyFrames == 44_100)
        #expect(output.delay() == 0)
        output.close()
    }

    @Test func snapserverGoingIsADeviceLost() throws {
        signal(SIGPIPE, SIG_IGN)  // as the daemon does: a write to a pipe with no reader fails with EPIPE
        let path = try fifo("lost")
        let output = SnapcastOutput(.pipe(path: path), settings: .init())
        var reader = open(path, O_RDONLY | O_NONBLOCK)
        try output.configure(format)
        try numbered(0..<100).withUnsafeBytes { try output.write($0) }
        close(reader)
        #expect(throws: OutputError.disconnected(device: "snapcast:\(path)")) { try numbered(0..<100).withUnsafeBytes { try output.write($0) } }
        #expect(!output.isPresent())
        // snapserver back: it opens the pipe, which the box still holds, and stays.
        reader = open(path, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        #expect(output.isPresent())
        try output.configure(format)
        try numbered(7..<9).withUnsafeBytes { try output.write($0) }
        #expect(frameNumbers(readAll(reader)).suffix(2) == [7, 8])
        output.close()
    }

    @Test func aFileThatIsNotAPipeIsRefusedWithWhatToDo() throws {
        let path = try Fixtures.shared.scratchFolder("snapcast-pipe") + "/plain-file"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let output = SnapcastOutput(.pipe(path: path), settings: .init())
        #expect { try output.configure(format) } throws: { "\($0)".contains("not a FIFO") }
    }
}

/// The same over snapserver's tcp source in server mode, with the test as snapserver: a
/// listener on loopback.
@Suite(.serialized) struct SnapcastSocketTests {
    let format = OutputFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s16)

    @Test func nobodyListeningIsAbsentAndAListenerIsFoundWithoutWaiting() throws {
        let port = try LoopbackListener.freePort()
        let output = SnapcastOutput(.tcp(host: "127.0.0.1", port: port), settings: .init())
        #expect(!output.isPresent())
        #expect(throws: OutputError.absent(device: "snapcast:tcp://127.0.0.1:\(port)")) { try output.configure(format) }

        let (listener, open) = try LoopbackListener.open()
        defer { close(listener) }
        let found = SnapcastOutput(.tcp(host: "127.0.0.1", port: open), settings: .init())
        // A look starts the connect and a later one sees it done: neither waits for it.
        var present = found.isPresent()
        for _ in 0..<50 where !present {
            usleep(10_000)
            present = found.isPresent()
        }
        #expect(present)
        try found.configure(format)
        let peer = accept(listener, nil, nil)
        defer { close(peer) }
        #expect(peer >= 0)
        let pcm = [Int16](repeating: 1234, count: 200)
        try pcm.withUnsafeBytes { try found.write($0) }
        var received = [UInt8](repeating: 0, count: 400)
        var got = 0
        while got < 400 {
            let n = received.withUnsafeMutableBytes { recv(peer, $0.baseAddress! + got, 400 - got, 0) }
            if n <= 0 { break }
            got += n
        }
        #expect(received == pcm.withUnsafeBytes { Array($0) })
        #expect(found.rewind(100) == 0)  // sent is sent
        found.close()
    }

    @Test func snapserverGoingIsADeviceLost() throws {
        let (listener, port) = try LoopbackListener.open()
        defer { close(listener) }
        let output = SnapcastOutput(.tcp(host: "127.0.0.1", port: port), settings: .init())
        try output.configure(format)
        close(accept(listener, nil, nil))
        let pcm = [Int16](repeating: 1, count: 4800)
        var lost: OutputError?
        for _ in 0..<50 where lost == nil {
            do {
                try pcm.withUnsafeBytes { try output.write($0) }
            } catch {
                lost = error as? OutputError
            }
            usleep(10_000)
        }
        #expect(lost == .disconnected(device: "snapcast:tcp://127.0.0.1:\(port)"))
        output.close()
    }
}
