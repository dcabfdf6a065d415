/// Linux file names are bytes, not text, and a Swift `String` cannot hold bytes that are
/// not valid UTF-8. So a path read from a folder is kept as a `String` in which each byte
/// that is not part of valid UTF-8 stands as one private-use scalar, U+10FE80 + (byte - 0x80).
/// A real occurrence of one of those scalars in a name is itself stored as the escapes of
/// its four UTF-8 bytes, so the mapping is lossless both ways (as Python's surrogateescape).
///
/// Names that are valid UTF-8 map to themselves, so paths from the config or the command
/// line need no conversion. Every call that hands a library path to the kernel goes through
/// `withCString`, and anything shown to a person through `displayed`.
public enum FilePath {
    /// Byte 0x80 ... 0xFF ↔ U+10FE80 ... U+10FEFF (no noncharacters in that range).
    private static let escapeBase: UInt32 = 0x10FE00
    private static let escapes: ClosedRange<UInt32> = 0x10FE80...0x10FEFF

    /// A directory entry's name (or any path bytes) as a lossless `String`.
    public static func decode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = input.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if escapes.contains(scalar.value) {
                    for byte in encoded { scalars.append(escape(byte)) }
                } else {
                    scalars.append(scalar)
                }
                offset += encoded.count
            case .error(let length):
                for byte in input[offset..<offset + length] {
                    scalars.append(byte < 0x80 ? Unicode.Scalar(byte) : escape(byte))
                }
                offset += length
            case .emptyInput:
                return String(scalars)
            }
        }
    }

    /// The exact bytes `path` stands for.
    public static func bytes(_ path: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if escapes.contains(scalar.value) {
                out.append(UInt8(scalar.value - escapeBase))
            } else {
                out.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return out
    }

    /// Runs `body` with the NUL-terminated bytes of `path`, for open(), opendir(), stat().
    public static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        var raw = bytes(path)
        raw.append(0)
        return try raw.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// For logs and clients: bytes that are not UTF-8 shown as U+FFFD. Works on any text
    /// holding such paths (an error message, say), not only on a path alone.
    public static func displayed(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { escapes.contains($0.value) }) else { return text }
        return String(decoding: bytes(text), as: UTF8.self)
    }

    private static func escape(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(escapeBase + UInt32(byte))!
    }
}
