#if canImport(Glibc)
import Glibc
#endif

/// Diagnostics go to stderr so that stdout stays clean for JSON and raw PCM.
enum StandardError {
    static func print(_ message: String) {
        var line = message + "\n"
        line.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let n = write(STDERR_FILENO, bytes.baseAddress! + done, bytes.count - done)
                if n <= 0 { if n < 0 && errno == EINTR { continue } else { return } }
                done += n
            }
        }
    }
}
