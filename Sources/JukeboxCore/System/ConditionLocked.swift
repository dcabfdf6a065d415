/// A value that threads share, reachable only while its lock is held: the one place
/// shared state lives, instead of fields "guarded by a lock" by comment. Inside
/// `withLock`, the `Access` reads and writes the value and can wait on the lock's
/// condition (which lets go of the lock meanwhile).
public final class ConditionLocked<Value>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Valid only inside the `withLock` that handed it out.
    @dynamicMemberLookup
    public struct Access {
        fileprivate let box: ConditionLocked<Value>

        public subscript<T>(dynamicMember path: WritableKeyPath<Value, T>) -> T {
            get { box.value[keyPath: path] }
            nonmutating _modify { yield &box.value[keyPath: path] }
        }

        /// The value itself, for its mutating methods.
        public var wholeValue: Value {
            get { box.value }
            nonmutating _modify { yield &box.value }
        }

        /// Lets go of the lock until woken by `broadcast` or `nanoseconds` pass.
        public func wait(nanoseconds: UInt64) { box.lock.wait(nanoseconds: nanoseconds) }
        public func broadcast() { box.lock.broadcast() }
    }

    public func withLock<T, Failure: Error>(_ body: (Access) throws(Failure) -> T) throws(Failure) -> T {
        try lock.withLock { () throws(Failure) in try body(Access(box: self)) }
    }

    /// A copy of the value, taken under the lock.
    public var current: Value { lock.withLock { value } }
}
