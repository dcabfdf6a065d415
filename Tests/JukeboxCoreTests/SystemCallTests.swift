import Foundation
import Testing
@testable import JukeboxCore

/// The one helper that turns -1 and errno into a thrown `Errno`, retrying EINTR.
@Suite struct SystemCallTests {
    @Test func aResultIsReturnedAndAFailureThrowsItsErrno() throws {
        let fd = try systemCall { open("/dev/null", O_RDONLY) }
        #expect(fd >= 0)
        close(fd)
        #expect(throws: Errno.noEntry) { try systemCall { open("/nonexistent/jukebox", O_RDONLY) } }
        #expect(throws: Errno.badFileDescriptor) { try systemCall { close(-1) } }
    }

    @Test func anInterruptedCallIsRetriedUnlessTheCallerSaysNot() throws {
        var calls = 0
        let interruptedTwice = {
            calls += 1
            if calls <= 2 { errno = EINTR; return Int32(-1) }
            return Int32(7)
        }
        #expect(try systemCall(interruptedTwice) == 7)
        #expect(calls == 3)
        calls = 0
        #expect(throws: Errno.interrupted) { try systemCall(retryOnInterrupt: false, interruptedTwice) }
        #expect(calls == 1)
    }

    @Test func aNilPointerThrowsItsErrno() throws {
        #expect(throws: Errno.noEntry) { try systemCall { opendir("/nonexistent/jukebox") } }
        let dir = try systemCall { opendir("/") }
        closedir(dir)
    }

    /// `writeAll` writes every byte (at the end or at an offset) and throws the errno of
    /// a write that fails.
    @Test func writeAllWritesEveryByteOrThrowsItsErrno() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jukebox-writeall-\(getpid())").path
        defer { unlink(path) }
        let fd = try systemCall { open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
        try writeAll(fd, bytes)
        try writeAll(fd, [9, 9], at: 10)
        close(fd)
        var expected = bytes
        expected[10] = 9
        expected[11] = 9
        #expect(FileManager.default.contents(atPath: path) == Data(expected))
        // -1, not the closed descriptor: another test's file may have its number by now.
        #expect(throws: Errno.badFileDescriptor) { try writeAll(-1, [1]) }
        #expect(throws: Errno.badFileDescriptor) { try writeAll(-1, [1], at: 0) }
    }
}
