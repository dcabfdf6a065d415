import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// HummingbirdCore's HTTP server, run for the page on an event loop of its own (no Date
/// header: a box without a clock battery may not know the date): started on a task, told
/// to stop gracefully, and given a moment before its task is cancelled outright.
final class PageServer: @unchecked Sendable {
    /// One loop thread for every page server the process starts, made on first use and
    /// never shut down. HummingbirdCore finishes a graceful stop on a task of its own, which
    /// may run after the server's task has ended (late, when Swift's pool is busy); on a
    /// loop already shut down its promises would be dropped unfulfilled, which NIO's debug
    /// builds trap on, and release builds leak.
    private static let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let executor = PageExecutor()
    private var task: Task<Void, any Error>?
    private var lifecycle: ServiceLifecycle.ServiceGroup?
    /// The listening socket, once it listens.
    private let listening = ConditionLocked<(any Channel)?>(nil)

    /// What answers each request.
    typealias Respond = @Sendable (Request, PageContext) async -> Response

    enum Started {
        case listening(port: Int)
        case failed(any Error)
    }

    /// Starts listening; returns once it listens or could not. `ended` is told if it
    /// stops by itself later.
    func start(address: String, port: Int, respond: @escaping Respond, logger: Logger,
               ended: @escaping @Sendable (any Error) -> Void) -> Started {
        let outcome = ConditionLocked<Started?>(nil)
        let gate = ConnectionGate()
        let server: any ServiceLifecycle.Service
        do {
            // HummingbirdCore's HTTP/1 server: NIO's parser, header limits, and a deadline
            // for each request's head (slowloris is closed); the gate bounds the rest.
            server = try HTTPServerBuilder.http1(configuration: .init(
                additionalChannelHandlers: [gate.handler],
                idleTimeout: .seconds(10),
                httpDecoderConfiguration: .init(maxHeaderFieldSize: 8 << 10, maxHeaderListSize: 16 << 10, maxHeaderFieldCount: 64))
            ).buildServer(
                configuration: .init(address: .hostname(address, port: port), serverName: nil, backlog: 1024, reuseAddress: true),
                eventLoopGroup: Self.loop, logger: Self.quiet(logger),
                responder: { request, writer, channel in
                    let response = await respond(request, PageContext(channel: channel))
                    try await writer.write(response: response.head, body: response.body)
                },
                onServerRunning: { [listening] channel in
                    listening.withLock { $0.wholeValue = channel }
                    outcome.withLock { access in
                        access.wholeValue = .listening(port: channel.localAddress?.port ?? port)
                        access.broadcast()
                    }
                })
        } catch {
            return .failed(error)
        }
        let lifecycle = ServiceLifecycle.ServiceGroup(configuration: .init(services: [server], logger: Self.quiet(logger)))
        self.lifecycle = lifecycle
        task = Task(executorPreference: executor) {
            do {
                try await lifecycle.run()
            } catch {
                let first = outcome.withLock { access -> Bool in
                    guard case .none = access.wholeValue else { return false }
                    access.wholeValue = .failed(error)
                    access.broadcast()
                    return true
                }
                if !first { ended(error) }
                throw error
            }
        }
        let deadline = MonotonicClock.now() + Self.startPatience
        return outcome.withLock { access -> Started in
            while MonotonicClock.now() < deadline {
                if let started = access.wholeValue { return started }
                access.wait(nanoseconds: 100_000_000)
            }
            return .failed(StartTimeout())
        }
    }

    /// A server that neither listens nor fails in this time is given up (and retried).
    static let startPatience: UInt64 = 10_000_000_000

    struct StartTimeout: Error, CustomStringConvertible {
        var description: String { "it did not start within 10 s" }
    }

    /// Stops gracefully, waiting at most `patience` seconds before cancelling.
    func stop(patience: Double = 2) {
        let done = ConditionLocked(false)
        let lifecycle = self.lifecycle
        let task = self.task
        Task(executorPreference: executor) {
            await lifecycle?.triggerGracefulShutdown()
            _ = try? await task?.value
            done.withLock { $0.wholeValue = true; $0.broadcast() }
        }
        let deadline = MonotonicClock.now() + UInt64(patience * 1e9)
        let finished = done.withLock { access -> Bool in
            while !access.wholeValue, MonotonicClock.now() < deadline { access.wait(nanoseconds: 50_000_000) }
            return access.wholeValue
        }
        guard !finished else { return }
        task?.cancel()
        // The cancelled task closes the socket when Swift's pool gets to it; a reload
        // that starts the next server at once must find the port free now.
        try? listening.current?.close().wait()
    }

    /// The server's own log is for its developers: only its errors reach ours.
    private static func quiet(_ logger: Logger) -> Logger {
        var logger = logger
        logger.logLevel = .error
        return logger
    }
}
