import HTTPTypes
import HummingbirdCore
import NIOCore

/// One of the page's own files as the server sends it: its bytes, its type, and an ETag
/// made from the bytes. A phone that opens the page again asks with `If-None-Match` and,
/// while the binary is the same, gets a 304 of a few hundred bytes instead of the file.
struct PageFile: Sendable {
    let bytes: ByteBuffer
    let type: String
    let etag: String

    init(_ text: String, type: String) {
        bytes = ByteBuffer(string: text)
        self.type = type
        etag = "\"" + String(Self.fingerprint(text.utf8), radix: 16) + "\""
    }

    static let html = PageFile(PageAssets.html, type: "text/html; charset=utf-8")
    static let script = PageFile(PageAssets.script, type: "text/javascript; charset=utf-8")
    static let style = PageFile(PageAssets.style, type: "text/css; charset=utf-8")

    /// The file, or 304 when `ifNoneMatch` (the request's header) names this version.
    func reply(ifNoneMatch: String?) -> Response {
        var headers = PageReplies.securityHeaders
        // Kept, but asked about again each time: a new binary's page is seen at once.
        headers[.cacheControl] = "no-cache"
        headers[.eTag] = etag
        if let ifNoneMatch, Self.matches(ifNoneMatch, etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = type
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }

    /// Whether an `If-None-Match` list names `etag` (RFC 9110 13.1.2: weak comparison, `*`).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { item in
            var tag = item.drop { $0 == " " || $0 == "\t" }
            while let last = tag.last, last == " " || last == "\t" { tag = tag.dropLast() }
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag
        }
    }

    /// FNV-1a, 64 bits: a validator needs to change with the bytes, not to resist anyone.
    static func fingerprint(_ bytes: String.UTF8View) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
