import NIOCore

/// What a request's handler knows besides the request: the address it came from (for
/// the login back-off, the log, and the followers per address).
struct PageContext: Sendable {
    let peer: String

    init(channel: any Channel) {
        peer = channel.remoteAddress?.ipAddress ?? "unknown"
    }

    init(peer: String) { self.peer = peer }

    /// JSON bodies the page sends are small; uploads stream and never collect.
    var maxUploadSize: Int { 512 << 10 }
}
