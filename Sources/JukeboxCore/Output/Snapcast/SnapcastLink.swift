/// The connection a Snapcast output writes the stream into: snapserver's pipe or its TCP
/// port. Writes never block: the output waits for room itself, a period at most, so a
/// pause or seek is taken at once. Used on the audio thread only.
protocol SnapcastLink: AnyObject {
    /// Opens it (or keeps the one a look found); snapserver not running is `.absent`.
    /// `bufferBytes` is the most the output keeps queued.
    func open(bufferBytes: Int) throws(OutputError)
    var isOpen: Bool { get }
    /// Whether snapserver is there to take the stream, without waiting. A link found is
    /// kept open, so snapserver never sees the stream end between the look and the use.
    func isPresent() -> Bool
    /// Writes what fits now; returns the bytes written (0 when full).
    func writeSome(_ bytes: UnsafeRawBufferPointer) throws(OutputError) -> Int
    /// Waits up to `milliseconds` for room; false when there is none yet.
    func waitForRoom(milliseconds: Int) throws(OutputError) -> Bool
    /// Bytes written that snapserver has not taken yet.
    func unread() -> Int
    /// Takes back up to `bytes` of what snapserver has not read, the newest first, in
    /// whole frames of `frameBytes`; returns how many bytes it took.
    func takeBack(_ bytes: Int, frameBytes: Int) -> Int
    func close()
}
