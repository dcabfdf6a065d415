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
}
