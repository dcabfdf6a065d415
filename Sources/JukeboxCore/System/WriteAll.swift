#if canImport(Glibc)
import Glibc
#endif

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR. Returns the errno on
/// failure, or nil.
@discardableResult
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Errno? {
    var done = 0
    while done < bytes.count {
        do {
            let n = try systemCall { write(fd, bytes.baseAddress! + done, bytes.count - done) }
            if n == 0 { return Errno(EIO) }
            done += n
        } catch {
            return error
        }
    }
    return nil
}

/// Writes all of `bytes` at `offset` (pwrite: the file's own position is left alone).
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Errno? {
    var done = 0
    while done < bytes.count {
        do {
            let n = try systemCall { pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
            if n == 0 { return Errno(EIO) }
            done += n
        } catch {
            return error
        }
    }
    return nil
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
