/// Watches one transfer's bytes, once connected, and says when to give it up: nothing at
/// all for `seconds` (a stall), no answer within `seconds`, or fewer bytes over three times
/// `seconds` than `needed` a second, which the track could never be played at (a trickle: 1 byte a
/// second keeps libcurl's own low-speed limit quiet for ever). Runs on the transfer's
/// thread, from libcurl's callbacks.
final class RateWatch {
    enum Verdict: Equatable {
        case stalled(seconds: Int)
        case noAnswer(seconds: Int)
        case tooSlow(bytesPerSecond: Int, needed: Int)

        func error(url: String) -> NetworkError {
            switch self {
            case .stalled(let seconds): .stalled(url: url, seconds: seconds)
            case .noAnswer(let seconds): .noAnswer(url: url, seconds: seconds)
            case .tooSlow(let rate, let needed): .tooSlow(url: url, bytesPerSecond: rate, needed: needed)
            }
        }
    }

    let seconds: Int
    /// The rate the track needs to be played at all, asked at the end of each window (it
    /// is known once the decoder has seen the stream).
    private let needed: () -> Int
    private(set) var started = false
    private(set) var verdict: Verdict?
    private var lastByte: UInt64 = 0
    private var windowStart: UInt64 = 0
    private var windowBytes = 0
    private var bodyBegun = false

    /// How many timeouts of the body a trickle's rate is measured over.
    static let bodyWindows: UInt64 = 3

    init(seconds: Int, needed: @escaping () -> Int) {
        self.seconds = max(1, seconds)
        self.needed = needed
    }

    func start() {
        started = true
        lastByte = MonotonicClock.now()
        windowStart = lastByte
    }

    /// Bytes of the answer: a header line, or a piece of the body.
    func arrived(_ count: Int, body: Bool) {
        if !started { start() }
        lastByte = MonotonicClock.now()
        windowBytes += count
        if body { bodyBegun = true }
    }

    /// False (with the verdict) when the transfer is to be given up.
    func check() -> Bool {
        guard started, verdict == nil else { return verdict == nil }
        let now = MonotonicClock.now()
        let span = UInt64(seconds) * 1_000_000_000
        if now - lastByte >= span {
            verdict = bodyBegun ? .stalled(seconds: seconds) : .noAnswer(seconds: seconds)
            return false
        }
        // The body's rate is judged over three timeouts: a link that comes back after a cut
        // starts slowly (TCP's slow start, the old connection's packets still queued), and
        // one short window of that is no trickle.
        let window = bodyBegun ? Self.bodyWindows * span : span
        guard now - windowStart >= window else { return true }
        let rate = Int(UInt64(windowBytes) * 1_000_000_000 / (now - windowStart))
        let floor = needed()
        if rate < floor {
            verdict = bodyBegun ? .tooSlow(bytesPerSecond: rate, needed: floor) : .noAnswer(seconds: seconds)
            return false
        }
        windowStart = now
        windowBytes = 0
        return true
    }
}
