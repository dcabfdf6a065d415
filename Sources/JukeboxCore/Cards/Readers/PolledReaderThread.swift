import Logging

#if canImport(Glibc)
import Glibc
#endif

/// A reader that is one file descriptor to poll (an evdev device, a serial port) and a
/// deadline: its bytes or events go through a pure parser, its device may come and go.
protocol PolledReader: AnyObject {
    /// The descriptor to poll; nil while the device is not there.
    var descriptor: Int32? { get }
    /// When `advance` has something to do (a card's frames overdue, a burst paused).
    var deadline: UInt64? { get }
    /// Opens the device if it is not open; says once that it is missing, and once that it is back.
    func open()
    /// The descriptor is readable or hung up: reads it, and lets go of it if it is gone.
    func readable(now: UInt64)
    func advance(to now: UInt64)
    /// Lets go of the device (the thread stops).
    func close()
}

/// Runs a `PolledReader` on a thread of its own: a poll over its descriptor and a wake-up
/// pipe, with its deadline as the timeout; while its device is missing it looks again
/// every two seconds, and at once (and a second later, when udev has set permissions)
/// after the hotplug monitor saw a device appear.
final class PolledReaderThread: CardReader, @unchecked Sendable {
    private let reader: PolledReader
    private let logger: Logger
    private var wake: [Int32] = [-1, -1]
    private var thread: pthread_t?
    private let retryInterval: UInt64 = 2_000_000_000
    private static let wakeToStop: UInt8 = 1
    private static let wakeToLook: UInt8 = 2

    init(_ reader: PolledReader, logger: Logger) {
        self.reader = reader
        self.logger = logger
    }

    func start() throws(Errno) {
        try systemCall { pipe(&wake) }
        do {
            thread = try WorkerThread.start(name: "jukebox-reader") { [self] in run() }
        } catch {
            Glibc.close(wake[0]); Glibc.close(wake[1])
            throw error
        }
    }

    func stop() {
        guard let thread else { return }
        var byte = Self.wakeToStop
        _ = write(wake[1], &byte, 1)
        pthread_join(thread, nil)
        self.thread = nil
        Glibc.close(wake[0]); Glibc.close(wake[1])
    }

    func devicesAppeared() {
        guard thread != nil else { return }
        var byte = Self.wakeToLook
        _ = write(wake[1], &byte, 1)
    }

    private func run() {
        reader.open()
        var nextLook = MonotonicClock.now() + retryInterval
        var lookAgainAt: UInt64?
        while true {
            var fds = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
            if let fd = reader.descriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let missing = reader.descriptor == nil
            let deadlines = [reader.deadline, missing ? nextLook : nil, missing ? lookAgainAt : nil].compactMap { $0 }
            let timeout = MonotonicClock.pollTimeout(until: deadlines)
            do {
                try systemCall(retryOnInterrupt: false) { poll(&fds, nfds_t(fds.count), timeout) }
            } catch .interrupted {
                continue
            } catch {
                logger.error("card reader: poll failed: \(error); this reader stops")
                reader.close()
                return
            }
            let woke = MonotonicClock.now()
            if fds[0].revents != 0 {
                var byte: UInt8 = 0
                guard read(wake[0], &byte, 1) == 1, byte == Self.wakeToLook else {
                    reader.close()
                    return
                }
                nextLook = woke
                lookAgainAt = woke + 1_000_000_000
            }
            if fds.count > 1, fds[1].revents != 0 { reader.readable(now: woke) }
            reader.advance(to: woke)
            if reader.descriptor == nil {
                if let at = lookAgainAt, woke >= at { lookAgainAt = nil; nextLook = woke }
                if woke >= nextLook {
                    reader.open()
                    nextLook = woke + retryInterval
                }
            }
        }
    }
}
