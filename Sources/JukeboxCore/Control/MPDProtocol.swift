#if canImport(Glibc)
import Glibc
#endif

/// The subset of MPD's protocol the jukebox speaks, so existing clients (mpc, phone apps)
/// work. Requests are lines of words, with double quotes and backslash escapes for
/// arguments containing spaces; replies are `key: value` lines ending in `OK`, or one
/// `ACK [code@index] {command} message` line.
public enum MPDProtocol {
    public static let greeting = "OK MPD 0.24.0\n"

    /// MPD's ACK codes that apply here.
    public enum AckCode: Int, Sendable {
        case notList = 1, argument = 2, password = 3, permission = 4, unknown = 5, noExist = 50, playlistMax = 51, system = 52,
             playerSync = 55, exist = 56
    }

    public struct Ack: Error, Equatable {
        public var code: AckCode
        public var message: String
        /// Raised before any command was known (the line does not split, or names no
        /// command): MPD's ACK then names none, `{}`.
        public var beforeCommand = false

        public init(code: AckCode, message: String) {
            self.code = code
            self.message = message
        }

        /// A line that names no command the server knows, or cannot be split into words.
        public static func unparsed(_ message: String) -> Ack {
            var ack = Ack(code: .unknown, message: message)
            ack.beforeCommand = true
            return ack
        }
    }

    /// A request line split into words: the command's name, then its arguments.
    public struct Request: Equatable {
        public var name: String
        public var arguments: [String]
    }

    /// Splits a request line into words (nil: nothing but blanks). The quotes, backslashes
    /// and blanks that matter are ASCII, so the UTF-8 bytes are scanned as MPD scans them:
    /// a byte-wise pass costs a fraction of walking grapheme clusters, on every command a
    /// client sends. A word without quotes, as nearly all are, is made straight from its
    /// bytes. The name is kept apart from the arguments, so that the arguments are made
    /// once, in the array the command reads (a command without any makes none).
    public static func request(_ line: String) throws -> Request? {
        var line = line
        return try line.withUTF8 { bytes in
            var name: String?
            var arguments: [String] = []
            var i = 0
            while i < bytes.count {
                if isBlank(bytes[i]) { i += 1; continue }
                let start = i
                var quoted = false
                var inQuotes = false
                var escaped = false
                while i < bytes.count {
                    let byte = bytes[i]
                    if escaped {
                        escaped = false
                    } else if inQuotes {
                        if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inQuotes = false }
                    } else if byte == UInt8(ascii: "\"") {
                        inQuotes = true
                        quoted = true
                    } else if isBlank(byte) {
                        break
                    }
                    i += 1
                }
                if inQuotes { throw Ack.unparsed("Missing closing '\"'") }
                let bytes = UnsafeBufferPointer(rebasing: bytes[start..<i])
                let word = quoted ? unquoted(bytes) : String(decoding: bytes, as: UTF8.self)
                if name == nil { name = word } else { arguments.append(word) }
            }
            return name.map { Request(name: $0, arguments: arguments) }
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// A word with its quotes taken out, and the byte after each backslash in them taken as it is.
    private static func unquoted(_ word: UnsafeBufferPointer<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(word.count)
        var inQuotes = false
        var escaped = false
        for byte in word {
            if escaped {
                text.append(byte)
                escaped = false
            } else if inQuotes {
                if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inQuotes = false } else { text.append(byte) }
            } else if byte == UInt8(ascii: "\"") {
                inQuotes = true
            } else {
                text.append(byte)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A value as it may appear after `key: ` in a reply. Every value from a file name, a
    /// tag or an error goes through here: a newline in a name would otherwise end the
    /// line and let the rest pose as protocol (`OK`, a fake tag). As MPD does for tag
    /// values, control characters (C0, DEL) become spaces.
    public static func value(_ text: String) -> String {
        // Control characters are ASCII: looked for in the UTF-8 bytes, which is quick.
        let clean = text.utf8.withContiguousStorageIfAvailable { bytes in !bytes.contains(where: isControl) }
            ?? !text.utf8.contains(where: isControl)
        guard !clean else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(isControl(scalar) ? " " : scalar) }
        return String(out)
    }

    /// `value(text)` written into a reply, in one pass over its bytes. A control character
    /// is one byte in UTF-8 (no other character's bytes fall below 0x80), so replacing
    /// bytes is the same as replacing characters.
    static func appendValue(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendValue($0, to: &out) }
    }

    static func appendValue(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if bytes.contains(where: isControl) {
            out.append(contentsOf: bytes.lazy.map { isControl($0) ? 0x20 : $0 })
        } else {
            out.append(contentsOf: bytes)
        }
    }

    private static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7F }

    /// Quotes an argument for sending.
    public static func quote(_ word: String) -> String {
        guard word.contains(where: { $0 == " " || $0 == "\"" || $0 == "\\" || $0 == "\t" }) || word.isEmpty else { return word }
        return "\"" + word.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }

    /// A time as MPD writes `Last-Modified`: ISO 8601 in UTC (`2024-05-01T12:00:00Z`).
    public static func timestamp(_ seconds: Int) -> String {
        var bytes: [UInt8] = []
        appendTimestamp(seconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same, written into a reply: a 10,000-song listing writes 10,000 of them, and
    /// making each as a string of interpolated numbers was a quarter of its time.
    static func appendTimestamp(_ seconds: Int, to out: inout [UInt8]) {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let year = Int(parts.tm_year) + 1900
        // Made in a 20-byte template on the stack and appended once: a byte at a time, the
        // reply's array checked its storage 20 times a time, 20,000 times a listing.
        var text: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                   UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0x2d, 0, 0, 0x2d, 0, 0, 0x54, 0, 0, 0x3a, 0, 0, 0x3a, 0, 0, 0x5a)  // ____-__-__T__:__:__Z
        withUnsafeMutableBytes(of: &text) { bytes in
            func two(_ n: Int, at place: Int) {
                bytes[place] = 0x30 + UInt8(truncatingIfNeeded: n / 10 % 10)
                bytes[place + 1] = 0x30 + UInt8(truncatingIfNeeded: n % 10)
            }
            two(year / 100, at: 0)
            two(year % 100, at: 2)
            two(Int(parts.tm_mon) + 1, at: 5)
            two(Int(parts.tm_mday), at: 8)
            two(Int(parts.tm_hour), at: 11)
            two(Int(parts.tm_min), at: 14)
            two(Int(parts.tm_sec), at: 17)
            out.append(contentsOf: UnsafeRawBufferPointer(bytes))
        }
    }

    // MARK: Options

    /// `single` as MPD writes it: 0, 1 or oneshot.
    public static func text(_ single: PlayOptions.Single) -> String {
        switch single {
        case .off: "0"
        case .on: "1"
        case .oneshot: "oneshot"
        }
    }

    public static func single(_ text: String) -> PlayOptions.Single? {
        switch text {
        case "0": .off
        case "1": .on
        case "oneshot": .oneshot
        default: nil
        }
    }

    /// `consume` as MPD 0.24 writes it: 0, 1 or oneshot.
    public static func text(_ consume: PlayOptions.Consume) -> String {
        switch consume {
        case .off: "0"
        case .on: "1"
        case .oneshot: "oneshot"
        }
    }

    public static func consume(_ text: String) -> PlayOptions.Consume? {
        switch text {
        case "0": .off
        case "1": .on
        case "oneshot": .oneshot
        default: nil
        }
    }

    /// The options a `status` reply states.
    public static func options(_ status: [String: String]) -> PlayOptions {
        PlayOptions(repeat: status["repeat"] == "1", random: status["random"] == "1",
                    single: status["single"].flatMap(single) ?? .off, consume: status["consume"].flatMap(consume) ?? .off)
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for ch in self { if ch == target { out += replacement } else { out.append(ch) } }
        return out
    }
}
