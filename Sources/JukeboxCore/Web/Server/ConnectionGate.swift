import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Keeps slow and hostile clients from filling the page server: every connection passes
/// through one gate, which counts them on the server's event loop.
///
/// A connection waiting for a request (just opened, or between requests) costs little
/// but can be held open for nothing (slowloris): at most `waitingLimit` wait at once,
/// and one more closes the one that has waited longest, so a crowd of idle connections
/// can never lock out a phone that sends its request at once. (Hummingbird's idle
/// timeout closes one whose request does not arrive in time.) A request being answered
/// must go on moving: one that sends or takes nothing for `stallSeconds` is closed, but
/// for a followed feed (`/api/events`), which waits for changes. Any connection whose
/// reader takes nothing for `stallSeconds` while the box has bytes for it (the socket
/// stays unwritable) is closed, followed feeds too. Past `hardLimit` connections a new
/// one is closed at once.
final class ConnectionGate: @unchecked Sendable {
    struct Limits: Sendable {
        var waitingLimit = 128
        var hardLimit = 512
        var stallSeconds: Int64 = 30
    }

    let limits: Limits
    // Touched on the event loop only (the server runs one).
    private var waiting: [ObjectIdentifier: (since: UInt64, channel: any Channel)] = [:]
    private var open = 0

    init(limits: Limits = Limits()) { self.limits = limits }

    var handler: Handler { Handler(gate: self) }

    fileprivate func opened(_ channel: any Channel) -> Bool {
        open += 1
        guard open <= limits.hardLimit else { return false }
        startWaiting(channel)
        return true
    }

    fileprivate func closed(_ channel: any Channel) {
        open -= 1
        waiting[ObjectIdentifier(channel)] = nil
    }

    fileprivate func startWaiting(_ channel: any Channel) {
        waiting[ObjectIdentifier(channel)] = (MonotonicClock.now(), channel)
        guard waiting.count > limits.waitingLimit, let oldest = waiting.min(by: { $0.value.since < $1.value.since }) else { return }
        waiting[oldest.key] = nil
        oldest.value.channel.close(promise: nil)
    }

    fileprivate func stopWaiting(_ channel: any Channel) { waiting[ObjectIdentifier(channel)] = nil }

    /// One per connection, after the HTTP codec.
    final class Handler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart

        private let gate: ConnectionGate
        private var counted = false
        /// A request is being answered and must keep moving.
        private var stall: Scheduled<Void>?
        private var watched = false
        /// The reader stopped taking bytes.
        private var unread: Scheduled<Void>?

        init(gate: ConnectionGate) { self.gate = gate }

        func handlerAdded(context: ChannelHandlerContext) {
            counted = true
            if !gate.opened(context.channel) { context.close(promise: nil) }
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            stall?.cancel()
            unread?.cancel()
            if counted { gate.closed(context.channel) }
            counted = false
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let head) = unwrapInboundIn(data) {
                gate.stopWaiting(context.channel)
                watched = !(head.path ?? "").hasPrefix("/api/events")
            }
            if watched { rearm(context) }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data) {
                stall?.cancel()
                stall = nil
                watched = false
                gate.startWaiting(context.channel)
            } else if watched {
                rearm(context)
            }
            context.write(data, promise: promise)
        }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            unread?.cancel()
            unread = nil
            if !context.channel.isWritable {
                let channel = context.channel
                unread = context.eventLoop.scheduleTask(in: .seconds(gate.limits.stallSeconds)) { channel.close(promise: nil) }
            }
            context.fireChannelWritabilityChanged()
        }

        private func rearm(_ context: ChannelHandlerContext) {
            stall?.cancel()
            let channel = context.channel
            stall = context.eventLoop.scheduleTask(in: .seconds(gate.limits.stallSeconds)) { channel.close(promise: nil) }
        }
    }
}
