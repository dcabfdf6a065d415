import CAvahi

/// The name the box is announced under: what the config may give, and the next one
/// when another device on the network already has it.
public enum ZeroconfName {
    /// A service name is one DNS label: at most 63 bytes of UTF-8.
    public static let longestBytes = 63

    /// Why `text` cannot be announced, or nil when it can.
    public static func problem(_ text: String) -> String? {
        if text.isEmpty { return "name is empty; give the name phones show, such as \"Jukebox\"" }
        if text.utf8.count > longestBytes {
            return "name is \(text.utf8.count) bytes long; a zeroconf name holds at most \(longestBytes) bytes of UTF-8"
        }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "name holds a control character; use plain text"
        }
        return nil
    }

    /// The name to try after `name` collided: avahi's own rule, the one every Linux
    /// service follows ("Jukebox" → "Jukebox #2" → "Jukebox #3"), kept within 63 bytes.
    public static func alternative(to name: String) -> String {
        guard let next = avahi_alternative_service_name(name) else { return name + " #2" }
        defer { avahi_free(next) }
        return String(cString: next)
    }
}
