/// The parts whose own start and stop already fit the service shape.

extension HotplugMonitor: Service {
    public var name: String { "hotplug" }
    /// Without it, devices are still found by each part's slow retries.
    public var policy: FailurePolicy { .optional }
    public func start(died: @escaping @Sendable (any Error) -> Void) { start() }
}

extension StateSaver: Service {
    public var name: String { "state saver" }
    public var policy: FailurePolicy { .optional }
    public func start(died: @escaping @Sendable (any Error) -> Void) { start() }
}
