/// A long-lived part of the box: the engine, the control socket, the inputs, the library
/// watch, the state saver. Each has one way to start and one way to stop, and a
/// `ServiceGroup` runs them all.
public protocol Service: AnyObject, Sendable {
    /// How the log names it.
    var name: String { get }
    /// What the group does when it cannot start or stops by itself.
    var policy: FailurePolicy { get }
    /// Starts it and returns. `died` is called, from any thread and at most once per
    /// start, if it later stops by itself (a loop whose poll failed).
    func start(died: @escaping @Sendable (any Error) -> Void) throws
    /// Stops it and releases what it holds (threads, descriptors, lines); returns when
    /// that is done. Called once after each successful start.
    func stop()
}

/// What happens when a service cannot start, or stops by itself.
public enum FailurePolicy: Sendable, Equatable {
    /// The box cannot work without it: it does not start, or it stops with an error.
    case required
    /// Logged; the box runs without it.
    case optional
    /// Logged, and started again after a back-off that doubles from `firstDelay` up to
    /// `longestDelay`; one that ran for `longestDelay` starts the back-off afresh.
    case restarted(firstDelay: Double = 1, longestDelay: Double = 60)
}

/// Thrown by a service's `start` when the box must not run at all, whatever its policy
/// (another jukebox already answers on the control socket).
public struct BoxMustNotRun: Error, CustomStringConvertible {
    public let reason: any Error
    public init(_ reason: any Error) { self.reason = reason }
    public var description: String { "\(reason)" }
}
