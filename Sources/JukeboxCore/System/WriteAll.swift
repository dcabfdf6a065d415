#if canImport(Glibc)
import Glibc
#endif

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR; throws the errno of
/// the write that failed.
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
    var done = 0
    while done < bytes.count {
        let n = try systemCall { write(fd, bytes.baseAddress! + done, bytes.count - done) }
        if n == 0 { throw Errno(EIO) }
        done += n
    }
}

/// Writes all of `bytes` at `offset` (pwrite: the file's own position is left alone).
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Errno) {
    var done = 0
    while done < bytes.count {
        let n = try systemCall { pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
        if n == 0 { throw Errno(EIO) }
        done += n
    }
}

/// The same for an array's bytes (its `withUnsafeBytes` rethrows, which loses the type).
public func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Errno) {
    try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try writeAll(fd, raw) } }.get()
}

public func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int64) throws(Errno) {
    try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try writeAll(fd, raw, at: offset) } }.get()
}

/// A small seeded generator (SplitMix64): the demo's synthesiser and the tests need
/// randomness that is the same on every run.
public struct SplitMix: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
