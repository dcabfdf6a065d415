import CJukeboxShim

#if canImport(Glibc)
import Glibc
#endif

/// What decoding one cover may cost, whatever the file claims. A cover is kept as the
/// square the panel draws (`side` pixels), so only the decode itself needs room:
/// - memory: 16 MB for what the file makes the decoder hold, checked from the header
///   before decoding (the square itself follows the panel: 2.5 MB on an 800x480 one,
///   built as the rows arrive). A baseline JPEG or any PNG needs far less (a few of its
///   rows); a progressive JPEG needs all its coefficients at once (about 3 bytes a
///   pixel), so this admits one of up to ~2300x2300 and keeps the daemon under its 64 MB
///   on a 512 MB board.
/// - scans: 64. Encoders write about 10; each scan is a pass over the whole picture, so a
///   few KB of repeated scans would otherwise cost seconds.
/// - CPU: 3 s of the decoding thread's own time (a 4000x4000 cover takes a fraction of it
///   on a Pi Zero 2), so a busy box never turns a good cover away.
public struct CoverLimits: Sendable, Equatable {
    public var side: Int
    public var maxBytes = 16 << 20
    public var maxScans = 64
    public var maxCPUMilliseconds = 3000

    public init(side: Int) { self.side = side }

    var c: jukebox_cover_limits {
        jukebox_cover_limits(side: Int32(clamping: max(1, side)), max_bytes: maxBytes, max_scans: Int32(clamping: maxScans),
                             max_cpu_ms: maxCPUMilliseconds)
    }
}

/// Why a cover was not decoded, in words for the log.
public struct CoverFailure: Error, CustomStringConvertible, Equatable {
    public let reason: String
    public var description: String { reason }
}

/// One of the shim's cover decoders: bytes in, the square as pixels out.
typealias CoverDecodeFunction = (UnsafePointer<UInt8>?, UInt, UnsafePointer<jukebox_cover_limits>?,
                                 UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, UnsafeMutablePointer<Int32>?,
                                 UnsafeMutablePointer<CChar>?, Int) -> Int32

extension CoverLimits {
    func decode(_ bytes: [UInt8], with function: CoverDecodeFunction, kind: String) throws(CoverFailure) -> RGBImage {
        var out: UnsafeMutablePointer<UInt8>?
        var side: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        var limits = c
        let status = bytes.withUnsafeBufferPointer { data in
            function(data.baseAddress, UInt(data.count), &limits, &out, &side, &message, message.count)
        }
        guard status == 0, let rgb = out else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw CoverFailure(reason: reason.isEmpty ? "not a \(kind) the decoder can read" : reason)
        }
        defer { free(rgb) }
        let count = Int(side) * Int(side)
        let pixels = [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count {
                buffer[i] = UInt32(rgb[i * 3]) << 16 | UInt32(rgb[i * 3 + 1]) << 8 | UInt32(rgb[i * 3 + 2])
            }
            initialized = count
        }
        return RGBImage(width: Int(side), height: Int(side), pixels: pixels)
    }
}
