#if canImport(Glibc)
import Glibc
#endif

/// Why an upload is not taken: the HTTP status the web route answers and a sentence for
/// the person uploading. Every refusal the upload rules make is built here, so the
/// statuses and the wording can be read in one place.
public struct UploadRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status the route answers with.
    public var status: Int
    public var reason: String

    public init(status: Int, reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(reason) (HTTP \(status))" }
}

extension UploadRefusal {
    /// 400: the name, or the way the body arrived, is wrong.
    static func badRequest(_ reason: String) -> UploadRefusal { UploadRefusal(status: 400, reason: reason) }

    /// 409: a file is already where the upload would go.
    static func alreadyThere(_ relativePath: String) -> UploadRefusal {
        UploadRefusal(status: 409, reason: "\(relativePath) is already in the library")
    }

    /// 409: a file sits where a folder of the name should be.
    static func notAFolder(_ relativePath: String) -> UploadRefusal {
        UploadRefusal(status: 409, reason: "\(relativePath) is a file, not a folder")
    }

    /// 400: a link on the way could lead out of the upload folder.
    static func symbolicLink(_ relativePath: String) -> UploadRefusal {
        badRequest("\(relativePath) is a symbolic link")
    }

    static let needsLength = UploadRefusal(status: 411, reason: "an upload needs a Content-Length")

    static func tooBig(_ bytes: Int64, limit: Int64) -> UploadRefusal {
        UploadRefusal(status: 413, reason: "the file is \(UploadLimits.megabytes(bytes)) MB, more than the \(UploadLimits.megabytes(limit)) MB an upload may be")
    }

    static func moreThanDeclared(_ declared: Int64) -> UploadRefusal {
        UploadRefusal(status: 413, reason: "more bytes arrived than the Content-Length said (\(declared))")
    }

    static func stoppedEarly(received: Int64, declared: Int64) -> UploadRefusal {
        badRequest("the upload stopped early (\(received) of \(declared) bytes)")
    }

    static func notPlayableName(_ extensionShown: String) -> UploadRefusal {
        UploadRefusal(status: 415, reason: "not a music file the box plays (\(extensionShown))")
    }

    static func notThisFormat(_ format: String) -> UploadRefusal {
        UploadRefusal(status: 415, reason: "this is not \(format) file")
    }

    /// 415 with the decoder's own reason.
    static func cannotPlay(_ reason: String) -> UploadRefusal {
        UploadRefusal(status: 415, reason: "the box cannot play this file: \(reason)")
    }

    static func tooManyAtOnce(_ limit: Int) -> UploadRefusal {
        UploadRefusal(status: 429, reason: "\(limit) uploads at once at most")
    }

    static func diskNearlyFull(free: Int64, kept: Int64) -> UploadRefusal {
        UploadRefusal(status: 507, reason: "the disk is nearly full (\(UploadLimits.megabytes(free)) MB free, \(UploadLimits.megabytes(kept)) MB kept free)")
    }

    static let diskFull = UploadRefusal(status: 507, reason: "the disk is full")

    /// 500: the box itself failed (a folder it cannot write, an I/O error).
    static func failed(_ step: String, _ error: Errno) -> UploadRefusal {
        UploadRefusal(status: 500, reason: "cannot \(step): \(error)")
    }

    /// A write or flush that failed: a full disk is the uploader's to know about.
    static func writeFailed(_ step: String, _ error: Errno) -> UploadRefusal {
        error.rawValue == ENOSPC || error.rawValue == EDQUOT ? diskFull : failed(step, error)
    }
}
