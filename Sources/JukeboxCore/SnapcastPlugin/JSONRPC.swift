/// JSON-RPC 2.0 as Snapcast's stream plugins speak it: one message a line.
public enum JSONRPC {
    public struct Request: Equatable, Sendable {
        /// Nil for a notification, which gets no reply.
        public var id: JSONValue?
        public var method: String
        public var params: JSONValue?
    }

    public struct Failure: Error, Equatable, Sendable {
        public var code: Int
        public var message: String

        public static let parseErrorCode = -32700
        public static let invalidRequestCode = -32600
        public static let methodNotFoundCode = -32601
        public static let invalidParamsCode = -32602
        /// The box refused the command or could not be reached: a server error.
        public static let boxCode = -32000

        public static func invalidParams(_ message: String) -> Failure { .init(code: invalidParamsCode, message: message) }
    }

    public enum Incoming: Equatable, Sendable {
        case request(Request)
        /// Not understood: the reply to send (`id` null when the line had none).
        case invalid(id: JSONValue, Failure)
        /// A response or something else that asks for nothing.
        case ignored
    }

    public static func read(_ line: String) -> Incoming {
        guard let message = JSONValue.parse(line) else {
            return .invalid(id: .null, .init(code: Failure.parseErrorCode, message: "Parse error: not JSON"))
        }
        guard case .object(let fields) = message else {
            return .invalid(id: .null, .init(code: Failure.invalidRequestCode, message: "Invalid Request: not a JSON object"))
        }
        let id = fields["id"]
        guard let method = fields["method"]?.string else {
            // Responses to us carry no method; we send no requests, so they are dropped.
            if fields["result"] != nil || fields["error"] != nil { return .ignored }
            return .invalid(id: id ?? .null, .init(code: Failure.invalidRequestCode, message: "Invalid Request: no method"))
        }
        guard fields["jsonrpc"]?.string == "2.0" else {
            return .invalid(id: id ?? .null, .init(code: Failure.invalidRequestCode, message: "Invalid Request: jsonrpc must be \"2.0\""))
        }
        return .request(.init(id: id, method: method, params: fields["params"]))
    }

    public static func result(id: JSONValue, _ value: JSONValue) -> String {
        JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "result": value]).line
    }

    public static func error(id: JSONValue, _ failure: Failure) -> String {
        let error = JSONValue.object(["code": .int(failure.code), "message": .string(failure.message)])
        return JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "error": error]).line
    }

    public static func notification(_ method: String, _ params: JSONValue? = nil) -> String {
        var fields: [String: JSONValue] = ["jsonrpc": .string("2.0"), "method": .string(method)]
        if let params { fields["params"] = params }
        return JSONValue.object(fields).line
    }
}
