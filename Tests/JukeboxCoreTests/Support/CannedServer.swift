import Foundation

/// A web server that misbehaves on purpose, on a loopback port: to every request it
/// sends `head` and `body`, then holds the connection open without a word (a stalled
/// server) until the test ends.
final class CannedServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let reply: [UInt8]
    private let done = ConditionFlag()

    init(head: String, body: [UInt8]) throws {
        reply = Array((head.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n").utf8) + body
        (listener, port) = try LoopbackListener.open()
        Thread { [self] in serve() }.start()
    }

    deinit {
        done.set()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    private func serve() {
        while !done.isSet {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            Thread { [self] in
                var request = [UInt8](repeating: 0, count: 4096)
                _ = recv(client, &request, request.count, 0)
                _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                while !done.isSet { usleep(50_000) }
                close(client)
            }.start()
        }
    }
}
