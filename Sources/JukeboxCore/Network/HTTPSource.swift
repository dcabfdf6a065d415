#if canImport(Glibc)
import Glibc
#endif

/// A track on a web server, read by a decoder while it downloads (`Download`): a read
/// waits until its bytes have arrived, telling the download where it reads so that a
/// seek ahead is fetched first. Waits are bounded steps that ask the decoder's
/// interruption check, so a stop or a seek never waits on the network.
final class HTTPSource: MediaSource {
    let path: String
    let size: Int64
    var interruption: DecodeInterruption?
    private let download: Download

    /// How long a wait lasts before the interruption check is asked again.
    static let waitStepNanoseconds: UInt64 = 20_000_000

    /// Starts the download and waits for the server's answer, which gives the length.
    init(url: String, cache: DownloadCache?, limits: HTTPTransfer.Limits = .init(), interruption: DecodeInterruption? = nil) throws {
        path = url
        self.interruption = interruption
        download = try Download(url: url, cache: cache, limits: limits)
        do {
            size = try Self.waitForLength(download, interruption: interruption)
        } catch {
            download.stop()
            throw error
        }
    }

    deinit { download.stop() }

    /// What the download has now: how much is here ahead of `offset`, and any problem.
    var buffered: (bytes: Int64, problem: NetworkError?) {
        download.progress.withLock { ($0.arrived.available(from: $0.wanted), $0.problem) }
    }

    private static func waitForLength(_ download: Download, interruption: DecodeInterruption?) throws -> Int64 {
        try download.progress.withLock { p in
            while true {
                if let failure = p.failure { throw MediaError.network(download.url, failure.reason) }
                if let length = p.head?.totalLength { return length }
                if interruption?() == true { throw DecodeInterrupted() }
                p.wait(nanoseconds: waitStepNanoseconds)
            }
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        guard offset < size, buffer.count > 0 else { return 0 }
        let count = try download.progress.withLock { p -> Int in
            if p.wanted != offset {
                p.wanted = offset
                p.broadcast()
            }
            while true {
                let here = p.arrived.available(from: offset)
                if here > 0 { return Int(min(Int64(buffer.count), here)) }
                if let failure = p.failure { throw MediaError.network(path, failure.reason) }
                if interruption?() == true { throw DecodeInterrupted() }
                p.wait(nanoseconds: Self.waitStepNanoseconds)
            }
        }
        do {
            return try systemCall { pread(download.fd, buffer.baseAddress!, count, off_t(offset)) }
        } catch {
            throw MediaError.unreadable(path, "the downloaded bytes cannot be read back: \(error)")
        }
    }
}
