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

    @Option(help: "Stretch to this playback speed, pitch kept (0.5 to 2), as the player does.")
    var speed: Double?

    func validate() throws {
        if let start, start < 0 || !start.isFinite { throw ValidationError("--start must be 0 or more seconds") }
        if let duration, duration < 0 || !duration.isFinite { throw ValidationError("--duration must be 0 or more seconds") }
        if let speed, !PlaybackSpeed.range.contains(speed) { throw ValidationError("--speed must be from 0.5 to 2") }
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
        var stretch: TimeStretch?
        if let speed, speed != 1 {
            stretch = TimeStretch(format: OutputFormat(info), tempo: speed, blockFrames: chunkFrames)
            if stretch == nil { throw ValidationError("--speed: \(info.channels) channels cannot be stretched") }
        }
        let stretched = UnsafeMutableRawBufferPointer.allocate(byteCount: stretch == nil ? 0 : chunkFrames * info.bytesPerFrame, alignment: 16)
        defer { stretched.deallocate() }
        /// Writes what the stretch has ready.
        func writeStretched() throws {
            guard let stretch, let base = stretched.baseAddress else { return }
            while stretch.ready > 0 {
                let frames = stretch.receive(into: base, frames: chunkFrames)
                try writer.write(UnsafeRawBufferPointer(start: base, count: frames * info.bytesPerFrame))
            }
        }
        while remaining > 0 {
            let want = Int(min(Int64(chunkFrames), remaining))
            let frames = try decoder.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(want * info.bytesPerFrame)]))
            if frames == 0 { break }
            if let stretch {
                stretch.put(buffer.baseAddress!, frames: frames)
                try writeStretched()
            } else {
                try writer.write(UnsafeRawBufferPointer(rebasing: buffer[0..<(frames * info.bytesPerFrame)]))
            }
            remaining -= Int64(frames)
        }
        stretch?.flush()
        try writeStretched()
        try writer.finish()
        for warning in decoder.warnings.messages { StandardError.print("jukebox: \(file): warning: \(warning)") }
        if decoder.warnings.dropped > 0 { StandardError.print("jukebox: \(file): \(decoder.warnings.dropped) more warnings") }
    }
}
