import CJukeboxShim
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// The configured evdev keys and axes, on whichever input devices have them: opened at
/// start and whenever a device appears, let go when it disappears. After the kernel drops
/// events (SYN_DROPPED, a full buffer) the key states are read back, so no key stays held.
final class EvdevInputs: InputHardware {
    private final class OpenDevice {
        let device: EvdevDevice
        var keys: [Int: KeyUnit] = [:]
        var axes: [Int: AxisUnit] = [:]  // by type << 16 | code
        var dropping = false
        init(_ device: EvdevDevice) { self.device = device }
    }

    private let config: InputConfig
    private let logger: Logger
    private var open: [Int32: OpenDevice] = [:]
    /// Device specs (names or paths) configured and not found yet, logged once each.
    private var missingLogged: Set<String> = []
    private var unusable: Set<String> = []

    init(_ config: InputConfig, logger: Logger) {
        self.config = config
        self.logger = logger
    }

    var descriptors: [Int32] { Array(open.keys) }
    var units: [InputUnit] { open.values.flatMap { Array($0.keys.values) as [InputUnit] + Array($0.axes.values) as [InputUnit] } }
    var waiting: Bool { !missingSpecs.isEmpty }

    private var wanted: Bool { !config.keys.isEmpty || !config.axes.isEmpty }

    /// Named devices that no open device answers to.
    private var missingSpecs: Set<String> {
        let specs = Set((config.keys.map(\.device) + config.axes.map(\.device)).filter { !$0.isEmpty })
        return specs.filter { spec in !open.values.contains { Self.matches(spec, $0.device) } }
    }

    func rescan(now: UInt64) -> [InputAction] {
        guard wanted else { return [] }
        let openPaths = Set(open.values.map(\.device.path))
        for path in EvdevDevice.nodes() where !openPaths.contains(path) {
            let device: EvdevDevice
            do {
                device = try EvdevDevice(path: path)
            } catch {
                if unusable.insert(path).inserted { logger.debug("input: \(error)") }
                continue
            }
            unusable.remove(path)
            // A card reader's device is its reader's alone: a key for any device must not
            // see the digits it types.
            guard !isCardReader(device) else { continue }
            let entry = OpenDevice(device)
            for key in config.keys where Self.matches(key.device, device) && device.has(type: Int(EV_KEY), code: key.code) {
                entry.keys[key.code] = KeyUnit(source: "key \"\(key.name)\"", gestures: key.gestures)
            }
            for axis in config.axes {
                let type = axis.kind == .relative ? Int(EV_REL) : Int(EV_ABS)
                guard Self.matches(axis.device, device), device.has(type: type, code: axis.code) else { continue }
                let unit = AxisUnit(axis)
                if axis.kind == .absolute { unit.sync(absolute: device.absoluteValue(code: axis.code)) }
                entry.axes[type << 16 | axis.code] = unit
            }
            guard !entry.keys.isEmpty || !entry.axes.isEmpty else { continue }
            open[device.fd] = entry
            let what = entry.keys.keys.map { Self.codeName(Int(EV_KEY), $0) } +
                config.axes.filter { entry.axes[($0.kind == .relative ? Int(EV_REL) : Int(EV_ABS)) << 16 | $0.code] != nil }.map(\.name)
            logger.info("input: \"\(device.name)\" (\(path)) for \(what.sorted().joined(separator: ", "))")
        }
        for spec in missingSpecs.sorted() where missingLogged.insert(spec).inserted {
            let place = (config.keys.first { $0.device == spec }?.place ?? config.axes.first { $0.device == spec }?.place).map { " (\($0))" } ?? ""
            logger.warning("input: no input device \"\(spec)\" yet\(place); it is opened when it appears")
        }
        return []
    }

    func readable(_ fd: Int32, now: UInt64, batch: inout [PendingEdge]) -> [InputAction] {
        guard let entry = open[fd] else { return [] }
        let events: [EvdevDevice.Event]
        do {
            events = try entry.device.events()
        } catch {
            // Unplugged: end what it held, and wait for it to come back.
            logger.warning("input: \"\(entry.device.name)\" (\(entry.device.path)) went away; it is opened again when it is back")
            open[fd] = nil
            missingLogged.removeAll()
            return entry.keys.values.flatMap { $0.lost(at: now) } + entry.axes.values.flatMap { $0.lost(at: now) }
        }
        var actions: [InputAction] = []
        for event in events {
            if event.type == Int(EV_SYN) {
                if event.code == Int(SYN_DROPPED) {
                    entry.dropping = true
                } else if event.code == Int(SYN_REPORT), entry.dropping {
                    entry.dropping = false
                    actions += resync(entry, now: now)
                }
                continue
            }
            guard !entry.dropping else { continue }
            if event.type == Int(EV_KEY), let unit = entry.keys[event.code] {
                actions += unit.key(value: event.value, at: event.at)
            } else if let unit = entry.axes[event.type << 16 | event.code] {
                actions += unit.value(event.value, at: event.at)
            }
        }
        return actions
    }

    /// After dropped events: each key as it is now; absolute axes from where they are.
    private func resync(_ entry: OpenDevice, now: UInt64) -> [InputAction] {
        logger.notice("input: \"\(entry.device.name)\" dropped events; key states read back")
        let down = entry.device.keysDown()
        var actions: [InputAction] = []
        for (code, unit) in entry.keys where unit.isDown != down.contains(code) {
            actions += unit.key(value: down.contains(code) ? 1 : 0, at: now)
        }
        for (key, unit) in entry.axes where key >> 16 == Int(EV_ABS) {
            unit.sync(absolute: entry.device.absoluteValue(code: key & 0xFFFF))
        }
        return actions
    }

    private func isCardReader(_ device: EvdevDevice) -> Bool {
        config.readers.contains { reader in
            if case .hid(let spec) = reader.kind { return Self.matches(spec, device) }
            return false
        }
    }

    /// An empty spec matches every device; a path matches the node (or a link to it, such as
    /// /dev/input/by-path/...); anything else is the device's name.
    static func matches(_ spec: String, _ device: EvdevDevice) -> Bool {
        if spec.isEmpty { return true }
        if spec.hasPrefix("/") {
            guard let resolved = realpath(spec, nil) else { return false }
            defer { free(resolved) }
            return String(cString: resolved) == device.path
        }
        return spec == device.name
    }

    static func codeName(_ type: Int, _ code: Int) -> String {
        jukebox_evdev_code_name(Int32(type), Int32(code)).map { String(cString: $0) } ?? "\(code)"
    }
}
