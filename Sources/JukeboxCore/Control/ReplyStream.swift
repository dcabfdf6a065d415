/// A reply made as the client reads it: each `produce` appends about `chunkBytes` more,
/// and the server asks for more only once the client has taken what it had. A listing
/// of 100,000 songs never sits whole in memory, and a client that reads slowly only
/// slows itself. A step may also wait for work done off the control thread (a stored
/// playlist read from disk); the server then serves the others and asks again later.
public final class ReplyStream: Equatable {
    public enum Step: Sendable { case more, waiting, done }

    /// About this much is made per step.
    static let chunkBytes = 64 << 10
    /// At most this many items are made per step, so that one that appends nothing does
    /// not hold the control thread.
    static let stepItems = 2048

    private let step: (inout [UInt8]) throws -> Step

    /// `step` appends the next part to its argument and says whether more follows; it
    /// may throw an `MPDProtocol.Ack` before it has made anything.
    init(_ step: @escaping (inout [UInt8]) throws -> Step) {
        self.step = step
    }

    public func produce(into out: inout [UInt8]) throws -> Step { try step(&out) }

    public static func == (a: ReplyStream, b: ReplyStream) -> Bool { a === b }

    /// `count` items, each appended by `item`, as many per step as fill a chunk.
    static func items(_ count: Int, _ item: @escaping (Int, inout [UInt8]) -> Void) -> ReplyStream {
        var next = 0
        return ReplyStream { out in
            let start = out.count
            while next < count, out.count - start < chunkBytes {
                item(next, &out)
                next += 1
            }
            return next < count ? .more : .done
        }
    }

    /// Items appended by `item` until it says there are no more (it returns false, having
    /// appended nothing), as many per step as fill a chunk: for a list not counted ahead.
    /// An item may append nothing (one passed over); a step then ends after `stepItems`.
    static func items(until item: @escaping (inout [UInt8]) -> Bool) -> ReplyStream {
        var ended = false
        return ReplyStream { out in
            let start = out.count
            var made = 0
            while !ended, out.count - start < chunkBytes, made < stepItems {
                ended = !item(&out)
                made += 1
            }
            return ended ? .done : .more
        }
    }

    static func text(_ text: String) -> ReplyStream {
        ReplyStream { out in
            out.append(contentsOf: text.utf8)
            return .done
        }
    }

    /// This stream, then `next`.
    func followed(by next: ReplyStream) -> ReplyStream {
        var first = true
        return ReplyStream { out in
            if first {
                let step = try self.produce(into: &out)
                guard step == .done else { return step }
                first = false
                return .more
            }
            return try next.produce(into: &out)
        }
    }

    /// The whole reply as text, for a caller that takes it at once (tests, the keyboard);
    /// work off the thread must then have been done in line.
    func drained() throws -> String {
        var out: [UInt8] = []
        while try produce(into: &out) == .more {}
        return String(decoding: out, as: UTF8.self)
    }
}

/// What a command answers: text made at once, or a stream made as the client reads.
enum Reply: ExpressibleByStringInterpolation {
    case text(String)
    case stream(ReplyStream)

    init(stringLiteral value: String) { self = .text(value) }
    init(stringInterpolation: DefaultStringInterpolation) { self = .text(String(stringInterpolation: stringInterpolation)) }
}
