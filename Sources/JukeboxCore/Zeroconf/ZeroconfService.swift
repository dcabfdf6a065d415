import Logging

/// The box announced on the home network through avahi-daemon, as MPD does: phone MPD
/// apps find its control port, browsers its web page. Optional in every way: without
/// avahi-daemon or D-Bus it says so once and the box runs on unannounced; a daemon that
/// comes (or comes back) later gets the services then.
public final class ZeroconfService: Service {
    public let name = "zeroconf"
    public let policy = FailurePolicy.optional
    private let logger: Logger
    private let current: ConditionLocked<Current>

    private struct Current {
        var announcedName: String
        var announcements: [ZeroconfAnnouncement]
        var publisher: AvahiPublisher?
    }

    /// `name` is what phones show ("Jukebox"); no announcements: nothing is started.
    public init(name: String, announcements: [ZeroconfAnnouncement], logger: Logger) {
        self.logger = logger
        current = ConditionLocked(Current(announcedName: name, announcements: announcements))
    }

    /// What the next start announces (a live reload restarts it through the group).
    public func update(name: String, announcements: [ZeroconfAnnouncement]) {
        current.withLock {
            $0.announcedName = name
            $0.announcements = announcements
        }
    }

    /// Returns at once: avahi works on a thread of its own.
    public func start(died: @escaping @Sendable (any Error) -> Void) throws {
        let (name, announcements) = current.withLock { ($0.announcedName, $0.announcements) }
        guard !announcements.isEmpty else { return }
        let publisher = AvahiPublisher(name: name, announcements: announcements, logger: logger)
        publisher.open()
        current.withLock { $0.publisher = publisher }
    }

    /// Withdraws the services and frees avahi's thread and client.
    public func stop() {
        let publisher = current.withLock { access in
            defer { access.publisher = nil }
            return access.publisher
        }
        publisher?.close()
    }
}
