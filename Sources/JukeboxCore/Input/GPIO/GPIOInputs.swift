import Logging

/// The configured GPIO buttons, encoders and interruption inputs on their lines.
///
/// A chip that is not there is logged once and looked for again (at a kernel
/// announcement, and every few seconds); a line that cannot be had (no such offset, used by
/// a driver or by another of our inputs) is logged with its place in the configuration,
/// and the rest of the box carries on without it.
final class GPIOInputs: InputHardware {
    private enum Role { case button(ButtonUnit), encoder(EncoderUnit, EncoderUnit.Line), interruption(InterruptionUnit) }

    private final class Binding {
        let user: String
        let lines: [(line: InputConfig.Line, role: String)]
        /// The unit for the requested lines, their levels when requested, and the time.
        let makeUnit: (_ lines: [GPIOLineEvents], _ levels: [Bool], _ now: UInt64) -> (InputUnit, [InputAction], (Int) -> Role)
        var requested: [GPIOLineEvents] = []
        var roles: [Int32: Role] = [:]
        var unit: InputUnit?
        var failed = false

        init(user: String, lines: [(InputConfig.Line, String)],
             makeUnit: @escaping ([GPIOLineEvents], [Bool], UInt64) -> (InputUnit, [InputAction], (Int) -> Role)) {
            self.user = user
            self.lines = lines
            self.makeUnit = makeUnit
        }
    }

    private let logger: Logger
    private var bindings: [Binding] = []
    private var chips: [String: GPIOChip] = [:]
    private var missingChips: Set<String> = []
    /// Lines in use by our own inputs, by resolved chip name, to name both users.
    private var claimed: [String: (user: String, place: ConfigPlace)] = [:]
    private var byDescriptor: [Int32: (Binding, GPIOLineEvents)] = [:]

    init(_ config: InputConfig, logger: Logger) {
        self.logger = logger
        for button in config.buttons {
            let source = "button \"\(button.name)\""
            bindings.append(Binding(user: source, lines: [(button.line, "")]) { _, levels, _ in
                let unit = ButtonUnit(source: source, debounceMilliseconds: button.debounceMilliseconds,
                                      gestures: button.gestures, initiallyActive: levels[0])
                return (unit, [], { _ in .button(unit) })
            })
        }
        for encoder in config.encoders {
            var lines = [(encoder.a, " (line a)"), (encoder.b, " (line b)")]
            if let push = encoder.button { lines.append((push, " (its button)")) }
            bindings.append(Binding(user: "encoder \"\(encoder.name)\"", lines: lines) { lines, levels, _ in
                let unit = EncoderUnit(encoder, a: levels[0], b: levels[1], button: levels.count > 2 && levels[2])
                unit.readLines = {
                    guard let now = try? lines.map({ try $0.read() }) else { return nil }
                    // Timed after reading: an edge stamped later came after the read.
                    return EncoderUnit.Reading(levels: .init(a: now[0], b: now[1], button: now.count > 2 && now[2]), at: MonotonicClock.now())
                }
                let roles: [EncoderUnit.Line] = [.a, .b, .button]
                return (unit, [], { .encoder(unit, roles[$0]) })
            })
        }
        for input in config.interruptions {
            let source = "interruption input \"\(input.name)\""
            bindings.append(Binding(user: source, lines: [(input.line, "")]) { _, levels, now in
                let unit = InterruptionUnit(source: source, debounceMilliseconds: input.debounceMilliseconds)
                return (unit, unit.start(active: levels[0], at: now), { _ in .interruption(unit) })
            })
        }
    }

    var descriptors: [Int32] { Array(byDescriptor.keys) }
    var units: [InputUnit] { bindings.compactMap(\.unit) }
    var waiting: Bool { bindings.contains { $0.unit == nil && !$0.failed } }

    func rescan(now: UInt64) -> [InputAction] {
        var actions: [InputAction] = []
        for binding in bindings where binding.unit == nil && !binding.failed {
            actions += open(binding, now: now)
        }
        return actions
    }

    private func open(_ binding: Binding, now: UInt64) -> [InputAction] {
        var levels: [Bool] = []
        var requested: [GPIOLineEvents] = []
        for (line, role) in binding.lines {
            let user = binding.user + role
            do throws(GPIOError) {
                let chip = try chip(line.chip)
                let key = "\(chip.name)/\(line.offset)"
                if let other = claimed[key] {
                    throw GPIOError.lineInUse(chip: chip.name, offset: line.offset, consumer: "\(other.user) (\(other.place))")
                }
                let events = try chip.requestEvents(offset: line.offset, bias: line.bias, activeLow: line.activeLow)
                levels.append(try events.read())
                requested.append(events)
            } catch .noChip(let name) {
                if missingChips.insert(name).inserted {
                    logger.warning("input: no GPIO chip \"\(name)\" yet (\(line.place)); the inputs on it are watched when it appears")
                }
                return []
            } catch {
                logger.error("\(line.place): \(user): \(error); it is not watched, the rest of the box carries on")
                binding.failed = true
                return []
            }
        }
        let (unit, actions, role) = binding.makeUnit(requested, levels, now)
        binding.unit = unit
        binding.requested = requested
        for (i, events) in requested.enumerated() {
            binding.roles[events.fd] = role(i)
            byDescriptor[events.fd] = (binding, events)
            claimed["\(events.chipName)/\(events.offset)"] = (binding.user + binding.lines[i].role, binding.lines[i].line.place)
        }
        let where_ = zip(binding.lines, requested).map { "\($0.1.chipName) line \($0.1.offset)\($0.0.role)" }.joined(separator: ", ")
        logger.info("input: \(binding.user) on \(where_)")
        return actions
    }

    private func chip(_ spec: String) throws(GPIOError) -> GPIOChip {
        if let chip = chips[spec] { return chip }
        let chip = try GPIOChip(spec)
        if missingChips.remove(spec) != nil { logger.info("input: GPIO chip \"\(spec)\" appeared (\(chip.name), \(chip.label))") }
        chips[spec] = chip
        return chip
    }

    func readable(_ fd: Int32, now: UInt64, batch: inout [PendingEdge]) -> [InputAction] {
        guard let (binding, events) = byDescriptor[fd], let role = binding.roles[fd] else { return [] }
        let edges: [GPIOLineEvents.Edge]
        do {
            edges = try events.edges()
        } catch {
            return drop(binding, now: now, reason: "\(error)")
        }
        for edge in edges {
            switch role {
            case .button(let unit): batch.append(PendingEdge(at: edge.at) { unit.edge(active: edge.active, at: edge.at) })
            case .encoder(let unit, let line): batch.append(PendingEdge(at: edge.at) { unit.edge(line, active: edge.active, at: edge.at) })
            case .interruption(let unit): batch.append(PendingEdge(at: edge.at) { unit.edge(active: edge.active, at: edge.at) })
            }
        }
        return []
    }

    /// A line that stopped working (its chip went away): released, and looked for again.
    private func drop(_ binding: Binding, now: UInt64, reason: String) -> [InputAction] {
        logger.warning("input: \(binding.user) stopped (\(reason)); it is watched again when its chip is back")
        let actions = binding.unit?.lost(at: now) ?? []
        for events in binding.requested {
            byDescriptor[events.fd] = nil
            claimed["\(events.chipName)/\(events.offset)"] = nil
        }
        for spec in Set(binding.lines.map(\.line.chip)) { chips[spec] = nil }
        binding.requested = []
        binding.roles = [:]
        binding.unit = nil
        return actions
    }
}
