import CJukeboxShim
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Serves the control protocol on a Unix socket (and, if configured, TCP on 127.0.0.1)
/// from one thread with one poll loop. Sockets are non-blocking and each client has its
/// own buffers and limits, so a slow, silent, flooding or garbage-sending client only
/// ever affects its own connection: each turn of the loop runs a bounded number of one
/// client's lines before serving the others.
public final class ControlServer: @unchecked Sendable {
    /// What one client may cost; `[control]` in the config sets them.
    public struct Limits: Sendable, Equatable {
        /// A client that neither sends nor reads for this long is closed (MPD: 60 s).
        public var connectionTimeoutSeconds: Int
        /// Clients served at once on TCP, and as many again on the Unix socket: one more
        /// is told so and closed (MPD: 100), unless a guest can make room.
        public var maximumConnections: Int
        /// The text of one command list (MPD's max_command_list_size: 2048 KiB).
        public var maximumCommandListBytes: Int
        /// A TCP client without the password (when one is set) that sends nothing for this
        /// long is closed, even while it waits in idle.
        public var passwordTimeoutSeconds: Int
        /// Output a client has not read beyond which it is dropped (MPD's
        /// max_output_buffer_size: 8 MiB). Long listings are streamed and stay far below.
        public var maximumOutputBytes: Int

        public init(connectionTimeoutSeconds: Int = 60, maximumConnections: Int = 100, maximumCommandListBytes: Int = 2048 << 10,
                    passwordTimeoutSeconds: Int = 10, maximumOutputBytes: Int = 8 << 20) {
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.maximumConnections = maximumConnections
            self.maximumCommandListBytes = maximumCommandListBytes
            self.passwordTimeoutSeconds = passwordTimeoutSeconds
            self.maximumOutputBytes = maximumOutputBytes
        }
    }

    /// The folders clients reach: where files and playlists are named.
    public struct Scope: Sendable, Equatable {
        /// Files are named to clients relative to this folder.
        public var musicDirectory: String
        /// Where stored playlists are kept (`[library] playlists_dir`); empty: none.
        public var playlistsDirectory: String
        /// MPD's sticker database (beside the state file); empty: none, and the sticker
        /// commands are answered as MPD answers them without a `sticker_file`.
        public var stickerDatabase: String

        public init(musicDirectory: String = "", playlistsDirectory: String = "", stickerDatabase: String = "") {
            self.musicDirectory = musicDirectory
            self.playlistsDirectory = playlistsDirectory
            self.stickerDatabase = stickerDatabase
        }
    }

    /// Why the server could not start.
    public enum StartError: Error, CustomStringConvertible, Equatable {
        /// Another process accepts connections on the socket: a second daemon must not take it over.
        case alreadyServed(path: String)
        case notASocket(path: String)
        case pathTooLong(path: String)
        case cannotListen(address: String, Errno)
        case cannotStartThread(Errno)

        public var description: String {
            switch self {
            case .alreadyServed(let path):
                "another jukebox is answering on \(path); stop it first (systemctl stop jukebox) or choose another socket"
            case .notASocket(let path): "\(path) exists and is not a socket"
            case .pathTooLong(let path): "socket path too long: \(path)"
            case .cannotListen(let address, let error) where error == Errno(EADDRINUSE):
                "cannot listen on \(address): the port is busy (another program listens on it)"
            case .cannotListen(let address, let error): "cannot listen on \(address): \(error)"
            case .cannotStartThread(let error): "cannot start the control thread: \(error)"
            }
        }
    }

    private let player: Player
    private let logger: Logger
    private let limits: Limits
    private let scope: Scope
    private let catalog: LibraryCatalog
    private let outputs: OutputSwitches
    /// Empty: none. Otherwise TCP clients may only read until they send it.
    private let password: String
    private var listeners: [Int32] = []
    /// The Unix socket's listener: its clients are on this machine (MPD's "local" clients).
    private var localListener: Int32 = -1
    /// Our socket file and its identity, so stopping never deletes another server's socket.
    private var socketFile: (path: String, device: UInt64, inode: UInt64)?
    private var wake: (read: Int32, write: Int32) = (-1, -1)
    private var thread: pthread_t?
    /// What the loop is told between its polls: changes for idle clients, and stop.
    private struct Mail {
        var changes: IdleSubsystems = []
        var stop = false
        /// The wake pipe is closed: a late player event must not write to a reused number.
        var closed = false
        /// The control thread, once it runs: a change made on it is told to idle clients
        /// at once, not at the next turn of the loop.
        var controlThread: pthread_t?
    }
    /// The connected clients. Confined to the control thread.
    private var clients: [Int32: ControlConnection] = [:]
    /// The clients' sessions, for client-to-client messages. Confined to the control thread.
    private let board = MessageBoard()
    private let mail = ConditionLocked(Mail())
    private var observer: Int?
    private var catalogObserver: Int?
    /// The refusal for max_connections has been logged since the server was last below it.
    private var warnedFull = false
    /// An accept failure has been logged since the last one that worked.
    private var warnedAcceptFailing = false
    /// A guest was closed to make room since the server was last below the limit.
    private var warnedEvicting = false
    /// The TCP listener that could not be opened (its port busy, say), tried again at
    /// `retryAt`: the Unix socket serves meanwhile.
    private var tcpPending: (address: String, port: Int, retryAt: UInt64)?
    static let tcpRetryInterval: UInt64 = 5_000_000_000

    /// Wrong passwords a client may send before it is closed; each answer comes later
    /// than the one before (`passwordDelay`), so guessing is slow.
    static let passwordAttempts = 3
    static func passwordDelay(afterFailures failures: Int) -> UInt64 { 500_000_000 << UInt64(min(failures, 8) - 1) }

    /// Output beyond which a client's further lines wait until it reads, and its
    /// streamed reply is made no further.
    static let outputBackPressure = 256 << 10
    /// Reads stored playlists and runs the sticker database off the control thread.
    private let files = ControlFileWorker()
    /// Made at the start when the scope names one (its file on the first use); used on
    /// the file thread only.
    private var stickers: StickerDatabase?
    /// Lines of one client run per turn of the loop, before the others are served.
    static let linesPerTurn = 64
    static let bytesPerRead = 64 << 10

    public init(player: Player, logger: Logger, limits: Limits = Limits(), scope: Scope = Scope(), catalog: LibraryCatalog = LibraryCatalog(),
                outputs: OutputSwitches = OutputSwitches(devices: ["default"]), password: String = "") {
        self.player = player
        self.password = password
        self.catalog = catalog
        self.outputs = outputs
        self.scope = scope
        self.logger = logger
        self.limits = limits
    }

    /// Told, from the control thread, when the loop stops by itself (its poll failed).
    /// Set before `start`.
    public var onDeath: @Sendable (Errno) -> Void = { _ in }

    /// Told what the screen should say about the server (the TCP port is busy), and nil
    /// once that is over. Set before `start`.
    public var onNotice: @Sendable (String?) -> Void = { _ in }

    /// Told of the socket's virtual card reader (`card UID`, `card-removed`). Set before `start`.
    public var onCard: @Sendable (CardSighting) -> Void = { _ in }

    /// Listens and starts the control thread. On failure nothing is left open.
    /// `tcpAddress` is where TCP listens when `tcpPort` is not 0 (this machine only by
    /// default).
    public func start(socketPath: String, tcpPort: Int, tcpAddress: String = "127.0.0.1") throws(StartError) {
        do {
            try listenAndServe(socketPath: socketPath, tcpPort: tcpPort, tcpAddress: tcpAddress)
        } catch {
            for fd in listeners { close(fd) }
            listeners.removeAll()
            stickers = nil
            if wake.read >= 0 { close(wake.read); close(wake.write) }
            wake = (-1, -1)
            removeSocketFile()
            throw error
        }
    }

    private func listenAndServe(socketPath: String, tcpPort: Int, tcpAddress: String) throws(StartError) {
        if !socketPath.isEmpty {
            let fd = try Self.listenUnix(socketPath)
            listeners.append(fd)
            localListener = fd
            var st = stat()
            if stat(socketPath, &st) == 0 {
                socketFile = (socketPath, UInt64(st.st_dev), UInt64(st.st_ino))
            }
            logger.info("control socket: \(socketPath) (try: MPD_HOST=\(socketPath) mpc status)")
        }
        if tcpPort > 0 {
            // Each listener fails alone: a busy port must not take the Unix socket down.
            do {
                listeners.append(try Self.listenTCP(address: tcpAddress, port: tcpPort))
                tcpListening(address: tcpAddress, port: tcpPort)
            } catch {
                tcpPending = (tcpAddress, tcpPort, MonotonicClock.now() + Self.tcpRetryInterval)
                logger.warning("control: \(error); tried again every \(Self.tcpRetryInterval / 1_000_000_000) s\(socketPath.isEmpty ? "" : " (the Unix socket works meanwhile)")")
                let busy = if case .cannotListen(_, let errno) = error, errno == Errno(EADDRINUSE) { true } else { false }
                onNotice(busy ? "TCP port \(tcpPort) is busy" : "TCP port \(tcpPort) cannot be opened")
            }
        }
        openStickers()
        var fds: [Int32] = [0, 0]
        do {
            try systemCall { jukebox_pipe2(&fds, O_NONBLOCK | O_CLOEXEC) }
        } catch {
            throw .cannotListen(address: "a wake-up pipe", error)
        }
        wake = (fds[0], fds[1])
        do {
            try files.start()
            thread = try WorkerThread.start(name: "jukebox-control") { [self] in serve() }
        } catch {
            files.stop()
            throw .cannotStartThread(error)
        }
        observer = player.observeChanges { [weak self] changes in self?.playerChanged(IdleSubsystems(changes)) }
        catalogObserver = catalog.observe { [weak self] change in
            self?.announce(change == .published ? [.database] : [.update])
        }
    }

    /// The sticker database the scope names, opened on its first use on the file thread.
    /// One that cannot be opened then (a full or read-only card, a damaged file) is
    /// refused to that client with the reason, and tried again on the next use.
    private func openStickers() {
        let path = scope.stickerDatabase
        guard !path.isEmpty else { return }
        stickers = StickerDatabase(path: path)
        logger.debug("stickers: \(path)")
    }

    private func tcpListening(address: String, port: Int) {
        let open = !(TCPAddress(address)?.isLoopback ?? true)
        if open, password.isEmpty {
            logger.warning("control: TCP on \(address):\(port) without a password: anyone on the network can control the box; set [control] password")
        } else {
            logger.info("control: also on TCP \(address):\(port)\(password.isEmpty ? "" : ", read-only until a client sends the password")")
        }
    }

    /// On the control thread, when it is time: tries the TCP listener again.
    private func retryTCP(now: UInt64) {
        guard let pending = tcpPending, now >= pending.retryAt else { return }
        do {
            listeners.append(try Self.listenTCP(address: pending.address, port: pending.port))
            tcpPending = nil
            tcpListening(address: pending.address, port: pending.port)
            onNotice(nil)
        } catch {
            tcpPending?.retryAt = now + Self.tcpRetryInterval
        }
    }

    public func stop() {
        guard let thread else { return }
        if let observer { player.removeObserver(observer) }
        if let catalogObserver { catalog.removeObserver(catalogObserver) }
        observer = nil
        catalogObserver = nil
        post { $0.stop = true }
        pthread_join(thread, nil)
        self.thread = nil
        files.stop()
        stickers = nil  // closed once the sessions that held it are gone with the thread
        mail.withLock { $0.closed = true }
        for fd in listeners { close(fd) }
        close(wake.read)
        close(wake.write)
        removeSocketFile()
    }

    /// Tells idle clients that `subsystems` changed (any thread; never waits on clients).
    public func announce(_ subsystems: IdleSubsystems) {
        guard !subsystems.isEmpty else { return }
        post { $0.changes.formUnion(subsystems) }
    }

    /// What the player changed, for idle clients. A change a client made (the player
    /// then tells it on the control thread) is answered there and then.
    private func playerChanged(_ changes: IdleSubsystems) {
        guard !changes.isEmpty else { return }
        let onControlThread = mail.withLock { mail in mail.controlThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        if onControlThread { tellIdleClients(changes) } else { announce(changes) }
    }

    /// Answers the clients waiting in idle for `changes`. On the control thread only.
    private func tellIdleClients(_ changes: IdleSubsystems) {
        guard !changes.isEmpty else { return }
        for client in clients.values {
            guard let answer = client.session.changed(changes) else { continue }
            client.reply(answer)
            send(client)
        }
    }

    /// Leaves the loop a message and wakes it: one byte down the wake pipe (a full pipe
    /// already wakes it), written under the lock so that it never outlives the pipe.
    private func post(_ update: (inout Mail) -> Void) {
        mail.withLock { mail in
            update(&mail.wholeValue)
            guard !mail.closed else { return }
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }
    }

    /// Removes the socket file if it is still the one this server made.
    private func removeSocketFile() {
        guard let socketFile else { return }
        var st = stat()
        if lstat(socketFile.path, &st) == 0, UInt64(st.st_dev) == socketFile.device, UInt64(st.st_ino) == socketFile.inode {
            unlink(socketFile.path)
        }
        self.socketFile = nil
    }

    // MARK: The loop

    private func serve() {
        mail.withLock { $0.controlThread = pthread_self() }
        var buffer = [UInt8](repeating: 0, count: Self.bytesPerRead)
        defer {
            for client in clients.values { remove(client) }
        }
        // What is polled, and the client behind each entry (none for the wake pipe and the
        // listeners): kept from turn to turn, so a turn allocates nothing and looks nothing up.
        var fds: [pollfd] = []
        var polled: [ControlConnection?] = []
        while true {
            fds.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0))
            polled.append(nil)
            for fd in listeners {
                fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                polled.append(nil)
            }
            var busy = false
            let now = MonotonicClock.now()
            for client in clients.values {
                let held = client.isHeld(at: now)
                let streaming = client.stream != nil
                let hasWork = !client.closing && (streaming ? !client.streamWaiting : client.session.isRunningList || client.hasCompleteLine)
                // Work already read comes first; while the client does not read its replies
                // it waits, and so does reading more from it.
                busy = busy || (hasWork && !held && client.pendingOutput < Self.outputBackPressure)
                var events: Int16 = 0
                if !client.inputEnded && !client.closing && !hasWork && !streaming { events |= Int16(POLLIN) }
                if client.pendingOutput > 0 && !held { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: client.fd, events: events, revents: 0))
                polled.append(client)
            }
            let timeout = busy ? 0 : millisecondsUntilNextDeadline(now: now)
            do {
                try systemCall(retryOnInterrupt: false) { poll(&fds, nfds_t(fds.count), timeout) }
            } catch where error == .interrupted {
                continue
            } catch {
                logger.error("control: poll failed (\(error))")
                onDeath(error)
                return
            }
            if fds[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wake.read, &drain, drain.count) > 0 {}
                let (changes, stop) = mail.withLock { mail in
                    defer { mail.changes = [] }
                    return (mail.changes, mail.stop)
                }
                if stop {
                    logger.debug("control: stopping")
                    return
                }
                tellIdleClients(changes)
            }
            retryTCP(now: MonotonicClock.now())
            for (entry, client) in zip(fds, polled).dropFirst() {
                guard let client else {
                    if entry.revents != 0 { accept(on: entry.fd) }
                    continue
                }
                if client.failed {  // closed to make room for another
                    remove(client)
                    continue
                }
                if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { receive(client, into: &buffer) }
                run(client)
                if client.pendingOutput > 0 { send(client) }
                if client.failed || (client.closing && client.pendingOutput == 0) { remove(client) }
            }
            closeIdle()
        }
    }

    /// When `client` is closed for its silence: a guest `password_timeout` seconds after
    /// it last sent anything, idle or not; another client `connection_timeout` seconds
    /// after it last sent or read, except while it waits in `idle` (as in MPD).
    private func deadline(of client: ControlConnection) -> UInt64? {
        if client.isGuest { return client.lastReceived + UInt64(limits.passwordTimeoutSeconds) * 1_000_000_000 }
        guard !client.session.isIdle else { return nil }
        return client.lastActivity + UInt64(limits.connectionTimeoutSeconds) * 1_000_000_000
    }

    /// Until the next timeout, held answer or TCP retry; -1 (sleep until something
    /// happens) when there is none.
    private func millisecondsUntilNextDeadline(now: UInt64) -> Int32 {
        // A plain loop: this runs at every turn, where a filter and a map cost two arrays.
        var next = tcpPending?.retryAt ?? .max
        for client in clients.values {
            if let deadline = deadline(of: client) { next = min(next, deadline) }
            if client.isHeld(at: now) { next = min(next, client.heldUntil) }
        }
        guard next != .max else { return -1 }
        guard next > now else { return 0 }
        return Int32(min((next - now) / 1_000_000 + 1, 60_000))
    }

    private func closeIdle() {
        let now = MonotonicClock.now()
        for client in clients.values {
            guard let deadline = deadline(of: client), now >= deadline else { continue }
            let limit = client.isGuest ? "\(limits.passwordTimeoutSeconds) s without the password" : "\(limits.connectionTimeoutSeconds) s"
            logger.debug("control: closing \(client.peer), silent for \(limit)")
            remove(client)
        }
    }

    /// Closes a client's connection and forgets it: its subscriptions end with it.
    private func remove(_ client: ControlConnection) {
        close(client.fd)
        clients[client.fd] = nil
        board.leave(client.session)
    }

    private func accept(on listener: Int32) {
        let fd: Int32
        var address = sockaddr_storage()
        do {
            fd = try systemCall {
                withUnsafeMutablePointer(to: &address) { storage in
                    storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                        return jukebox_accept4(listener, pointer, &length, Self.nonBlockingOnExecClosed)
                    }
                }
            }
        } catch where error == .wouldBlock || error == Errno(ECONNABORTED) {
            return  // the client gave up before we got to it
        } catch {
            // Out of descriptors or memory: the listener stays readable, so pause rather
            // than spin, and say so once until an accept works again.
            if !warnedAcceptFailing { logger.warning("control: cannot accept a client (\(error)); retrying") }
            warnedAcceptFailing = true
            MonotonicClock.sleep(until: MonotonicClock.now() + 100_000_000)
            return
        }
        warnedAcceptFailing = false
        let local = listener == localListener
        // The Unix socket's clients and TCP's have slots of their own: a crowd on the
        // network never locks out the box itself. A full TCP side makes room by closing
        // its oldest guest.
        var taken = 0
        var oldestGuest: ControlConnection?
        for client in clients.values where client.local == local && !client.failed {
            taken += 1
            if client.isGuest, client.connected < oldestGuest?.connected ?? .max { oldestGuest = client }
        }
        if taken >= limits.maximumConnections, let oldestGuest {
            if !warnedEvicting {  // once per crowd
                logger.warning("control: \(limits.maximumConnections) TCP clients connected (max_connections); closing the oldest without the password (\(oldestGuest.peer)) to make room, and so on")
                warnedEvicting = true
            }
            oldestGuest.failed = true
            taken -= 1
        }
        guard taken < limits.maximumConnections else {
            let refusal = Array("ACK [\(MPDProtocol.AckCode.system.rawValue)@0] {} too many clients (max_connections is \(limits.maximumConnections))\n".utf8)
            _ = refusal.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(fd)
            if !warnedFull {  // once per crowd, not once per attempt: a client retrying in a loop must not flood the log
                logger.warning("control: \(limits.maximumConnections) clients connected (max_connections); refusing more")
                warnedFull = true
            }
            return
        }
        if taken < limits.maximumConnections - 1 { warnedFull = false; warnedEvicting = false }
        let session = ControlSession(player: player, scope: scope, catalog: catalog, outputs: outputs, local: local,
                                     password: password,
                                     maximumCommandListBytes: limits.maximumCommandListBytes, commandsPerCall: Self.linesPerTurn,
                                     board: board, stickers: stickers)
        session.announce = { [weak self] in self?.announce($0) }
        session.cardReported = onCard
        session.streamsReplies = true
        session.background = { [weak self] job in
            self?.files.run { [weak self] in
                job()
                self?.post { _ in }  // wakes the loop, which asks the waiting stream again
            }
        }
        let client = ControlConnection(fd: fd, session: session, peer: local ? "the Unix socket" : Self.describe(address), local: local,
                                       now: MonotonicClock.now())
        session.wake = { [weak self, weak client] answer in
            guard let self, let client else { return }
            client.reply(answer)
            send(client)
        }
        client.reply(MPDProtocol.greeting)
        clients[fd] = client
        send(client)
    }

    /// One read of up to `bytesPerRead`: a client sending without pause is read again
    /// only after everyone else has had a turn.
    private func receive(_ client: ControlConnection, into buffer: inout [UInt8]) {
        guard !client.inputEnded, !client.closing else { return }
        do {
            let n = try buffer.withUnsafeMutableBytes { raw in
                try systemCall { read(client.fd, raw.baseAddress, raw.count) }
            }
            if n == 0 {
                client.inputEnded = true  // half-closed: what it sent is still answered
                return
            }
            buffer.withUnsafeBytes { client.receive(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            client.lastActivity = MonotonicClock.now()
            client.lastReceived = client.lastActivity
        } catch let error as Errno where error == .wouldBlock {
        } catch {
            client.failed = true
        }
    }

    /// Runs up to `linesPerTurn` of the client's complete lines, or as many commands of
    /// a command list.
    private func run(_ client: ControlConnection) {
        guard !client.isHeld(at: MonotonicClock.now()) else { return }
        let wrongPasswords = client.session.wrongPasswords
        defer { if client.session.wrongPasswords > wrongPasswords { passwordRefused(client) } }
        var budget = Self.linesPerTurn
        turn: while budget > 0, !client.closing, client.pendingOutput < Self.outputBackPressure {
            if client.stream != nil {
                // More of the reply only as the client takes it: never more than the
                // back-pressure mark and one chunk waits for it.
                switch client.continueStream() {
                case .waiting: break turn
                case .more, .done: budget -= 1
                }
                continue
            }
            let outcome: ControlSession.Outcome
            if client.session.isRunningList {
                outcome = client.session.continueList()
                budget = 0
            } else if let line = client.takeLine() {
                outcome = client.session.handle(line: line)
                budget -= 1
            } else {
                break
            }
            switch outcome {
            case .reply(let text): client.reply(text)
            case .replyBytes(let bytes): client.reply(bytes: bytes)
            case .stream(let stream): client.stream = stream
            case .replyAndClose(let text): client.reply(text); client.closing = true; client.discardInput()
            case .close: client.closing = true; client.discardInput()
            case .none: break
            }
            if client.session.wrongPasswords > wrongPasswords { break }  // its answer waits: see passwordRefused
        }
        if client.pendingOutput > limits.maximumOutputBytes {
            logger.warning("control: closing \(client.peer): a reply over max_output_buffer_size (\(limits.maximumOutputBytes >> 10) KiB)")
            client.failed = true
            return
        }
        guard !client.closing, client.stream == nil, !client.session.isRunningList, !client.hasCompleteLine else { return }
        if client.unfinishedLineLength > ControlSession.maximumLineLength {
            client.reply("ACK [\(MPDProtocol.AckCode.argument.rawValue)@0] {} line too long\n")
            client.closing = true
            client.discardInput()
        } else if client.inputEnded {
            client.closing = true  // every whole line is answered; a last partial one is dropped
        }
    }

    /// A wrong password: its answer is held back, longer after each, and after a few the
    /// connection closes. The peer is named in the log, for the admin (or fail2ban).
    private func passwordRefused(_ client: ControlConnection) {
        let failures = client.session.wrongPasswords
        client.heldUntil = MonotonicClock.now() + Self.passwordDelay(afterFailures: failures)
        if failures >= Self.passwordAttempts {
            logger.warning("control: wrong password from \(client.peer) (\(failures) times); closing the connection")
            client.closing = true
            client.discardInput()
        } else {
            logger.warning("control: wrong password from \(client.peer) (\(failures) of \(Self.passwordAttempts) tries)")
        }
    }

    private func send(_ client: ControlConnection) {
        guard !client.isHeld(at: MonotonicClock.now()) else { return }
        while client.pendingOutput > 0 {
            var failure: Errno?
            let sent = client.flush { bytes in
                do {
                    return try systemCall { Glibc.send(client.fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
                } catch let error as Errno {
                    failure = error
                    return 0
                } catch {
                    failure = .brokenPipe
                    return 0
                }
            }
            if let failure {
                if failure != .wouldBlock { client.failed = true }
                return
            }
            if sent > 0 { client.lastActivity = MonotonicClock.now() }
        }
    }

    // MARK: Listening sockets

    /// A TCP peer as the log names it: `192.168.1.20:50312`, `[fe80::1]:50312`.
    static func describe(_ address: sockaddr_storage) -> String {
        var address = address
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        func hostText(_ text: [CChar]) -> String { String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return withUnsafePointer(to: &address) { storage in
            switch Int32(storage.pointee.ss_family) {
            case AF_INET:
                return storage.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var host = v4.pointee.sin_addr
                    inet_ntop(AF_INET, &host, &text, socklen_t(text.count))
                    return "\(hostText(text)):\(UInt16(bigEndian: v4.pointee.sin_port))"
                }
            case AF_INET6:
                return storage.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var host = v6.pointee.sin6_addr
                    inet_ntop(AF_INET6, &host, &text, socklen_t(text.count))
                    return "[\(hostText(text))]:\(UInt16(bigEndian: v6.pointee.sin6_port))"
                }
            default:
                return "an unknown peer"
            }
        }
    }

    /// Every descriptor the server makes is non-blocking and closed on exec from the call
    /// that makes it (socket, accept4, pipe2).
    static let nonBlockingOnExecClosed = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    private static let streamSocket = Int32(SOCK_STREAM.rawValue) | nonBlockingOnExecClosed

    static func listenUnix(_ path: String) throws(StartError) -> Int32 {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        if !folder.isEmpty { mkdir(folder, 0o755) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw .pathTooLong(path: path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else { throw .notASocket(path: path) }
            guard !someoneAnswers(at: &address) else { throw .alreadyServed(path: path) }
            unlink(path)  // stale: left by a daemon that was killed
        }
        let fd = try listening(AF_UNIX, &address, describedAs: path)
        chmod(path, 0o666)  // anyone logged in to the box may control the music
        return fd
    }

    /// Whether a process accepts connections at `address`. Only a refused connection
    /// means the socket is stale; a full backlog (a stopped daemon) still counts as live.
    private static func someoneAnswers(at address: inout sockaddr_un) -> Bool {
        let fd = socket(AF_UNIX, streamSocket, 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        do {
            try socketAddressCall(&address) { connect(fd, $0, $1) }
            return true
        } catch {
            return !(error == .connectionRefused || error == .noEntry)
        }
    }

    /// An IPv4 or IPv6 address to listen on, as written in the config.
    public enum TCPAddress: Sendable {
        case v4(in_addr_t)
        case v6(in6_addr)

        public init?(_ text: String) {
            var v4 = in_addr()
            var v6 = in6_addr()
            if inet_pton(AF_INET, text, &v4) == 1 {
                self = .v4(v4.s_addr)
            } else if inet_pton(AF_INET6, text, &v6) == 1 {
                self = .v6(v6)
            } else {
                return nil
            }
        }

        /// Only this machine can connect.
        public var isLoopback: Bool {
            switch self {
            case .v4(let address): UInt32(bigEndian: address) >> 24 == 127
            case .v6(var address): withUnsafeBytes(of: &address) { $0.dropLast().allSatisfy { $0 == 0 } && $0.last == 1 }
            }
        }
    }

    static func listenTCP(address text: String, port: Int) throws(StartError) -> Int32 {
        let name = text.contains(":" as Character) ? "[\(text)]:\(port)" : "\(text):\(port)"
        switch TCPAddress(text) {
        case .v4(let host):
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = host
            return try listening(AF_INET, &address, describedAs: name)
        case .v6(let host):
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            address.sin6_addr = host
            return try listening(AF_INET6, &address, describedAs: name)
        case nil:
            throw .cannotListen(address: name, Errno(EINVAL))
        }
    }

    /// A non-blocking stream socket bound to `address` and listening.
    private static func listening<Address>(_ family: Int32, _ address: inout Address, describedAs name: String) throws(StartError) -> Int32 {
        let fd: Int32
        do {
            fd = try systemCall { socket(family, streamSocket, 0) }
        } catch {
            throw .cannotListen(address: name, error)
        }
        var yes: Int32 = 1
        if family != AF_UNIX { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)) }
        do {
            try socketAddressCall(&address) { bind(fd, $0, $1) }
            try systemCall { listen(fd, 64) }
        } catch {
            close(fd)
            throw .cannotListen(address: name, error)
        }
        return fd
    }
}
