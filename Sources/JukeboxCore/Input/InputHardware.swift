import Logging

/// An edge read from a file descriptor, to be applied in kernel-time order with the edges
/// read from the others in the same wake-up.
struct PendingEdge {
    var at: UInt64
    var apply: () -> [InputAction]
}

/// One kind of input hardware as the input thread sees it: descriptors to poll, units
/// with deadlines, and a way to look again for what is missing.
protocol InputHardware: AnyObject {
    var descriptors: [Int32] { get }
    var units: [InputUnit] { get }
    /// Something configured is not there yet (a chip, a device): look again now and then.
    var waiting: Bool { get }
    /// `fd` is readable: its edges go to `batch`; actions that need no ordering are returned.
    func readable(_ fd: Int32, now: UInt64, batch: inout [PendingEdge]) -> [InputAction]
    /// Opens what is configured and not yet open.
    func rescan(now: UInt64) -> [InputAction]
}
