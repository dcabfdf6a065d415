#if canImport(Glibc)
import Glibc
#endif

/// libvorbisfile's and libopusfile's reads, by position, over a `MediaSource`: files and
/// downloads alike. The libraries only learn that a read failed (libvorbisfile even takes
/// it for the end), so the reason is kept here for the decoder to rethrow or report.
///
/// Every byte read is counted against a budget that the decoder renews whenever audio
/// comes out, so no file (a valid start followed by gigabytes of zeros, say) can hold the
/// decode thread reading without producing sound; the interruption check is asked before
/// each read, so a long seek or resync never holds up a stop.
final class OggByteReader {
    let source: any MediaSource
    private(set) var offset: Int64 = 0
    private var failure: (any Error)?
    private var budget: Int64 = 0
    private var bytesWithoutAudio: Int64 = 0

    /// Header packets (tags with a cover) and the search for the last page at open, or
    /// a seek's bisection: generous, but bounded.
    static let openBudget: Int64 = 64 << 20
    /// An Ogg page is at most 64 KiB: 8 MiB read without a sample of audio is not audio.
    static let audioBudget: Int64 = 8 << 20

    /// Read past the budget without audio.
    struct BudgetExceeded: Error {}

    init(_ source: any MediaSource) {
        self.source = source
        allow(Self.openBudget)
    }

    /// Whether the libraries may seek: not in a download whose length is still unknown,
    /// where their search for the last page would wait for all of it.
    var isSeekable: Bool { source.lengthIsKnown }

    /// Starts a new phase (open, seek, decoding) with `bytes` to read before audio.
    func allow(_ bytes: Int64) {
        budget = bytes
        bytesWithoutAudio = 0
    }

    /// Audio came out: the budget starts again.
    func noteAudio() { bytesWithoutAudio = 0 }

    /// What made the last read fail, once.
    func takeFailure() -> (any Error)? {
        defer { failure = nil }
        return failure
    }

    /// A failure while opening, as the decoder throws it.
    func openError(_ failure: any Error) -> any Error {
        if failure is DecodeInterrupted { return failure }
        if failure is BudgetExceeded {
            return MediaError.corrupt(source.path, "no Ogg stream headers or end page in \(Self.openBudget >> 20) MiB")
        }
        return MediaError(failure, path: source.path)
    }

    /// A failure while seeking, as the decoder throws it.
    func seekError(_ failure: any Error) -> any Error {
        if failure is DecodeInterrupted { return failure }
        return MediaError.seekFailed(source.path, describe(failure))
    }

    /// A failure while decoding, for a warning.
    func describe(_ failure: any Error) -> String {
        if failure is BudgetExceeded { return "no audio in the last \(budget >> 20) MiB" }
        return (failure as? MediaError)?.reason ?? "\(failure)"
    }

    /// Up to `count` bytes into `buffer`; 0 at the end, nil on failure (kept).
    func read(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int? {
        guard count > 0 else { return 0 }
        if source.interruption?() == true { failure = DecodeInterrupted(); return nil }
        if bytesWithoutAudio >= budget { failure = BudgetExceeded(); return nil }
        let wanted = Int(min(Int64(count), budget - bytesWithoutAudio))
        do {
            let got = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: wanted), at: offset)
            offset += Int64(got)
            bytesWithoutAudio += Int64(got)
            return got
        } catch {
            failure = error
            return nil
        }
    }

    /// fseek's contract: 0, or -1 for a place before the start.
    func seek(_ target: Int64, whence: Int32) -> Int32 {
        let base: Int64 = switch whence {
        case SEEK_CUR: offset
        case SEEK_END: source.size
        default: 0
        }
        guard isSeekable, base + target >= 0 else { return -1 }
        offset = base + target
        return 0
    }
}
