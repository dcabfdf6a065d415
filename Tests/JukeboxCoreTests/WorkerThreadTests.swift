import Foundation
import Testing
@testable import JukeboxCore

/// `WorkerThread.start` reports a thread the system would not make, instead of handing
/// back an empty pthread_t that a later join would trip over.
@Suite(.serialized) struct WorkerThreadTests {
    @Test func startsAndJoins() throws {
        let ran = EventFlag()
        let thread = try WorkerThread.start(name: "jukebox-test") { ran.set() }
        pthread_join(thread, nil)
        #expect(ran.isSet)
    }

    /// In a child process whose address space is capped just above what it uses, new
    /// threads' stacks soon cannot be mapped (the first may reuse a stack glibc cached):
    /// start must then throw EAGAIN. (glibc makes malloc safe after fork; the child does
    /// nothing else before _exit.)
    @Test func aThreadTheSystemRefusesIsAnError() throws {
        let warm = try WorkerThread.start(name: "jukebox-test") {}
        pthread_join(warm, nil)
        let used = try Self.virtualMemoryBytes()
        let child = fork()
        if child == 0 {
            var limit = rlimit(rlim_cur: rlim_t(used + (1 << 20)), rlim_max: rlim_t(used + (1 << 20)))
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
            do {
                for _ in 0..<64 { _ = try WorkerThread.start(name: "jukebox-test") { while true { pause() } } }
                _exit(1)
            } catch .wouldBlock {
                _exit(0)
            } catch {
                _exit(2)
            }
        }
        #expect(child > 0)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(20)
        while waitpid(child, &status, WNOHANG) == 0 {
            if Date() > deadline { kill(child, SIGKILL); waitpid(child, &status, 0); break }
            usleep(10_000)
        }
        #expect(status & 0x7f == 0, "the child was killed")
        #expect((status >> 8) & 0xff == 0, "start did not throw EAGAIN (exit \((status >> 8) & 0xff))")
    }

    static func virtualMemoryBytes() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("VmSize:") })
        let kb = try #require(Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? ""))
        return kb * 1024
    }
}

private final class EventFlag: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
