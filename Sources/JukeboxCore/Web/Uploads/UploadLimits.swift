/// What the box accepts from its web page: how big a file, how many at once, and how much
/// of the disk must stay free whatever is uploaded (the state, the index and the logs
/// still need room).
public struct UploadLimits: Sendable, Equatable {
    /// Largest file, in bytes.
    public var maxBytes: Int64
    /// Uploads in flight at one time.
    public var maxAtOnce: Int
    /// Free space, in bytes, that an upload may not take.
    public var reserveBytes: Int64

    public init(maxBytes: Int64 = 1024 * UploadLimits.megabyte, maxAtOnce: Int = 2,
                reserveBytes: Int64 = 200 * UploadLimits.megabyte) {
        self.maxBytes = maxBytes
        self.maxAtOnce = maxAtOnce
        self.reserveBytes = reserveBytes
    }

    /// The settings' and the messages' megabyte (`max_upload_mb`, `keep_free_mb`).
    public static let megabyte: Int64 = 1 << 20

    /// Whole megabytes, rounded down, for messages.
    static func megabytes(_ bytes: Int64) -> Int64 { max(0, bytes) / megabyte }
}
