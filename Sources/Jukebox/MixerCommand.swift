import ArgumentParser
import JukeboxCore

struct MixerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mixer",
        abstract: "List a card's volume controls (and which one `mixer = \"auto\"` picks), or set one.",
        discussion: "Volume goes through the jukebox's own mapping: linear in dB for a control of 24 dB or less, the cube-root curve for a wider one.")

    @Option(help: "The card's control device, e.g. hw:CARD=DAC or hw:0.")
    var device = "default"

    @Option(help: "A control's name (as `amixer scontrols` shows it); default: the one auto picks.")
    var control: String?

    @Option(help: "The control's index, when a card has several of one name.")
    var index = 0

    @Option(help: "Set this volume (0-100) and print the dB it gave.")
    var set: Int?

    func validate() throws {
        if let set, !(0...100).contains(set) { throw ValidationError("--set must be from 0 to 100, not \(set)") }
    }

    func run() throws {
        do {
            if let set {
                print(try MixerReport.set(device: device, control: control, index: index, volume: set))
            } else {
                let lines = try MixerReport.controls(device: device)
                if lines.isEmpty { print("\(device): no playback volume controls (the jukebox uses software volume)") }
                for line in lines { print(line) }
            }
        } catch {
            StandardError.print("jukebox mixer: \(error)")
            throw ExitCode(1)
        }
    }
}
