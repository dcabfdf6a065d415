/// Why an output cannot play, as the audio thread reports it to the player. The route
/// acts on the kind: an absent or disconnected device is waited for, a busy one retried,
/// a format refusal and anything else reported.
public enum OutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device is not there now (a DAC switched off, no card by that name).
    case absent(device: String)
    /// The device went away while in use (a USB DAC pulled out, a card unbound).
    case disconnected(device: String)
    /// Another program holds the device.
    case busy(device: String)
    /// The device cannot take this format and conversion is off; `offered` is what it takes.
    case formatNotSupported(device: String, format: String, offered: String)
    /// Anything else: what was being done, and the error code.
    case failed(device: String, what: String, code: Errno)

    public var device: String {
        switch self {
        case .absent(let d), .disconnected(let d), .busy(let d), .formatNotSupported(let d, _, _), .failed(let d, _, _): d
        }
    }

    /// The device is gone, not broken: it may come back, and play continues then.
    public var isGone: Bool {
        switch self {
        case .absent, .disconnected: true
        default: false
        }
    }

    /// Waiting may clear it: the device comes back, or the other program lets go.
    public var isTransient: Bool { isGone || self == .busy(device: device) }

    public var description: String {
        switch self {
        case .absent(let d): "\(d): not present"
        case .disconnected(let d): "\(d): disconnected"
        case .busy(let d): "\(d): busy (another program is using it)"
        case .formatNotSupported(let d, let format, let offered): "\(d): cannot play \(format) (it offers \(offered)); set allow_conversion = true to convert"
        case .failed(let d, let what, let code): "\(d): \(what): \(code)"
        }
    }
}
