/// One client's socket and buffers, as the server's poll loop sees them.
///
/// Both buffers are consumed from a moving start index and compacted only once half of
/// them is spent, and the newline search resumes where it stopped, so a client costs
/// time linear in what it sends and receives, however it splits it into lines and reads.
final class ControlConnection {
    let fd: Int32
    let session: ControlSession
    /// Where it connects from, for the log: `127.0.0.1:50312`, or `the Unix socket`.
    let peer: String
    /// On the Unix socket: a client on the box itself, with slots of its own.
    let local: Bool
    /// When it connected (MonotonicClock nanoseconds): the oldest guest goes first.
    let connected: UInt64
    /// When the client last sent a byte or took one of ours (MonotonicClock nanoseconds).
    var lastActivity: UInt64
    /// When the client last sent a byte: a guest's timeout counts from it, idle or not.
    var lastReceived: UInt64
    /// The answer to a wrong password waits until then: nothing more of this client is
    /// run or sent before, and the control thread serves the others meanwhile.
    var heldUntil: UInt64 = 0
    /// The reply being made as the client reads it; its next lines wait until it ends.
    var stream: ReplyStream?
    /// The stream waits for a file read: the loop need not turn for it until woken.
    var streamWaiting = false
    /// The client will send no more: it half-closed its side, or we stopped listening.
    var inputEnded = false
    /// Close as soon as the output has been sent.
    var closing = false
    /// The connection is broken or abusive: close now, dropping any output.
    var failed = false

    private var input: [UInt8] = []
    private var inputStart = 0
    /// `input[inputStart..<scanned]` holds no newline; at a newline while one is pending.
    private var scanned = 0
    private var output: [UInt8] = []
    private var outputStart = 0

    init(fd: Int32, session: ControlSession, peer: String, local: Bool, now: UInt64) {
        self.fd = fd
        self.session = session
        self.peer = peer
        self.local = local
        connected = now
        lastActivity = now
        lastReceived = now
    }

    /// A TCP client that has not sent the password the box asks for: it may only read,
    /// has a short timeout, and is the first to go when the slots run out.
    var isGuest: Bool { !local && !session.mayChange }

    func isHeld(at now: UInt64) -> Bool { now < heldUntil }

    // MARK: Input

    func receive(_ bytes: UnsafeRawBufferPointer) {
        if inputStart > 0, inputStart >= input.count / 2 {
            input.removeFirst(inputStart)
            scanned -= inputStart
            inputStart = 0
        }
        input.append(contentsOf: bytes)
    }

    /// Whether a whole line is waiting to be run.
    var hasCompleteLine: Bool { newline() != nil }

    /// The next whole line, without its newline.
    func takeLine() -> String? {
        guard let end = newline() else { return nil }
        let line = String(decoding: input[inputStart..<end], as: UTF8.self)
        inputStart = end + 1
        scanned = inputStart
        return line
    }

    /// Bytes of a line not finished yet (when no whole line is waiting).
    var unfinishedLineLength: Int { input.count - inputStart }

    func discardInput() {
        input.removeAll()
        inputStart = 0
        scanned = 0
    }

    private func newline() -> Int? {
        if let found = input[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
            scanned = found
            return found
        }
        scanned = input.count
        return nil
    }

    // MARK: Output

    var pendingOutput: Int { output.count - outputStart }

    func reply(_ text: String) { reply(bytes: text.utf8) }

    func reply(bytes: some Collection<UInt8>) {
        compactOutput()
        output.append(contentsOf: bytes)
    }

    /// Appends the next part of `stream`; it is dropped once done.
    func continueStream() -> ReplyStream.Step {
        guard let stream else { return .done }
        compactOutput()
        let step = (try? stream.produce(into: &output)) ?? .done
        streamWaiting = step == .waiting
        if step == .done { self.stream = nil }
        return step
    }

    private func compactOutput() {
        if outputStart > 0, outputStart >= output.count / 2 {
            output.removeFirst(outputStart)
            outputStart = 0
        }
    }

    /// Calls `write` with the unsent output; it returns how many bytes went out.
    func flush(_ write: (UnsafeRawBufferPointer) -> Int) -> Int {
        let sent = output[outputStart...].withUnsafeBytes(write)
        outputStart += sent
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.count <= 1 << 16)
            outputStart = 0
        }
        return sent
    }

    func discardOutput() {
        output.removeAll()
        outputStart = 0
    }
}
