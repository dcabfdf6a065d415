/// FNV-1a, 64 bits: a fast, stable hash for telling apart, never for security.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }

    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var h = FNV1a()
        h.add(bytes)
        return h.value
    }
}
