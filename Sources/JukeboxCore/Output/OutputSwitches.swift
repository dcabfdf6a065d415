/// Which devices of `[audio] devices` are switched on (MPD's `enableoutput`,
/// `disableoutput`, `toggleoutput`): the route plays to the devices switched on, in the
/// configured order. An output's id is its place in that list. With every one switched
/// off the music goes on silently, as into a null sink, until one is switched on again.
public final class OutputSwitches: Sendable {
    private struct State {
        var devices: [String]
        /// Devices switched off, by name, so that they stay off across a config edit.
        var off: Set<String> = []
        var onChange: (@Sendable ([String]) -> Void)?
    }

    private let shared: ConditionLocked<State>

    public init(devices: [String]) { shared = ConditionLocked(State(devices: devices)) }

    public enum Refusal: Error, Equatable {
        case noSuchOutput
    }

    /// Told the devices switched on, in order, after each change (set once, before use).
    public func whenChanged(_ handler: @escaping @Sendable ([String]) -> Void) { shared.withLock { $0.onChange = handler } }

    /// Every configured device and whether it is on, in order.
    public var listed: [(device: String, on: Bool)] {
        let state = shared.current
        return state.devices.map { ($0, !state.off.contains($0)) }
    }

    /// The devices switched on, in order.
    public var enabled: [String] {
        let state = shared.current
        return state.devices.filter { !state.off.contains($0) }
    }

    /// Switches output `id` on or off (`nil`: the other way); true when that changed
    /// anything, and then the route follows.
    @discardableResult
    public func set(_ id: Int, on: Bool?) throws(Refusal) -> Bool {
        let result = shared.withLock { state -> (changed: Bool, enabled: [String], tell: (@Sendable ([String]) -> Void)?)? in
            guard state.devices.indices.contains(id) else { return nil }
            let device = state.devices[id]
            let wasOn = !state.off.contains(device)
            let nowOn = on ?? !wasOn
            guard nowOn != wasOn else { return (false, [], nil) }
            if nowOn { state.off.remove(device) } else { state.off.insert(device) }
            return (true, state.devices.filter { !state.off.contains($0) }, state.onChange)
        }
        guard let result else { throw .noSuchOutput }
        if result.changed { result.tell?(result.enabled) }
        return result.changed
    }

    /// The configured list after a config edit: devices still in it keep their switch.
    public func configure(_ devices: [String]) {
        shared.withLock { state in
            state.devices = devices
            state.off.formIntersection(devices)
        }
    }
}
