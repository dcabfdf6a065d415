#if canImport(Glibc)
import Glibc
#endif

/// Bytes of a lyrics file to text. Order: a BOM (UTF-8, UTF-16LE/BE) decides; else valid
/// UTF-8; else UTF-16 without BOM when every other byte is zero; else GB18030 (a superset
/// of GBK and GB2312, in which Chinese LRC files are very often saved) through glibc's
/// iconv.
public enum TextDecoding {
    public enum Encoding: String, Sendable {
        case utf8 = "UTF-8"
        case utf16 = "UTF-16"
        case gb18030 = "GB18030"
    }

    public struct Failure: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    public static func decode(_ bytes: [UInt8]) throws -> (text: String, encoding: Encoding) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return (String(decoding: bytes.dropFirst(3), as: UTF8.self), .utf8)
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return (utf16(bytes, defaultBigEndian: false), .utf16)
        }
        if let bigEndian = utf16WithoutBOM(bytes) {
            return (utf16(bytes, defaultBigEndian: bigEndian), .utf16)
        }
        if let zero = bytes.firstIndex(of: 0) {
            throw Failure(reason: "binary data (a zero byte at offset \(zero)), not text")
        }
        if let text = String(validating: bytes, as: UTF8.self) {
            try rejectBinary(text)
            return (text, .utf8)
        }
        guard let text = convert(bytes, from: "GB18030") else {
            throw Failure(reason: "neither UTF-8 nor GB18030 text")
        }
        try rejectBinary(text)
        return (text, .gb18030)
    }

    /// UTF-16 with an optional BOM; without one, `defaultBigEndian` decides.
    static func utf16(_ bytes: [UInt8], defaultBigEndian: Bool) -> String {
        var bigEndian = defaultBigEndian
        var start = 0
        if bytes.count >= 2 {
            if bytes[0] == 0xFF, bytes[1] == 0xFE { bigEndian = false; start = 2 }
            else if bytes[0] == 0xFE, bytes[1] == 0xFF { bigEndian = true; start = 2 }
        }
        var units: [UInt16] = []
        units.reserveCapacity((bytes.count - start) / 2)
        var i = start
        while i + 1 < bytes.count {
            units.append(bigEndian ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i]))
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Text that is mostly ASCII saved as UTF-16 without a BOM has a zero in every
    /// high byte; which half is zero tells the byte order.
    private static func utf16WithoutBOM(_ bytes: [UInt8]) -> Bool? {
        let sample = bytes.prefix(512)
        guard sample.count >= 8, sample.count % 2 == 0 else { return nil }
        var evenZeros = 0
        var oddZeros = 0
        for (i, b) in sample.enumerated() where b == 0 { if i % 2 == 0 { evenZeros += 1 } else { oddZeros += 1 } }
        let half = sample.count / 2
        if oddZeros * 10 >= half * 9, evenZeros == 0 { return false }
        if evenZeros * 10 >= half * 9, oddZeros == 0 { return true }
        return nil
    }

    /// Control characters other than tab, CR, LF and form feed mean this is not text.
    private static func rejectBinary(_ text: String) throws {
        var controls = 0
        var total = 0
        for scalar in text.unicodeScalars {
            total += 1
            if scalar.value < 0x20, scalar != "\t", scalar != "\n", scalar != "\r", scalar != "\u{0C}" { controls += 1 }
            if scalar == "\u{FFFD}" { controls += 1 }
        }
        if total > 0, controls * 100 > total {
            throw Failure(reason: "binary data (\(controls) control characters in \(total)), not text")
        }
    }

    /// Text in another encoding (GBK for the demo's Chinese lyrics), through iconv.
    public static func encode(_ text: String, to encoding: String) -> [UInt8]? {
        transcode(Array(text.utf8), from: "UTF-8", to: encoding)
    }

    /// glibc iconv, strict: any invalid sequence fails the whole conversion.
    static func convert(_ bytes: [UInt8], from encoding: String) -> String? {
        transcode(bytes, from: encoding, to: "UTF-8").map { String(decoding: $0, as: UTF8.self) }
    }

    private static func transcode(_ bytes: [UInt8], from source: String, to target: String) -> [UInt8]? {
        let cd = iconv_open(target, source)
        guard cd != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(cd) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count * 2 + 16)
        let ok = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf -> Int? in
                var inPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuf.baseAddress!).assumingMemoryBound(to: CChar.self)
                var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuf.baseAddress!).assumingMemoryBound(to: CChar.self)
                var inLeft = inBuf.count
                var outLeft = outBuf.count
                guard iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft) != -1, inLeft == 0 else { return nil }
                return outBuf.count - outLeft
            }
        }
        guard let produced = ok else { return nil }
        return Array(output[0..<produced])
    }
}
