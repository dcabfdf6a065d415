/// What `jukebox mixer` shows and does: a card's playback volume controls, the one `auto`
/// picks, and a volume set through the same mapping the player uses.
public enum MixerReport {
    /// One line per playback volume control, marking the one `auto` would pick.
    public static func controls(device: String) throws(OutputError) -> [String] {
        let auto = try? ALSAMixer(device: device, choice: nil, index: 0)
        var lines: [String] = []
        for name in try names(device: device) {
            guard let mixer = try? ALSAMixer(device: device, choice: name.name, index: name.index) else { continue }
            let mark = auto?.control == name.name && auto?.index == name.index ? "   ← auto" : ""
            let level = mixer.currentDecibels.map { ", now \(decibelText($0, places: 2)) dB" } ?? ""
            lines.append("\(mixer.description)\(name.index > 0 ? " (index \(name.index))" : "")\(level)\(mark)")
        }
        return lines
    }

    /// Sets `volume` on the control (nil: auto's) and says what the control now holds.
    public static func set(device: String, control: String?, index: Int, volume: Int) throws(OutputError) -> String {
        let mixer = try ALSAMixer(device: device, choice: control, index: index)
        mixer.apply(volume)
        let level = mixer.currentDecibels.map { "\(decibelText($0, places: 2)) dB" } ?? "no dB scale"
        return "\(mixer.control): volume \(volume) → \(level)"
    }

    private static func names(device: String) throws(OutputError) -> [(name: String, index: Int)] {
        let h = try ALSAMixer.openHandle(device)
        defer { snd_mixer_close(h) }
        return ALSAMixer.playbackVolumeControls(h).map { ($0.name, $0.index) }
    }
}

import CAlsa
