/// What can go wrong with a GPIO line, in words an admin can act on. libgpiod reports
/// failures through errno; `GPIOChip` converts them here and nowhere else.
public enum GPIOError: Error, Equatable, CustomStringConvertible, Sendable {
    /// No chip by that name, label, path or number (yet: it may appear later).
    case noChip(String)
    case noSuchLine(chip: String, offset: Int, lineCount: Int)
    /// Another driver or program holds the line (an I2S DAC, a HAT's driver, another daemon).
    case lineInUse(chip: String, offset: Int, consumer: String)
    case failed(String, Errno)

    public var description: String {
        switch self {
        case .noChip(let chip):
            return "no GPIO chip \"\(chip)\" (gpiodetect lists them)"
        case .noSuchLine(let chip, let offset, let count):
            return "\(chip) has \(count) lines (0 to \(count - 1)), so there is no line \(offset)"
        case .lineInUse(let chip, let offset, let consumer):
            return "\(chip) line \(offset) is already used by \"\(consumer)\""
        case .failed(let what, let errno):
            return "\(what): \(errno)"
        }
    }
}
