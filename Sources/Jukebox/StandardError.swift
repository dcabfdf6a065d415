#if canImport(Glibc)
import Glibc
#endif
import JukeboxCore

/// Diagnostics go to stderr so that stdout stays clean for JSON and raw PCM.
enum StandardError {
    static func print(_ message: String) {
        var line = message + "\n"
        _ = line.withUTF8 { try? writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }
}
