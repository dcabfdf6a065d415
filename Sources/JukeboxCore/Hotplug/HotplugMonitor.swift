import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Devices coming and going, for everything that waits on them: the inputs (a keypad, a
/// GPIO chip) and the audio route (a USB DAC). One thread reads the kernel's
/// announcements and hands each batch to every subscriber; subscribers only note it and
/// return (they wake their own thread), so nothing here waits on a consumer.
public final class HotplugMonitor: @unchecked Sendable {
    public typealias Subscriber = @Sendable ([UeventMonitor.Uevent]) -> Void

    private let logger: Logger
    private let subscribers: [Subscriber]
    private var uevents: UeventMonitor?
    private var wake: [Int32] = [-1, -1]
    private var thread: pthread_t?

    public init(logger: Logger, subscribers: [Subscriber]) {
        self.logger = logger
        self.subscribers = subscribers
    }

    /// False when the kernel's announcements cannot be had (no netlink in a container):
    /// subscribers then rely on their own slow retries.
    @discardableResult
    public func start() -> Bool {
        do {
            uevents = try UeventMonitor()
            try systemCall { pipe(&wake) }
            thread = try WorkerThread.start(name: "jukebox-hotplug") { [self] in run() }
            return true
        } catch {
            logger.notice("hotplug: no kernel device announcements (\(error)); looking for devices every 2 s instead")
            uevents = nil
            return false
        }
    }

    public func stop() {
        guard let thread else { return }
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
        pthread_join(thread, nil)
        self.thread = nil
        close(wake[0]); close(wake[1])
    }

    private func run() {
        guard let uevents else { return }
        while true {
            var fds = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0), pollfd(fd: uevents.fd, events: Int16(POLLIN), revents: 0)]
            do {
                try systemCall { poll(&fds, 2, -1) }
            } catch {
                logger.error("hotplug: poll failed: \(error); devices plugged in from now on are found by the slow retries")
                return
            }
            if fds[0].revents != 0 { return }
            let events = uevents.read()
            guard !events.isEmpty else { continue }
            for subscriber in subscribers { subscriber(events) }
        }
    }
}
