import ArgumentParser
import Foundation

/// The RMS level of raw 16-bit PCM in dBFS, skipping digital silence (so the level is that
/// of the music, however long the pauses around it).
struct Level: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the RMS level of raw S16_LE PCM in dBFS.")
    @Option var file: String

    func run() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        var sum = 0.0
        var count = 0
        data.withUnsafeBytes { raw in
            for sample in raw.bindMemory(to: Int16.self) where sample != 0 {
                let x = Double(Int16(littleEndian: sample)) / 32768
                sum += x * x
                count += 1
            }
        }
        guard count > 0 else { throw ValidationError("\(file) is silent") }
        print(String(format: "%.3f", 10 * log10(sum / Double(count))))
    }
}

/// The gain QEMU's emulated USB DAC applies for its volume control at a given dB. The
/// control declares a dB scale (−128 to +8 dB), but the device maps it onto a byte
/// linearly ((v − 0x8000) · 255 / 0x8800, capped at 255) and scales the amplitude by
/// byte/255: a quirk of the emulation, not of USB audio. Scenarios compare the recorded
/// level with this law; on a real DAC the control's dB is the attenuation.
struct QEMUUSBGain: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "qemu-usb-gain",
                                                    abstract: "The dB gain QEMU's usb-audio applies for a control setting in dB.")
    @Option var decibels: Double

    func run() {
        let fixed = UInt16(bitPattern: Int16(clamping: Int((decibels * 256).rounded())))
        let shifted = UInt32(fixed &- 0x8000)
        let byte = min(255, (shifted * 255 + 0x4400) / 0x8800)
        print(String(format: "%.3f", byte == 0 ? -120 : 20 * log10(Double(byte) / 255)))
    }
}

/// The level of raw 16-bit stereo PCM window by window (silence counted: a fade and the
/// stop after it show), and when the last sound is: for the sleep timer's fade.
struct Levels: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the RMS level of raw S16_LE PCM per window in dBFS, and the last non-zero frame.")
    @Option var file: String
    @Option var rate = 44_100
    @Option var channels = 2
    @Option(help: "Window length in milliseconds.") var windowMs = 1000

    func run() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        data.withUnsafeBytes { raw in
            let samples = raw.bindMemory(to: Int16.self)
            let window = max(1, rate * windowMs / 1000) * channels
            var lastSound = -1
            for (i, sample) in samples.enumerated() where sample != 0 { lastSound = i }
            var start = 0
            while start < samples.count {
                let end = min(samples.count, start + window)
                var sum = 0.0
                for i in start..<end {
                    let x = Double(Int16(littleEndian: samples[i])) / 32768
                    sum += x * x
                }
                let db = sum > 0 ? 10 * log10(sum / Double(end - start)) : -120
                print(String(format: "t=%.3f db=%.2f", Double(start / channels) / Double(rate), db))
                start = end
            }
            print(String(format: "last_sound=%.3f", lastSound < 0 ? -1 : Double(lastSound / channels + 1) / Double(rate)))
        }
    }
}
