import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Devices coming and going, for everything that waits on them: the inputs (a keypad, a
/// GPIO chip) and the audio route (a USB DAC); and the card's volume control, whose watch
/// (the mixer's own) tells its listener of changes made elsewhere. One thread polls the
/// kernel's announcements and the watched control, and hands each batch to every
/// subscriber; subscribers only note it and return (they wake their own thread), so
/// nothing here waits on a consumer.
public final class HotplugMonitor: MixerWatcher, @unchecked Sendable {
    public typealias Subscriber = @Sendable ([UeventMonitor.Uevent]) -> Void

    private let logger: Logger
    /// Set before `start`.
    public var subscribers: [Subscriber] = []
    /// The control to watch, and how many times one was asked for: a request for the same
    /// control (its card came back) opens it afresh.
    private let wanted = ConditionLocked(WatchRequest())
    private struct WatchRequest { var mixer: MixerWatchRequest?; var generation = 0; var stopped = false }
    private var watchedGeneration = 0
    private var uevents: UeventMonitor?
    private var mixer: MixerWatch?
    /// The watch asked for could not be opened: tried again every second.
    private var retryWatch = false
    private var watchedName = ""
    private var wake: [Int32] = [-1, -1]  // set once, in init
    private var thread: pthread_t?

    private static let wakeToStop: UInt8 = 1
    private static let wakeToWatch: UInt8 = 2

    public init(logger: Logger) {
        self.logger = logger
        // Made here, before any thread can ring it.
        do {
            try systemCall { pipe(&wake) }
            // A full pipe already holds a wake-up: the audio thread never blocks here.
            try systemCall { fcntl(wake[1], F_SETFL, fcntl(wake[1], F_GETFL) | O_NONBLOCK) }
        } catch {
            logger.error("hotplug: cannot make its wake-up pipe (\(error)); devices are found by slow retries and outside volume changes are not followed")
            wake = [-1, -1]
        }
    }

    /// Starts the thread. Without the kernel's announcements (no netlink in a container)
    /// it still watches the mixer, and subscribers rely on their own slow retries.
    public func start() {
        do {
            uevents = try UeventMonitor()
        } catch {
            logger.notice("hotplug: no kernel device announcements (\(error)); looking for devices every 2 s instead")
        }
        guard wake[0] >= 0 else { return }
        do {
            thread = try WorkerThread.start(name: "jukebox-hotplug") { [self] in run() }
        } catch {
            logger.error("hotplug: cannot start its thread (\(error)); devices are found by slow retries and outside volume changes are not followed")
        }
    }

    /// Watch this control (nil: none) for changes made elsewhere. Callable from any
    /// thread, before or after `start`; returns at once. A request for the same control
    /// (its card came back) opens it afresh.
    public func watchMixer(_ watch: MixerWatchRequest?) {
        wanted.withLock { request in
            request.mixer = watch
            request.generation += 1
            // Under the lock, so the pipe cannot be closed (and its number reused) meanwhile.
            if !request.stopped { ring(Self.wakeToWatch) }
        }
    }

    public func stop() {
        let wasStopped = wanted.withLock { request in
            defer { request.stopped = true }
            if !request.stopped { ring(Self.wakeToStop) }
            return request.stopped
        }
        guard !wasStopped else { return }
        if let thread { pthread_join(thread, nil) }
        thread = nil
        uevents = nil
        // No one rings a stopped monitor, so the pipe can go.
        if wake[0] >= 0 { close(wake[0]); close(wake[1]) }
    }

    private func ring(_ byte: UInt8) {
        guard wake[1] >= 0 else { return }
        var byte = byte
        _ = write(wake[1], &byte, 1)
    }

    private func run() {
        defer { mixer = nil }
        followWatchRequest()
        while true {
            var fds = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
            if let uevents { fds.append(pollfd(fd: uevents.fd, events: Int16(POLLIN), revents: 0)) }
            let mixerStart = fds.count
            let polledWatch = mixer
            fds += polledWatch?.descriptors ?? []
            do {
                try systemCall { poll(&fds, nfds_t(fds.count), retryWatch ? 1000 : -1) }
            } catch {
                logger.error("hotplug: poll failed: \(error); devices plugged in from now on are found by the slow retries")
                return
            }
            if fds[0].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 16)
                let count = read(wake[0], &bytes, bytes.count)
                if count > 0, bytes.prefix(count).contains(Self.wakeToStop) { return }
                followWatchRequest()
            } else if retryWatch {
                openWatch()
            }
            if let uevents, fds[1].revents != 0 {
                let events = uevents.read()
                if !events.isEmpty { for subscriber in subscribers { subscriber(events) } }
            }
            if let watch = mixer, watch === polledWatch, fds.count > mixerStart, fds[mixerStart...].contains(where: { $0.revents != 0 }) {
                if !watch.readEvents(Array(fds[mixerStart...])) {
                    // The card went: let go of it so the kernel can free it. The audio
                    // thread asks again when the card is back and opened.
                    logger.debug("hotplug: \(watchedName) went away; no longer watched")
                    mixer = nil
                }
            }
        }
    }

    /// Opens the control asked for by `watchMixer`, closing the one watched before.
    private func followWatchRequest() {
        let request = wanted.current
        guard request.generation != watchedGeneration else { return }
        watchedGeneration = request.generation
        openWatch()
    }

    private func openWatch() {
        let retrying = retryWatch
        mixer = nil
        retryWatch = false
        guard let request = wanted.current.mixer else { return }
        watchedName = request.description
        do {
            mixer = try request.open()
        } catch {
            if !retrying { logger.notice("mixer: cannot watch \(request) for outside changes (\(error)); trying again every second") }
            retryWatch = true
        }
    }
}
