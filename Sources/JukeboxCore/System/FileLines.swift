/// The lines of a file, read in pieces of 64 KiB, so that a large file (the library index,
/// a long playlist) is never whole in memory: the reader holds a piece and one line.
struct FileLines {
    static let pieceSize = 64 << 10
    private let reader: FileReader
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer`.
    private var start = 0
    /// The file offset just after `buffer`.
    private var offset: Int64 = 0
    private var atEnd = false
    /// A longer line stops the reading: a file with no line breaks is not a list of lines.
    let maximumLength: Int
    /// Whether the last line given ended with a line break (false: the file was cut there).
    private(set) var lineEnded = true

    init(path: String, maximumLength: Int = 1 << 20) throws {
        reader = try FileReader(path: path)
        self.maximumLength = maximumLength
        buffer.reserveCapacity(Self.pieceSize)
    }

    var size: Int64 { reader.size }

    /// The next line without its `\n` (a last line without one too); nil at the end.
    mutating func next() throws -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                defer { start = newline + 1 }
                lineEnded = true
                return buffer[start..<newline]
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                lineEnded = false
                return buffer[start...]
            }
            buffer.removeFirst(start)
            start = 0
            guard buffer.count <= maximumLength else {
                throw MediaError.unsupported(reader.path, "a line longer than \(maximumLength) bytes")
            }
            let kept = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: Self.pieceSize))
            let count = try buffer.withUnsafeMutableBytes { raw in
                try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[kept...]), at: offset)
            }
            buffer.removeLast(Self.pieceSize - count)
            offset += Int64(count)
            if count == 0 { atEnd = true }
        }
    }
}

/// Lines one at a time, without their `\n`.
protocol LineSource {
    associatedtype Failure: Error
    mutating func next() throws(Failure) -> ArraySlice<UInt8>?
    /// Whether the last line given ended with a line break.
    var lineEnded: Bool { get }
}

extension FileLines: LineSource {
    typealias Failure = any Error
}

/// The lines of bytes already in memory.
struct ByteLines: LineSource {
    typealias Failure = Never
    var bytes: ArraySlice<UInt8>
    private(set) var lineEnded = true

    init(bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    mutating func next() -> ArraySlice<UInt8>? {
        guard !bytes.isEmpty else { return nil }
        guard let newline = bytes.firstIndex(of: 0x0A) else {
            defer { bytes = bytes[bytes.endIndex...] }
            lineEnded = false
            return bytes
        }
        defer { bytes = bytes[(newline + 1)...] }
        lineEnded = true
        return bytes[..<newline]
    }
}
