import CAvahi
import Logging

/// One start's link to avahi-daemon over D-Bus: avahi's own poll thread, its client
/// and the group that holds the services. avahi calls back on its thread; the fields
/// are touched there only while it runs, by `open` before it starts and by `close`
/// after it stopped, so they need no lock of their own.
final class AvahiPublisher {
    private let announcements: [ZeroconfAnnouncement]
    private let logger: Logger
    /// The name asked for, then the one avahi's collision rule gave.
    private var name: String
    private var poll: OpaquePointer?
    private var api: UnsafePointer<AvahiPoll>?
    /// Fires on avahi's thread to make a new client after avahi-daemon went away.
    private var retry: OpaquePointer?
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    /// Whether avahi-daemon ran since `open`: its later absence is a restart, not a missing daemon.
    private var daemonSeen = false
    private var toldAbsent = false
    /// A collision rule that never settles (a network answering every name) stops here.
    private var collisions = 0
    private static let mostCollisions = 50

    init(name: String, announcements: [ZeroconfAnnouncement], logger: Logger) {
        self.name = name
        self.announcements = announcements
        self.logger = logger
    }

    /// Connects and returns at once; the services are registered on avahi's thread as
    /// soon as avahi-daemon runs (`AVAHI_CLIENT_NO_FAIL` waits for it to appear).
    func open() {
        guard let poll = avahi_threaded_poll_new() else {
            logger.error("zeroconf: cannot make avahi's poll (out of memory); the box is not announced")
            return
        }
        self.poll = poll
        let api = avahi_threaded_poll_get(poll)
        self.api = api
        retry = api?.pointee.timeout_new?(api, nil, avahiRetry, context)
        var error: Int32 = 0
        // The client calls back before it returns (its first state), so the context is
        // this object, never the client pointer it hands back.
        guard let client = avahi_client_new(api, AVAHI_CLIENT_NO_FAIL, avahiClientChanged, context, &error) else {
            // No system bus to reach avahi-daemon through.
            tellAbsent(because: "no D-Bus system bus: \(Self.text(of: error))")
            close()
            return
        }
        self.client = client
        if avahi_threaded_poll_start(poll) < 0 {
            logger.error("zeroconf: cannot start avahi's thread; the box is not announced")
            close()
        }
    }

    /// Stops avahi's thread, then withdraws the services and frees everything.
    func close() {
        if let poll { avahi_threaded_poll_stop(poll) }
        // Frees the group with it, and tells avahi-daemon to withdraw its services.
        if let client { avahi_client_free(client) }
        if let retry { api?.pointee.timeout_free?(retry) }
        if let poll { avahi_threaded_poll_free(poll) }
        (poll, api, retry, client, group) = (nil, nil, nil, nil, nil)
    }

    private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    // MARK: On avahi's thread

    fileprivate func clientChanged(_ client: OpaquePointer, to state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            daemonSeen = true
            register(on: client)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The host's own name is being settled; the services follow once it runs.
            if let group { avahi_entry_group_reset(group) }
        case AVAHI_CLIENT_CONNECTING:
            // The daemon's objects went with the daemon: a new group when it is back.
            dropGroup()
            if daemonSeen {
                daemonSeen = false
                logger.warning("zeroconf: avahi-daemon stopped; the box is announced again when it is back")
            } else {
                tellAbsent(because: nil)
            }
        case AVAHI_CLIENT_FAILURE:
            // AVAHI_CLIENT_NO_FAIL waits only for a daemon absent at the start: one that
            // goes away (a restart, an upgrade) fails the client, and a new one, made
            // outside this callback, waits for it to come back.
            dropGroup()
            let error = avahi_client_errno(client)
            if error == Int32(AVAHI_ERR_DISCONNECTED) {
                logger.warning("zeroconf: avahi-daemon stopped; the box is announced again when it is back")
            } else {
                logger.error("zeroconf: lost avahi-daemon (\(Self.text(of: error))); trying again")
            }
            (daemonSeen, toldAbsent) = (false, true)
            retry(afterMilliseconds: 100)
        default:
            break
        }
    }

    fileprivate func groupChanged(_ group: OpaquePointer, to state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            logger.notice("zeroconf: announced as \(name): \(announcements.map(\.description).joined(separator: ", "))")
        case AVAHI_ENTRY_GROUP_COLLISION:
            // Another device on the network announces this name.
            renameAfterCollision()
            fill(group)
        case AVAHI_ENTRY_GROUP_FAILURE:
            logger.error("zeroconf: announcing failed: \(Self.text(of: avahi_client_errno(avahi_entry_group_get_client(group))))")
        default:
            break
        }
    }

    /// A new client in place of the failed one; without a bus, tried again every 10 s.
    fileprivate func reconnect() {
        if let client { avahi_client_free(client) }
        var error: Int32 = 0
        client = avahi_client_new(api, AVAHI_CLIENT_NO_FAIL, avahiClientChanged, context, &error)
        if client == nil { retry(afterMilliseconds: 10_000) }
    }

    private func retry(afterMilliseconds delay: UInt32) {
        var when = timeval()
        avahi_elapse_time(&when, delay, 0)
        api?.pointee.timeout_update?(retry, &when)
    }

    private func register(on client: OpaquePointer) {
        if group == nil {
            group = avahi_entry_group_new(client, avahiGroupChanged, context)
        }
        guard let group else {
            logger.error("zeroconf: avahi-daemon refused a group: \(Self.text(of: avahi_client_errno(client)))")
            return
        }
        fill(group)
    }

    /// Adds every announcement under the current name and commits them. A name another
    /// service on this machine already holds is refused at once, before any network
    /// probe: the next name is tried the same way as after a network collision.
    private func fill(_ group: OpaquePointer) {
        while true {
            avahi_entry_group_reset(group)
            var result: Int32 = 0
            for announcement in announcements {
                result = add(announcement, to: group)
                if result < 0 { break }
            }
            if result == Int32(AVAHI_ERR_COLLISION), collisions < Self.mostCollisions {
                renameAfterCollision()
                continue
            }
            if result < 0 {
                logger.error("zeroconf: cannot announce \(name): \(Self.text(of: result))")
                return
            }
            let committed = avahi_entry_group_commit(group)
            if committed < 0 { logger.error("zeroconf: cannot announce \(name): \(Self.text(of: committed))") }
            return
        }
    }

    private func add(_ announcement: ZeroconfAnnouncement, to group: OpaquePointer) -> Int32 {
        // avahi_entry_group_add_service takes TXT entries as C varargs, which Swift cannot
        // pass: the same call takes them as a list. `add` puts each in front, hence reversed.
        var txt: UnsafeMutablePointer<AvahiStringList>?
        for entry in announcement.txt.reversed() { txt = avahi_string_list_add(txt, entry) }
        defer { avahi_string_list_free(txt) }
        return avahi_entry_group_add_service_strlst(
            group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0),
            name, announcement.type, nil, nil, UInt16(clamping: announcement.port), txt)
    }

    private func renameAfterCollision() {
        collisions += 1
        let next = ZeroconfName.alternative(to: name)
        logger.notice("zeroconf: the name \"\(name)\" is taken on the network; trying \"\(next)\"")
        name = next
    }

    private func dropGroup() {
        if let group { avahi_entry_group_free(group) }
        group = nil
    }

    private func tellAbsent(because reason: String?) {
        guard !toldAbsent else { return }
        toldAbsent = true
        let why = reason.map { "; \($0)" } ?? ""
        logger.warning("zeroconf: avahi-daemon is not running; the box is not announced (install avahi-daemon: apt install avahi-daemon\(why))")
    }

    private static func text(of error: Int32) -> String { String(cString: avahi_strerror(error)) }
}

private let avahiClientChanged: AvahiClientCallback = { client, state, context in
    guard let client, let context else { return }
    Unmanaged<AvahiPublisher>.fromOpaque(context).takeUnretainedValue().clientChanged(client, to: state)
}

private let avahiGroupChanged: AvahiEntryGroupCallback = { group, state, context in
    guard let group, let context else { return }
    Unmanaged<AvahiPublisher>.fromOpaque(context).takeUnretainedValue().groupChanged(group, to: state)
}

private let avahiRetry: AvahiTimeoutCallback = { _, context in
    guard let context else { return }
    Unmanaged<AvahiPublisher>.fromOpaque(context).takeUnretainedValue().reconnect()
}
