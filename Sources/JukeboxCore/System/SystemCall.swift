#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The one place where a C call's "-1 and errno" becomes a thrown `Errno`, and where
// EINTR is retried. Modelled on swift-system's `valueOrErrno` and `retryOnInterrupt`:
// call sites never read `errno` or compare codes by hand.

extension Errno {
    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let noEntry = Errno(ENOENT)
    public static let exists = Errno(EEXIST)
    public static let noDevice = Errno(ENODEV)
    public static let busy = Errno(EBUSY)
    public static let badFileDescriptor = Errno(EBADF)
    public static let brokenPipe = Errno(EPIPE)
    public static let connectionRefused = Errno(ECONNREFUSED)
    public static let timedOut = Errno(ETIMEDOUT)
}

/// Runs `call`, which returns -1 and sets `errno` on failure, and returns its result or
/// throws the error. EINTR is retried unless `retryOnInterrupt` is false (a `poll` whose
/// caller recomputes its timeout, say).
@discardableResult
public func systemCall<Result: FixedWidthInteger>(
    retryOnInterrupt: Bool = true, _ call: () -> Result
) throws(Errno) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno.current
        if retryOnInterrupt, error == .interrupted { continue }
        throw error
    }
}

/// The same for calls that return a pointer, nil with `errno` set on failure (opendir, fdopen).
public func systemCall<Pointer>(
    retryOnInterrupt: Bool = true, _ call: () -> Pointer?
) throws(Errno) -> Pointer {
    while true {
        if let pointer = call() { return pointer }
        let error = Errno.current
        if retryOnInterrupt, error == .interrupted { continue }
        throw error
    }
}

/// `bind` or `connect` (any call taking a `sockaddr` and its length) on a concrete
/// address such as `sockaddr_un`, through `systemCall`.
public func socketAddressCall<Address>(
    _ address: inout Address, _ call: (UnsafePointer<sockaddr>, socklen_t) -> Int32
) throws(Errno) {
    try withUnsafePointer(to: &address) { pointer throws(Errno) in
        try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(Errno) in
            _ = try systemCall { call(raw, socklen_t(MemoryLayout<Address>.size)) }
        }
    }
}
