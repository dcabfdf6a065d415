/// The upload's length: the Content-Length must be given and within the limit before
/// anything is written, and the body may not run past it.
struct UploadSize: Sendable, Equatable {
    let declared: Int64
    private(set) var received: Int64 = 0

    init(declared: Int64?, limit: Int64) throws(UploadRefusal) {
        guard let declared else { throw .needsLength }
        guard declared >= 0 else { throw .badRequest("the Content-Length \(declared) is negative") }
        guard declared <= limit else { throw .tooBig(declared, limit: limit) }
        self.declared = declared
    }

    /// Counts `count` more bytes, refusing them when they would pass the declared length
    /// (which is within the limit).
    mutating func arrive(_ count: Int) throws(UploadRefusal) {
        guard Int64(count) <= declared - received else { throw .moreThanDeclared(declared) }
        received += Int64(count)
    }

    /// At the end: every declared byte must have come.
    func checkComplete() throws(UploadRefusal) {
        guard received == declared else { throw .stoppedEarly(received: received, declared: declared) }
    }
}
