import Foundation
import Logging
import Testing
@testable import JukeboxCore

/// The page's HTTP server stopped the way a reload stops it, while Swift's shared pool is
/// busy (as it is in a test process full of blocking tests, or a box decoding a library):
/// what the server finishes late must find its loop still running.
@Suite(.serialized) struct PageServerTests {
    typealias Connection = ControlHardeningTests.Connection

    /// A server whose every answer takes `delay` seconds.
    func serve(delay: Double, port: Int = 0) -> (PageServer, Int)? {
        let server = PageServer()
        let started = server.start(address: "127.0.0.1", port: port, respond: { _, _ in
            try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            return PageFile("answered", type: "text/plain").reply(ifNoneMatch: nil)
        }, logger: Logger(label: "test"), ended: { _ in })
        guard case .listening(let port) = started else {
            Issue.record("the server did not start: \(started)")
            return nil
        }
        return (server, port)
    }

    /// As a reload does: each server takes the port of the one stopped just before.
    @Test func aStopCutShortWhileThePoolIsBusyLeavesTheLoopServing() throws {
        var port = 0
        for _ in 0..<3 {
            guard let (server, listening) = serve(delay: 3, port: port) else { return }
            port = listening
            let client = try Connection(tcpPort: port, timeout: 10)
            client.send("GET / HTTP/1.1\r\nHost: box\r\n\r\n")
            usleep(200_000)  // the request is in its handler, so the graceful stop must wait
            // Every thread of the pool blocked: HummingbirdCore's own stop task runs late,
            // after this stop has given up waiting for it.
            for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
                Task.detached { usleep(1_000_000) }
            }
            server.stop(patience: 0.2)
            usleep(1_500_000)  // the late stop task runs now
        }
        // A server started afterwards answers on the same loop.
        guard let (server, _) = serve(delay: 0, port: port) else { return }
        defer { server.stop() }
        let client = try Connection(tcpPort: port, timeout: 10)
        client.send("GET / HTTP/1.1\r\nHost: box\r\nConnection: close\r\n\r\n")
        let reply = client.readToEnd()
        #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply.prefix(200))")
        #expect(reply.hasSuffix("answered"))
    }
}
