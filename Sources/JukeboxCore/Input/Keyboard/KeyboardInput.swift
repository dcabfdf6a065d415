#if canImport(Glibc)
import Glibc
#endif

/// Keys on the terminal the jukebox runs in, as player commands:
/// space toggle, n/p next/previous, ←/→ skip, +/- volume, m mode, q quit; and a card's
/// number typed and Enter, as a card reader that types would send it.
/// The terminal is put in raw mode and given back as it was by `restore()`.
public final class KeyboardInput: @unchecked Sendable {
    public enum Action: Equatable, Sendable {
        case command(PlayerCommand)
        /// Digits typed, then Enter: a card, for a box with no reader (the demo).
        case card(CardID)
        case quit
        /// The terminal stopped giving keys: end of input (nil), or a read error.
        case closed(Errno?)
    }

    private var saved = termios()
    private var active = false
    private var thread: pthread_t?
    private let skipSeconds: Double

    public init(skipSeconds: Double) { self.skipSeconds = skipSeconds }

    /// Whether stdin is a terminal worth listening to.
    public static var available: Bool { isatty(STDIN_FILENO) != 0 }

    /// Starts reading keys on a thread of its own; `onAction` is called for each key.
    public func start(_ onAction: @escaping @Sendable (Action) -> Void) throws(Errno) {
        guard Self.available, tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        active = true
        let skip = skipSeconds
        do {
            thread = try WorkerThread.start(name: "jukebox-keys") { Self.readKeys(skip, onAction) }
        } catch {
            restore()
            throw error
        }
    }

    /// The key thread: decodes bytes into actions until the terminal closes or fails.
    private static func readKeys(_ skip: Double, _ onAction: @Sendable (Action) -> Void) {
        var decoder = KeySequence()
        var byte: UInt8 = 0
        do throws(Errno) {
            while try systemCall({ read(STDIN_FILENO, &byte, 1) }) == 1 {
                if let action = decoder.feed(byte, skipSeconds: skip) { onAction(action) }
            }
            onAction(.closed(nil))
        } catch {
            onAction(.closed(error))
        }
    }

    public func restore() {
        guard active else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        active = false
    }
}

/// Turns key bytes, including the escape sequences of arrow keys, into actions.
public struct KeySequence: Sendable {
    private var pending: [UInt8] = []
    /// A card's number being typed; nil after more digits than a card has, until Enter.
    private var digits: [UInt8]? = []
    public init() {}

    public mutating func feed(_ byte: UInt8, skipSeconds: Double) -> KeyboardInput.Action? {
        if !pending.isEmpty || byte == 0x1B {
            pending.append(byte)
            if pending.count == 2, pending[1] != UInt8(ascii: "[") { pending.removeAll(); return nil }
            guard pending.count == 3 else { return nil }
            defer { pending.removeAll() }
            switch pending[2] {
            case UInt8(ascii: "C"): return .command(.skip(seconds: skipSeconds))
            case UInt8(ascii: "D"): return .command(.skip(seconds: -skipSeconds))
            case UInt8(ascii: "A"): return .command(.volumeStep(1))
            case UInt8(ascii: "B"): return .command(.volumeStep(-1))
            default: return nil
            }
        }
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            if digits != nil { digits!.append(byte) }
            if (digits?.count ?? 0) > 32 { digits = nil }
            return nil
        case 0x0A, 0x0D:
            defer { digits = [] }
            return digits.flatMap { CardID(String(decoding: $0, as: UTF8.self)) }.map(KeyboardInput.Action.card)
        case UInt8(ascii: " "): return .command(.toggle)
        case UInt8(ascii: "n"): return .command(.next)
        case UInt8(ascii: "p"): return .command(.previous)
        case UInt8(ascii: "+"), UInt8(ascii: "="): return .command(.volumeStep(1))
        case UInt8(ascii: "-"): return .command(.volumeStep(-1))
        case UInt8(ascii: "m"): return .command(.cycleMode)
        case UInt8(ascii: "s"): return .command(.stop)
        case UInt8(ascii: "q"), 0x03: return .quit
        default: return nil
        }
    }
}
