import FoundationEssentials
import HTTPTypes
import HummingbirdCore
import NIOCore

/// How the page's answers are made: JSON with no caching, and the headers every answer
/// carries (the page's own files are `PageFile`).
enum PageReplies {
    /// The page loads nothing from anywhere else, and nothing may frame it.
    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy: "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        HTTPField.Name("X-Frame-Options")!: "DENY",
    ]

    /// Paths are the page's everyday text: "/" is left as it is.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return encoder
    }

    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, extra: HTTPFields = [:]) -> Response {
        var headers = securityHeaders
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, extra: HTTPFields = [:]) -> Response {
        json((try? Array(encoder.encode(value))) ?? Array("{}".utf8), status: status, extra: extra)
    }

    struct Failure: Encodable {
        var ok = false
        var error: String
        var retryAfter: Double?
    }

    struct Done: Encodable {
        var ok = true
    }

    static func refused(_ status: HTTPResponse.Status, _ reason: String, retryAfter: Double? = nil) -> Response {
        var extra: HTTPFields = [:]
        if let retryAfter { extra[.retryAfter] = "\(Int(retryAfter.rounded(.up)))" }
        return json(Failure(error: reason, retryAfter: retryAfter), status: status, extra: extra)
    }

    /// A small JSON body, decoded; nil (with the reason) when it is not what was asked.
    static func decode<Body: Decodable>(_ type: Body.Type, from request: Request, context: PageContext) async -> Result<Body, PageRefusal> {
        do {
            let buffer = try await request.body.collect(upTo: context.maxUploadSize)
            return .success(try JSONDecoder().decode(Body.self, from: Data(buffer.readableBytesView)))
        } catch {
            return .failure(PageRefusal("the request's body is not the JSON expected"))
        }
    }
}

/// Why the page's request was refused, in words for the person holding the phone.
struct PageRefusal: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
