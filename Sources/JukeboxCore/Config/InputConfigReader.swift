import CJukeboxShim
import TOMLKit

/// Reads `[input]` and its arrays of tables (`[[input.button]]`, `[[input.encoder]]`,
/// `[[input.interruption]]`, `[[input.key]]`, `[[input.axis]]`, `[[input.reader]]`), and refuses a line claimed
/// twice or one that `reserved_lines` keeps for the DAC, naming both users.
extension ConfigLoader.Reader {
    func readInput(_ t: TOMLTable, skipSeconds: Double) throws -> InputConfig {
        let s = "input"
        try allow(t, s, ["chip", "debounce_ms", "long_press_ms", "repeat_delay_ms", "repeat_ms", "reserved_lines",
                         "reserved_for", "button", "encoder", "interruption", "key", "axis", "reader"])
        var c = InputConfig()
        c.chip = try string(t, s, "chip") ?? c.chip
        c.debounceMilliseconds = try int(t, s, "debounce_ms", 0...500) ?? c.debounceMilliseconds
        c.longPressMilliseconds = try int(t, s, "long_press_ms", 100...10_000) ?? c.longPressMilliseconds
        c.repeatDelayMilliseconds = try int(t, s, "repeat_delay_ms", 0...10_000) ?? c.repeatDelayMilliseconds
        c.repeatIntervalMilliseconds = try int(t, s, "repeat_ms", 20...10_000) ?? c.repeatIntervalMilliseconds
        c.reservedFor = try string(t, s, "reserved_for") ?? c.reservedFor
        if let value = t["reserved_lines"] {
            guard let array = value.array, array.allSatisfy({ $0.int != nil }) else {
                throw error(s, "reserved_lines", "reserved_lines must be a list of line numbers, e.g. [18, 19, 20, 21]")
            }
            c.reservedLines = array.compactMap(\.int)
        }
        let d = c
        c.buttons = try each(t, "button") { try $0.button($1, d, skipSeconds) }
        c.encoders = try each(t, "encoder") { try $0.encoder($1, d, skipSeconds) }
        c.interruptions = try each(t, "interruption") { try $0.interruption($1, d) }
        c.keys = try each(t, "key") { try $0.key($1, d, skipSeconds) }
        c.axes = try each(t, "axis") { try $0.axis($1, d) }
        c.readers = try each(t, "reader") { try $0.reader($1) }
        try checkLines(c)
        try checkReaders(c)
        return c
    }

    /// Reads each `[[input.NAME]]` entry with a reader that locates errors in that entry.
    private func each<T>(_ t: TOMLTable, _ name: String, _ read: (Self, TOMLTable) throws -> T) throws -> [T] {
        guard let value = t[name] else { return [] }
        guard let array = value.array else {
            throw error("input", name, "\(name) must be written as [[input.\(name)]] sections, one for each")
        }
        return try array.enumerated().map { i, element in
            var r = self
            r.index = i
            guard let table = element.table else { throw r.error("input.\(name)", nil, "each [[input.\(name)]] must be a table of keys") }
            return try read(r, table)
        }
    }

    // MARK: Entries

    private func button(_ t: TOMLTable, _ d: InputConfig, _ skip: Double) throws -> InputConfig.Button {
        let s = "input.button"
        try allow(t, s, ["name", "chip", "line", "bias", "active_low", "debounce_ms", "press", "long", "hold", "repeat",
                         "long_press_ms", "repeat_delay_ms", "repeat_ms"])
        let line = try gpioLine(t, s, "line", d, required: true)!
        let gestures = try gestureSet(t, s, d, skip, required: true)
        return InputConfig.Button(
            name: try string(t, s, "name") ?? actionName(t), line: line,
            debounceMilliseconds: try int(t, s, "debounce_ms", 0...500) ?? d.debounceMilliseconds,
            gestures: gestures, place: place(s, "line"))
    }

    private func encoder(_ t: TOMLTable, _ d: InputConfig, _ skip: Double) throws -> InputConfig.Encoder {
        let s = "input.encoder"
        try allow(t, s, ["name", "chip", "a", "b", "button", "bias", "active_low", "transitions_per_detent", "debounce_ms",
                         "action", "pressed_action", "seek_seconds", "acceleration", "press", "long", "hold", "repeat",
                         "long_press_ms", "repeat_delay_ms", "repeat_ms"])
        let a = try gpioLine(t, s, "a", d, required: true)!
        let b = try gpioLine(t, s, "b", d, required: true)!
        let push = try gpioLine(t, s, "button", d, required: false)
        let perDetent = try int(t, s, "transitions_per_detent", 1...4) ?? 4
        guard [1, 2, 4].contains(perDetent) else {
            throw error(s, "transitions_per_detent", "transitions_per_detent must be 1, 2 or 4 (the Gray-code transitions between two clicks of the part), not \(perDetent)")
        }
        let seek = try double(t, s, "seek_seconds", 0.1...600) ?? 5
        let action = try stepAction(t, s, "action", seek) ?? .volume
        let pressedAction = try stepAction(t, s, "pressed_action", seek)
        let gestures = try gestureSet(t, s, d, skip, required: false)
        if push == nil, !gestures.isEmpty || pressedAction != nil {
            throw error(s, gestures.isEmpty ? "pressed_action" : "press", "the encoder has actions for its push button but no button line: set button = OFFSET")
        }
        let name = try string(t, s, "name") ?? t["action"]?.string ?? "volume"
        return InputConfig.Encoder(
            name: name, a: a, b: b, button: push, buttonGestures: gestures, transitionsPerDetent: perDetent,
            debounceMilliseconds: try int(t, s, "debounce_ms", 0...50) ?? (perDetent == 1 ? 2 : 0),
            buttonDebounceMilliseconds: d.debounceMilliseconds,
            action: action, pressedAction: pressedAction, acceleration: try acceleration(t, s), place: place(s, "a"))
    }

    private func interruption(_ t: TOMLTable, _ d: InputConfig) throws -> InputConfig.Interruption {
        let s = "input.interruption"
        try allow(t, s, ["name", "chip", "line", "bias", "active_low", "debounce_ms"])
        let line = try gpioLine(t, s, "line", d, required: true)!
        return InputConfig.Interruption(
            name: try string(t, s, "name") ?? "line \(line.offset)", line: line,
            debounceMilliseconds: try int(t, s, "debounce_ms", 0...5000) ?? d.debounceMilliseconds, place: place(s, "line"))
    }

    private func key(_ t: TOMLTable, _ d: InputConfig, _ skip: Double) throws -> InputConfig.Key {
        let s = "input.key"
        try allow(t, s, ["name", "device", "code", "press", "long", "hold", "repeat", "long_press_ms", "repeat_delay_ms", "repeat_ms"])
        let (_, code, codeName) = try eventCode(t, s, allowed: [Int32(EV_KEY)])
        let gestures = try gestureSet(t, s, d, skip, required: true)
        return InputConfig.Key(
            name: try string(t, s, "name") ?? codeName, device: try string(t, s, "device") ?? "",
            code: code, gestures: gestures, place: place(s, "code"))
    }

    private func axis(_ t: TOMLTable, _ d: InputConfig) throws -> InputConfig.Axis {
        let s = "input.axis"
        try allow(t, s, ["name", "device", "code", "action", "units_per_step", "seek_seconds"])
        let (type, code, codeName) = try eventCode(t, s, allowed: [Int32(EV_REL), Int32(EV_ABS)])
        let seek = try double(t, s, "seek_seconds", 0.1...600) ?? 5
        return InputConfig.Axis(
            name: try string(t, s, "name") ?? codeName, device: try string(t, s, "device") ?? "",
            kind: type == Int32(EV_REL) ? .relative : .absolute, code: code,
            unitsPerStep: try int(t, s, "units_per_step", 1...1000) ?? 1,
            action: try stepAction(t, s, "action", seek) ?? .volume, place: place(s, "code"))
    }

    private func reader(_ t: TOMLTable) throws -> InputConfig.Reader {
        let s = "input.reader"
        try allow(t, s, ["name", "type", "device", "bus"])
        let kinds = "\"hid\" (a USB reader that types the number), \"rdm6300\" (125 kHz, serial) or \"pn532\" (13.56 MHz, libnfc)"
        guard let type = try string(t, s, "type") else { throw error(s, nil, "[[\(s)]] needs type = \(kinds)") }
        guard ["hid", "rdm6300", "pn532"].contains(type) else { throw error(s, "type", "type must be \(kinds), not \"\(type)\"") }
        guard let device = try string(t, s, "device"), !device.isEmpty else {
            let what = switch type {
            case "hid": "the input device's name as the kernel gives it (see /proc/bus/input/devices) or a /dev/input path"
            case "rdm6300": "the serial port, e.g. \"/dev/serial0\" or \"/dev/ttyUSB0\""
            default: "the PN532's port, e.g. \"/dev/ttyS0\", \"/dev/i2c-1\" or \"/dev/spidev0.0\""
            }
            throw error(s, t["device"] == nil ? nil : "device", "[[\(s)]] of type \"\(type)\" needs device = \(what)")
        }
        let bus = try string(t, s, "bus")
        if bus != nil, type != "pn532" { throw error(s, "bus", "bus is for a pn532; a\(type == "hid" ? "" : "n") \(type) reader has only a device") }
        let kind: InputConfig.Reader.Kind
        switch type {
        case "hid": kind = .hid(device: device)
        case "rdm6300": kind = .rdm6300(port: device)
        default:
            // libnfc's connection strings (1.8): DRIVER:PORT, the driver named after the bus.
            guard let bus, ["uart", "i2c", "spi"].contains(bus) else {
                throw error(s, bus == nil ? nil : "bus", "a pn532 reader needs bus = \"uart\", \"i2c\" or \"spi\" (how it is wired)\(bus.map { ", not \"\($0)\"" } ?? "")")
            }
            kind = .pn532(connection: "pn532_\(bus):\(device)")
        }
        return InputConfig.Reader(name: try string(t, s, "name") ?? device, kind: kind, place: place(s, "type"))
    }

    // MARK: Values

    private func gpioLine(_ t: TOMLTable, _ s: String, _ key: String, _ d: InputConfig, required: Bool) throws -> InputConfig.Line? {
        guard let offset = try int(t, s, key, 0...1023) else {
            if required { throw error(s, nil, "[[\(s)]] needs \(key) = OFFSET: the line's number on its chip (BCM number on a Raspberry Pi)") }
            return nil
        }
        var bias = InputConfig.Bias.pullUp
        if let text = try string(t, s, "bias") {
            guard let b = InputConfig.Bias(rawValue: text) else {
                throw error(s, "bias", "bias must be one of \(InputConfig.Bias.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"")
            }
            bias = b
        }
        return InputConfig.Line(chip: try string(t, s, "chip") ?? d.chip, offset: offset, bias: bias,
                                activeLow: try bool(t, s, "active_low") ?? true, place: place(s, key))
    }

    private func gestureSet(_ t: TOMLTable, _ s: String, _ d: InputConfig, _ skip: Double, required: Bool) throws -> GestureSet<InputCommand> {
        var g = GestureSet<InputCommand>()
        for key in ["press", "long", "repeat"] {
            guard let name = try string(t, s, key) else { continue }
            guard let command = ButtonAction.command(named: name, skipSeconds: skip) else {
                if ButtonAction.holdNames.contains(name) {
                    throw error(s, key, "\"\(name)\" runs while a button is held: write hold = \"\(name)\"")
                }
                throw error(s, key, "unknown action \"\(name)\" for \(key); known: \(ButtonAction.names.map(\.name).joined(separator: ", ")), skip+SECONDS, skip-SECONDS")
            }
            switch key {
            case "press": g.press = command
            case "long": g.long = command
            default: g.repeating = command
            }
        }
        if let name = try string(t, s, "hold") {
            guard let command = ButtonAction.holdCommand(named: name) else {
                throw error(s, "hold", "unknown action \"\(name)\" for hold; known: \(ButtonAction.holdNames.joined(separator: ", ")) (a one-off action on a long press is long = \"...\")")
            }
            g.hold = command
        }
        if g.repeating != nil, g.press != nil || g.long != nil || g.hold != nil {
            throw error(s, "repeat", "repeat acts from the moment of the press, so it cannot share a button with press, long or hold")
        }
        if g.long != nil, g.hold != nil {
            throw error(s, "hold", "long and hold both act at the long-press threshold; a button can have one of them")
        }
        if required, g.isEmpty { throw error(s, nil, "[[\(s)]] has no action: set press, long, hold or repeat") }
        g.longPress = UInt64(try int(t, s, "long_press_ms", 100...10_000) ?? d.longPressMilliseconds) * 1_000_000
        g.repeatDelay = UInt64(try int(t, s, "repeat_delay_ms", 0...10_000) ?? d.repeatDelayMilliseconds) * 1_000_000
        g.repeatInterval = UInt64(try int(t, s, "repeat_ms", 20...10_000) ?? d.repeatIntervalMilliseconds) * 1_000_000
        return g
    }

    private func stepAction(_ t: TOMLTable, _ s: String, _ key: String, _ seek: Double) throws -> StepAction? {
        guard let name = try string(t, s, key) else { return nil }
        guard let action = StepAction(name: name, seekSeconds: seek) else {
            throw error(s, key, "unknown action \"\(name)\" for \(key); known: \(StepAction.names.joined(separator: ", "))")
        }
        return action
    }

    private func acceleration(_ t: TOMLTable, _ s: String) throws -> Acceleration {
        guard let value = t["acceleration"] else { return Acceleration() }
        let usage = "acceleration must be a list of [milliseconds, steps] pairs, e.g. [[60, 2], [25, 5]]: a click within 60 ms of the last moves 2 steps, within 25 ms 5"
        guard let array = value.array else { throw error(s, "acceleration", usage) }
        let rules = try array.map { pair -> Acceleration.Rule in
            guard let p = pair.array, p.count == 2, let ms = p[0].int, let steps = p[1].int,
                  (1...1000).contains(ms), (1...100).contains(steps) else { throw error(s, "acceleration", usage) }
            return Acceleration.Rule(withinMilliseconds: ms, steps: steps)
        }
        return Acceleration(rules)
    }

    private func eventCode(_ t: TOMLTable, _ s: String, allowed types: Set<Int32>) throws -> (Int32, Int, String) {
        let kinds = types.contains(Int32(EV_KEY)) ? "KEY_* or BTN_* name, or a key number" : "REL_* or ABS_* name"
        guard let value = t["code"] else { throw error(s, nil, "[[\(s)]] needs code = a \(kinds)") }
        if let number = value.int, types.contains(Int32(EV_KEY)), (1..<0x300).contains(number) {
            return (Int32(EV_KEY), number, jukebox_evdev_code_name(Int32(EV_KEY), Int32(number)).map { String(cString: $0) } ?? "key \(number)")
        }
        var type: Int32 = 0, code: Int32 = 0
        guard let name = value.string, jukebox_evdev_code_named(name, &type, &code) != 0, types.contains(type) else {
            throw error(s, "code", "code must be a \(kinds) the jukebox knows, such as \(types.contains(Int32(EV_KEY)) ? "KEY_PLAYPAUSE" : "REL_DIAL"); got \(value.debugDescription)")
        }
        return (type, Int(code), name)
    }

    /// A button's name when it has none: its first action, as written.
    private func actionName(_ t: TOMLTable) -> String {
        ["press", "repeat", "hold", "long"].lazy.compactMap { t[$0]?.string }.first ?? "button"
    }

    private func place(_ s: String, _ key: String) -> ConfigPlace {
        ConfigPlace(path: path, line: locator.position(section: s, index: index, key: key).line)
    }

    // MARK: Lines claimed twice

    private func checkLines(_ c: InputConfig) throws {
        var users: [String: (String, InputConfig.Line)] = [:]
        for (line, user) in c.claimedLines {
            let chip = Self.chipKey(line.chip)
            if chip == Self.chipKey(c.chip), c.reservedLines.contains(line.offset) {
                throw located(line.place, "\(user) is on \(line.description), which \(c.reservedFor) uses (reserved_lines in [input]); choose another line, or set reserved_lines = [] if nothing else is fitted")
            }
            let key = "\(chip)/\(line.offset)"
            if let (other, first) = users[key] {
                throw located(line.place, "\(user) is on \(line.description), which \(other) already uses (\(first.place)); each line can have one use")
            }
            users[key] = (user, line)
        }
    }

    /// Reports name their reader, so two must not share a name; nor a port or device path,
    /// which only one can hold. Two USB readers may share a device name (two of one model):
    /// each takes a device of that name that the other has not grabbed.
    private func checkReaders(_ c: InputConfig) throws {
        var names: [String: ConfigPlace] = [:]
        var devices: [String: (String, ConfigPlace)] = [:]
        for reader in c.readers {
            if let first = names[reader.name] {
                throw located(reader.place, "a reader named \"\(reader.name)\" is already set (\(first)); give each reader its own name = \"...\"")
            }
            names[reader.name] = reader.place
            let device = switch reader.kind {
            case .hid(let d): d
            case .rdm6300(let port): port
            case .pn532(let connection): String(connection.drop { $0 != ":" }.dropFirst())
            }
            if case .hid = reader.kind, !device.hasPrefix("/") { continue }
            if let (other, first) = devices[device] {
                throw located(reader.place, "reader \"\(reader.name)\" uses \(device), which reader \"\(other)\" already uses (\(first)); each device can have one reader")
            }
            devices[device] = (reader.name, reader.place)
        }
        let uses = c.keys.map { ("key \"\($0.name)\"", $0.device, $0.place) } + c.axes.map { ("axis \"\($0.name)\"", $0.device, $0.place) }
        for (user, device, place) in uses where !device.isEmpty {
            guard let reader = c.readers.first(where: { $0.kind == .hid(device: device) }) else { continue }
            throw located(place, "\(user) is on \"\(device)\", which card reader \"\(reader.name)\" takes for itself (\(reader.place)); its keys reach only the cards")
        }
    }

    private func located(_ place: ConfigPlace, _ reason: String) -> ConfigError {
        ConfigError(path: place.path, line: place.line, column: 1, reason: reason)
    }

    /// The same chip written different ways (`gpiochip0`, `/dev/gpiochip0`, `0`) compares equal.
    static func chipKey(_ chip: String) -> String {
        let name = chip.hasPrefix("/dev/") ? String(chip.dropFirst(5)) : chip
        return name.allSatisfy(\.isNumber) ? "gpiochip\(name)" : name
    }
}

