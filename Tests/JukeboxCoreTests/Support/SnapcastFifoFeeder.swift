import Foundation

/// Stands in for the box while the harness is checked on its own: writes PCM into
/// snapserver's fifo from a thread, paced by the pipe (a blocking write waits while the
/// pipe is full, and snapserver empties it 20 ms at a time on its own clock). It pauses
/// (writes nothing, keeps the fifo open: snapserver pads with silence), seeks, and,
/// when snapserver vanishes, opens the fifo again once a new one reads it. After the
/// end it keeps the fifo open, so the last frames are not lost to snapserver's
/// end-of-file handling.
final class SnapcastFifoFeeder: @unchecked Sendable {
    private let lock = NSLock()
    private let pcm: Data
    private let fifo: String
    private var position = 0
    private var paused = false
    private var running = true
    private var reopened = 0
    private var thread: Thread?
    /// 20 ms, under PIPE_BUF: each write goes in whole, so the position stays on a frame.
    static let block = 3_840

    /// The thread holds the feeder until `stop`.
    init(fifo: String, pcm: Data, startPaused: Bool = false) {
        signal(SIGPIPE, SIG_IGN)
        self.pcm = pcm
        self.fifo = fifo
        paused = startPaused
        let thread = Thread { [self] in feed(fifo) }
        thread.name = "snapcast-fifo-feeder"
        self.thread = thread
        thread.start()
    }

    private func feed(_ fifo: String) {
        var fd: Int32 = -1
        while isRunning {
            if fd < 0 {
                // A blocking open: without a writer snapserver holds the fifo open only for
                // the instant it takes to read its end, every 100 ms, so a non-blocking open
                // would nearly always fail (ENXIO); this one returns at its next try.
                fd = open(fifo, O_WRONLY | O_CLOEXEC)
                if fd < 0 { usleep(20_000); continue }
            }
            guard let block = nextBlock() else { usleep(5_000); continue }
            let written = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                close(fd)
                fd = -1
                set { $0.reopened += 1 }
                continue
            }
            advance(by: written)
        }
        if fd >= 0 { close(fd) }
    }

    private var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    private func nextBlock() -> Data? {
        lock.lock()
        defer { lock.unlock() }
        guard !paused, position < pcm.count else { return nil }
        return pcm.subdata(in: position..<min(pcm.count, position + Self.block))
    }

    private func advance(by bytes: Int) {
        lock.lock()
        position += bytes
        lock.unlock()
    }

    func pause() { set { $0.paused = true } }
    func play() { set { $0.paused = false } }
    /// Continues from `frame` of the PCM (what is in the pipe already still plays first).
    func seek(toFrame frame: Int) { set { $0.position = frame * StereoPCM.bytesPerFrame } }
    /// How many times snapserver went away under it.
    var reopenings: Int { lock.lock(); defer { lock.unlock() }; return reopened }
    var writtenFrames: Int { lock.lock(); defer { lock.unlock() }; return position / StereoPCM.bytesPerFrame }

    private func set(_ change: (SnapcastFifoFeeder) -> Void) {
        lock.lock()
        change(self)
        lock.unlock()
    }

    /// Ends the thread; one waiting to open the fifo is let through by a reader of our own.
    func stop() {
        set { $0.running = false }
        var waited = 0
        while thread?.isFinished == false {
            usleep(5_000)
            waited += 1
            if waited % 40 == 0 {
                let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
                usleep(5_000)
                if reader >= 0 { close(reader) }
            }
        }
    }
}
