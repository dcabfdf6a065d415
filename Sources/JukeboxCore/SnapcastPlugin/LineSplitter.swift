/// Newline-delimited input cut into lines of at most `maximumBytes`. A longer line is
/// dropped as it arrives and reported once, so garbage on the pipe costs at most the
/// limit in memory, and the lines after it are read as usual.
public struct LineSplitter: Sendable {
    public enum Piece: Equatable, Sendable {
        case line(String)
        /// A line longer than the limit, dropped; `bytes` counts what was dropped.
        case overlong(bytes: Int)
    }

    public let maximumBytes: Int
    private var pending: [UInt8] = []
    /// Bytes of an overlong line dropped so far, until its newline comes.
    private var dropping: Int?

    public init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// The whole lines `bytes` completes, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [Piece] {
        var pieces: [Piece] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if let dropped = dropping {
                    pieces.append(.overlong(bytes: dropped))
                    dropping = nil
                } else {
                    if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
                    pieces.append(.line(String(decoding: pending, as: UTF8.self)))
                }
                pending.removeAll(keepingCapacity: true)
            } else if dropping != nil {
                dropping! += 1
            } else if pending.count == maximumBytes {
                dropping = pending.count + 1
                pending = []
            } else {
                pending.append(byte)
            }
        }
        return pieces
    }

    /// What is left when the input ends: a last line without its newline.
    public mutating func finish() -> [Piece] {
        defer { pending = []; dropping = nil }
        if let dropped = dropping { return [.overlong(bytes: dropped)] }
        return pending.isEmpty ? [] : [.line(String(decoding: pending, as: UTF8.self))]
    }
}
