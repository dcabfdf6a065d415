#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX error number (positive, as `errno` holds it). ALSA and other libraries that
/// return negative codes convert through `init(negated:)`, the one place the sign flips.
public struct Errno: Error, Equatable, CustomStringConvertible, Sendable {
    public let rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }
    public init(negated code: Int32) { self.rawValue = -code }

    public static var current: Errno { Errno(errno) }

    public var description: String { String(cString: strerror(rawValue)) }
}
