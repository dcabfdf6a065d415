import Glibc

/// A dB figure as printf's "%.Nf" writes it: "-6.50" with two places.
/// Not Foundation's String(format:): that one call links the whole of Foundation and ICU
/// into the binary (85 MB instead of 36: docs/benchmarks.md, Binary size).
func decibelText(_ value: Double, places: Int) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
        let count = withVaList([Int32(places), value]) { vsnprintf(buffer.baseAddress, buffer.count, "%.*f", $0) }
        guard count > 0 else { return "\(value)" }
        return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: min(Int(count), buffer.count - 1)), as: UTF8.self)
    }
}
