import HTTPTypes
import HummingbirdCore
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// `/api/config`: the config file, read and saved from the page. A save is checked by
/// the same reader the box starts with; a file with an error is not saved, and the
/// error goes back with its line and column. A good one replaces the file atomically,
/// and the box's watch on it applies it live, as an edit over SSH would be.
extension PageAPI {
    struct ConfigView: Encodable {
        var path: String
        var text: String
    }

    /// Larger than any config a person writes; a bigger body is refused unread.
    static let largestConfig = 256 << 10

    func config(_ request: Request, _ context: PageContext) async -> Response {
        // The config holds the passwords: reading it takes the right to change.
        if let refusal = refusalToChange(request) { return refusal }
        guard let source = parts.configSource else { return PageReplies.refused(.notFound, "this box runs without a config file") }
        let read = await offLoop { () -> Result<String, PageRefusal> in
            do {
                return .success(String(decoding: try FileReader.contents(of: source.path, limit: Self.largestConfig), as: UTF8.self))
            } catch {
                return .failure(.init("\(source.path): \(error)"))
            }
        }
        switch read {
        case .success(let text): return PageReplies.json(ConfigView(path: source.path, text: text))
        case .failure(let refusal): return PageReplies.refused(.internalServerError, refusal.reason)
        }
    }

    struct ConfigEdit: Decodable { var text: String }
    struct ConfigProblem: Encodable {
        var line: Int
        var column: Int
        var message: String
    }
    struct ConfigRefused: Encodable {
        var ok = false
        var error: String
        var errors: [ConfigProblem]
    }

    func saveConfig(_ request: Request, _ context: PageContext) async -> Response {
        guard let source = parts.configSource else { return PageReplies.refused(.notFound, "this box runs without a config file") }
        let edit: ConfigEdit
        switch await change(ConfigEdit.self, request, context) {
        case .body(let body): edit = body
        case .refused(let answer): return answer
        }
        let logger = self.logger
        let peer = context.peer
        let problem = await offLoop { () -> ConfigProblem? in
            do {
                _ = try ConfigLoader.parse(edit.text, path: source.path, environment: source.environment, musicDirectory: source.musicDirectory)
            } catch let error as ConfigError {
                return ConfigProblem(line: error.line, column: error.column, message: error.reason)
            } catch {
                return ConfigProblem(line: 0, column: 0, message: "\(error)")
            }
            var st = stat()
            let mode = FilePath.withCString(source.path) { stat($0, &st) } == 0 ? st.st_mode & 0o777 : 0o640
            do {
                try AtomicFile.replace(source.path, mode: mode) { $0.write(Array(edit.text.utf8)) }
            } catch let failure as AtomicFile.Failure {
                return ConfigProblem(line: 0, column: 0, message: "cannot save \(source.path): \(failure.step): \(failure.errno)")
            } catch {
                return ConfigProblem(line: 0, column: 0, message: "cannot save \(source.path): \(error)")
            }
            logger.notice("web: \(peer) saved \(source.path)")
            return nil
        }
        guard let problem else { return PageReplies.json(PageReplies.Done()) }
        let place = problem.line > 0 ? "\(source.path):\(problem.line):\(problem.column): " : ""
        return PageReplies.json(ConfigRefused(error: place + problem.message, errors: [problem]), status: .unprocessableContent)
    }
}
