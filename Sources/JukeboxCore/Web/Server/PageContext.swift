import Hummingbird
import NIOCore

/// A request's context: Hummingbird's, with the address the request came from (for the
/// login back-off, the log, and the followers per address).
struct PageContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let peer: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// JSON bodies the page sends are small; uploads stream and never collect.
    var maxUploadSize: Int { 512 << 10 }
}
