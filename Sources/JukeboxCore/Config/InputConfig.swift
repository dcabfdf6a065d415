/// Where in the configuration file something was set, for messages that name both users
/// of a line: `config/jukebox.toml:40`.
public struct ConfigPlace: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public init(path: String, line: Int) { self.path = path; self.line = line }
    public var description: String { "\(path):\(line)" }
}

/// The `[input]` section: GPIO buttons, rotary encoders, interruption inputs, and evdev
/// keys and axes. Empty by default: lines are claimed only when the configuration says so.
public struct InputConfig: Sendable, Equatable {
    public enum Bias: String, Sendable, Equatable, CaseIterable {
        case pullUp = "pull-up", pullDown = "pull-down", disabled = "none", asIs = "as-is"
    }

    /// One GPIO line: a chip (name such as `gpiochip0`, label, path or number) and an offset.
    public struct Line: Sendable, Equatable {
        public var chip: String
        public var offset: Int
        public var bias: Bias
        public var activeLow: Bool
        /// Where its offset is written.
        public var place: ConfigPlace
        public var description: String { "\(chip) line \(offset)" }
    }

    public struct Button: Sendable, Equatable {
        public var name: String
        public var line: Line
        public var debounceMilliseconds: Int
        public var gestures: GestureSet<InputCommand>
        public var place: ConfigPlace
    }

    public struct Encoder: Sendable, Equatable {
        public var name: String
        public var a: Line
        public var b: Line
        /// The knob's push switch, if wired, with its own gestures.
        public var button: Line?
        public var buttonGestures: GestureSet<InputCommand>
        public var transitionsPerDetent: Int
        /// Debounce on the A and B lines (0: the state machine alone).
        public var debounceMilliseconds: Int
        public var buttonDebounceMilliseconds: Int
        public var action: StepAction
        /// What turning does while the push switch is held.
        public var pressedAction: StepAction?
        public var acceleration: Acceleration
        public var place: ConfigPlace
    }

    /// A level input: while active the player is interrupted.
    public struct Interruption: Sendable, Equatable {
        public var name: String
        public var line: Line
        public var debounceMilliseconds: Int
        public var place: ConfigPlace
    }

    /// An evdev key (gpio-keys, a USB keypad, media keys, an IR receiver).
    public struct Key: Sendable, Equatable {
        public var name: String
        /// A device name as the kernel gives it, or a path; empty: any device with this key.
        public var device: String
        public var code: Int
        public var gestures: GestureSet<InputCommand>
        public var place: ConfigPlace
    }

    /// An evdev axis (`rotary-encoder` overlay: REL_X or ABS_X; a jog dial: REL_DIAL).
    public struct Axis: Sendable, Equatable {
        public enum Kind: Sendable, Equatable { case relative, absolute }
        public var name: String
        public var device: String
        public var kind: Kind
        public var code: Int
        /// Axis units that make one step.
        public var unitsPerStep: Int
        public var action: StepAction
        public var place: ConfigPlace
    }

    /// A card reader (`[[input.reader]]`): what it reports goes to the cards, not the player.
    public struct Reader: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// A USB reader that types the number and Enter: an evdev device name or path,
            /// grabbed so the digits reach nothing else.
            case hid(device: String)
            /// A 125 kHz RDM6300 on a serial port (`/dev/ttyS0`, `/dev/serial0`).
            case rdm6300(port: String)
            /// A PN532 through libnfc, by its connection string (`pn532_uart:/dev/ttyS0`,
            /// `pn532_i2c:/dev/i2c-1`, `pn532_spi:/dev/spidev0.0`).
            case pn532(connection: String)
        }
        public var name: String
        public var kind: Kind
        public var place: ConfigPlace

        public init(name: String, kind: Kind, place: ConfigPlace) {
            self.name = name
            self.kind = kind
            self.place = place
        }
    }

    /// The chip lines are on unless an entry names another (the 40-pin header's).
    public var chip = "gpiochip0"
    public var debounceMilliseconds = 20
    public var longPressMilliseconds = 600
    public var repeatDelayMilliseconds = 400
    public var repeatIntervalMilliseconds = 150
    /// Lines of `chip` that something else uses: the I2S pins of a DAC HAT by default.
    public var reservedLines = [18, 19, 20, 21]
    public var reservedFor = "an I2S DAC"
    public var buttons: [Button] = []
    public var encoders: [Encoder] = []
    public var interruptions: [Interruption] = []
    public var keys: [Key] = []
    public var axes: [Axis] = []
    public var readers: [Reader] = []

    public init() {}

    public var isEmpty: Bool { buttons.isEmpty && encoders.isEmpty && interruptions.isEmpty && keys.isEmpty && axes.isEmpty && readers.isEmpty }

    /// Every GPIO line claimed, with who claims it.
    public var claimedLines: [(line: Line, user: String)] {
        var all: [(Line, String)] = []
        for b in buttons { all.append((b.line, "button \"\(b.name)\"")) }
        for e in encoders {
            all.append((e.a, "encoder \"\(e.name)\" (line a)"))
            all.append((e.b, "encoder \"\(e.name)\" (line b)"))
            if let p = e.button { all.append((p, "encoder \"\(e.name)\" (its button)")) }
        }
        for i in interruptions { all.append((i.line, "interruption input \"\(i.name)\"")) }
        return all
    }
}
