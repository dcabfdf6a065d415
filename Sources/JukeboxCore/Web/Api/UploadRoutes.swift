import HTTPTypes
import HummingbirdCore
import NIOCore

/// `PUT /api/upload?path=FOLDER/NAME.EXT`: one file from the phone, streamed to the disk
/// as it arrives (never held in memory), checked by `UploadFolder`'s rules before the
/// first byte is written and by the library's probe at the end, then scanned into the
/// library. A refusal closes the connection, so a client sending 2 GB does not have the
/// rest read and thrown away.
extension PageAPI {
    struct Uploaded: Encodable {
        var ok = true
        var path: String
    }

    func upload(_ request: Request, _ context: PageContext) async -> Response {
        if let refusal = refusalToChange(request) { return closing(refusal) }
        guard let uploads = places.uploads else { return closing(PageReplies.refused(.notFound, "uploads are off")) }
        let name = request.uri.queryParameters["path"].map(String.init) ?? ""
        let declared = request.headers[.contentLength].flatMap { Int64($0) }
        let begun = await offLoop { () -> Result<UploadInProgress, UploadRefusal> in
            do throws(UploadRefusal) { return .success(try uploads.begin(relativePath: name, declaredBytes: declared)) } catch { return .failure(error) }
        }
        let upload: UploadInProgress
        switch begun {
        case .success(let begun): upload = begun
        case .failure(let refusal): return refused(refusal, name: name, peer: context.peer)
        }
        do {
            for try await chunk in request.body {
                let written = await offLoop { () -> UploadRefusal? in
                    do throws(UploadRefusal) {
                        try chunk.withUnsafeReadableBytes { bytes throws(UploadRefusal) in try upload.write(bytes) }
                        return nil
                    } catch {
                        return error
                    }
                }
                if let written { return refused(written, name: name, peer: context.peer) }
            }
        } catch {
            upload.abandon()
            return closing(PageReplies.refused(.badRequest, "the upload stopped early"))
        }
        let finished = await offLoop { () -> Result<String, UploadRefusal> in
            do throws(UploadRefusal) { return .success(try upload.finish()) } catch { return .failure(error) }
        }
        switch finished {
        case .failure(let refusal):
            return refused(refusal, name: name, peer: context.peer)
        case .success(let path):
            logger.notice("web: \(context.peer) uploaded \(path)")
            // The library takes it in with its next update; the rest is unchanged.
            _ = parts.catalog.requestUpdate(everything: false)
            return PageReplies.json(Uploaded(path: path))
        }
    }

    private func refused(_ refusal: UploadRefusal, name: String, peer: String) -> Response {
        logger.info("web: upload of \(name.prefix(200).debugDescription) from \(peer) refused: \(refusal.reason)")
        return closing(PageReplies.refused(HTTPResponse.Status(code: refusal.status), refusal.reason))
    }

    /// The connection ends after this answer: what the client still sends is not read.
    private func closing(_ response: Response) -> Response {
        var response = response
        response.headers[.connection] = "close"
        return response
    }
}
