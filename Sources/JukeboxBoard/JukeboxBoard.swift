import ArgumentParser
import JukeboxCore

#if canImport(Glibc)
import Glibc
#endif

/// Tools the virtual-board scenarios use inside the guest and on the host: record from
/// the loopback card, and find where recorded audio sits in a reference.
@main
struct JukeboxBoard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jukebox-board",
        abstract: "Recording and analysis for the virtual-board tests.",
        subcommands: [Record.self, Segments.self, DriveLines.self, Uinput.self, InputLatency.self, UnplugCycles.self, OutsideVolume.self, Level.self, Levels.self, QEMUUSBGain.self,
                      FramebufferGrab.self, PNGDiff.self, ConsoleModeCommand.self, ScreenCost.self, PN532Watch.self])
}

struct FormatOptions: ParsableArguments {
    @Option var rate = 44_100
    @Option var channels = 2
    @Option(help: "16, 24 or 32") var bits = 16

    var format: OutputFormat {
        OutputFormat(sampleRate: rate, channels: channels, sampleFormat: SampleFormat(containing: bits) ?? .s16)
    }
}

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Record raw PCM from an ALSA capture device.")
    @Option var device = "hw:Loopback,1,0"
    @Option(help: "The longest it records.") var seconds: Double
    @Option(help: "When this file appears, record one second more and stop.") var stopFile: String?
    @Option var out: String
    @Option(help: "A file made once capturing has started.") var ready: String?
    @Flag(help: "Write each block as it is captured, not all at the end.") var stream = false
    @OptionGroup var format: FormatOptions

    func run() throws {
        let capture = try ALSACapture(device: device, format: format.format)
        if let ready {
            try capture.start()
            let fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { throw ValidationError("cannot create \(ready)") }
            close(fd)
        }
        let fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw ValidationError("cannot create \(out)") }
        defer { close(fd) }
        // In blocks of a tenth of a second, so a stop file is seen soon; the PCM keeps
        // running between reads, so nothing is lost at the joins.
        let block = format.rate / 10
        var left = Int(seconds * Double(format.rate))
        var held: [UInt8] = []
        if !stream { held.reserveCapacity(left * format.format.bytesPerFrame) }
        var stopping = false
        while left > 0 {
            if !stopping, let stopFile, access(stopFile, F_OK) == 0 {
                // What the card played last is still on its way through the loopback.
                stopping = true
                left = min(left, format.rate)
            }
            let frames = min(block, left)
            if stream {
                // Written as it comes, so a guest killed mid-recording (a power cut) leaves
                // everything up to the cut on the host's share.
                try capture.record(frames: frames) { try? writeAll(fd, $0) }
            } else {
                held += try capture.record(frames: frames)
            }
            left -= frames
        }
        try? writeAll(fd, held)
    }
}
