import ArgumentParser
import JukeboxCore

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode an audio file to WAV in its own sample format.",
        discussion: "With -o - the raw interleaved little-endian PCM goes to standard output.")

    @Argument(help: "The audio file.")
    var file: String

    @Option(name: .shortAndLong, help: "The WAV file to write, or - for raw PCM on stdout.")
    var output: String

    @Option(help: "Start this many seconds in.")
    var start: Double?

    @Option(help: "Decode at most this many seconds.")
    var duration: Double?

    func validate() throws {
        if let start, start < 0 || !start.isFinite { throw ValidationError("--start must be 0 or more seconds") }
        if let duration, duration < 0 || !duration.isFinite { throw ValidationError("--duration must be 0 or more seconds") }
    }

    func run() throws {
        do {
            try decode()
        } catch {
            StandardError.print("jukebox: \(error)")
            throw ExitCode(1)
        }
    }

    private func decode() throws {
        let decoder = try AudioFile.open(file)
        let info = decoder.info
        if let start { try decoder.seek(toFrame: info.frame(atSeconds: start)) }
        var remaining = duration.map { info.frame(atSeconds: $0) } ?? .max
        let writer = try WAVFileWriter(path: output, info: info)
        let chunkFrames = 16_384
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkFrames * info.bytesPerFrame, alignment: 16)
        defer { buffer.deallocate() }
        while remaining > 0 {
            let want = Int(min(Int64(chunkFrames), remaining))
            let frames = try decoder.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(want * info.bytesPerFrame)]))
            if frames == 0 { break }
            try writer.write(UnsafeRawBufferPointer(rebasing: buffer[0..<(frames * info.bytesPerFrame)]))
            remaining -= Int64(frames)
        }
        try writer.finish()
        for warning in decoder.warnings.messages { StandardError.print("jukebox: \(file): warning: \(warning)") }
        if decoder.warnings.dropped > 0 { StandardError.print("jukebox: \(file): \(decoder.warnings.dropped) more warnings") }
    }
}
