import Testing
@testable import JukeboxCore

@Suite struct InputConfigTests {
    func parse(_ text: String) throws -> InputConfig { try ConfigLoader.parse(text, path: "j.toml").input }

    func error(_ text: String) -> ConfigError? {
        do { _ = try parse(text); return nil } catch { return error as? ConfigError }
    }

    @Test func buttonsEncodersAndKeys() throws {
        let c = try parse("""
            [input]
            debounce_ms = 15
            [[input.button]]
            line = 5
            press = "play-pause"
            long = "stop"
            [[input.button]]
            name = "next"
            line = 6
            press = "next"
            hold = "fast-forward"
            [[input.button]]
            line = 13
            repeat = "volume-up"
            repeat_ms = 100
            [[input.encoder]]
            a = 17
            b = 27
            button = 22
            transitions_per_detent = 2
            action = "volume"
            pressed_action = "seek"
            acceleration = [[60, 2], [25, 5]]
            press = "play-pause"
            [[input.interruption]]
            line = 16
            active_low = false
            bias = "pull-down"
            [[input.key]]
            device = "gpio-keys"
            code = "KEY_PLAYPAUSE"
            press = "play-pause"
            [[input.axis]]
            code = "REL_DIAL"
            action = "volume"
            """)
        #expect(c.buttons.count == 3)
        #expect(c.buttons[0].gestures.press == .toggle && c.buttons[0].gestures.long == .stop)
        #expect(c.buttons[0].debounceMilliseconds == 15)
        #expect(c.buttons[1].gestures.hold == .fastForward(.begin))
        #expect(c.buttons[2].gestures.repeating == .volumeStep(1) && c.buttons[2].gestures.repeatInterval == 100_000_000)
        #expect(c.buttons[1].place == ConfigPlace(path: "j.toml", line: 9))
        #expect(c.encoders[0].transitionsPerDetent == 2 && c.encoders[0].pressedAction == .seek(seconds: 5))
        #expect(c.encoders[0].acceleration.rules.count == 2)
        #expect(c.interruptions[0].line.bias == .pullDown && !c.interruptions[0].line.activeLow)
        #expect(c.keys[0].code == 164 && c.keys[0].device == "gpio-keys")
        #expect(c.axes[0].kind == .relative && c.axes[0].code == 7)
    }

    @Test func aLineUsedTwiceNamesBothUsers() {
        let e = error("""
            [input]
            [[input.button]]
            line = 17
            press = "next"
            [[input.encoder]]
            a = 5
            b = 17
            """)
        #expect(e?.line == 7)
        #expect(e?.description.contains("encoder \"volume\" (line b)") == true)
        #expect(e?.description.contains("button \"next\" already uses (j.toml:3)") == true)
    }

    @Test func theSameChipWrittenTwoWaysIsOneChip() {
        let e = error("""
            [[input.button]]
            chip = "/dev/gpiochip0"
            line = 4
            press = "next"
            [[input.button]]
            chip = "0"
            line = 4
            press = "previous"
            """)
        #expect(e?.line == 7)
    }

    @Test func theDACsPinsAreRefusedUnlessFreed() throws {
        let e = error("""
            [[input.button]]
            line = 18
            press = "next"
            """)
        #expect(e?.line == 2)
        #expect(e?.reason.contains("an I2S DAC") == true)
        #expect(try parse("[input]\nreserved_lines = []\n[[input.button]]\nline = 18\npress = \"next\"\n").buttons.count == 1)
    }

    @Test func unknownActionsAndMistakesAreLocated() {
        let unknown = error("""
            [[input.button]]
            line = 5
            press = "play-pasue"
            """)
        #expect(unknown?.line == 3)
        #expect(unknown?.reason.contains("unknown action \"play-pasue\"") == true)
        #expect(error("[[input.button]]\nline = 5\npress = \"fast-forward\"\n")?.reason.contains("hold = \"fast-forward\"") == true)
        #expect(error("[[input.button]]\nline = 5\n")?.reason.contains("no action") == true)
        #expect(error("[[input.button]]\npress = \"next\"\n")?.reason.contains("needs line") == true)
        #expect(error("[[input.button]]\nline = 5\nrepeat = \"volume-up\"\npress = \"next\"\n")?.line == 3)
        #expect(error("[[input.encoder]]\na = 1\nb = 2\ntransitions_per_detent = 3\n")?.line == 4)
        #expect(error("[[input.key]]\ncode = \"KEY_BOGUS\"\npress = \"next\"\n")?.line == 2)
        #expect(error("[[input.button]]\nline = 5\npres = \"next\"\n")?.reason.contains("did you mean \"press\"") == true)
        #expect(error("[[input.button]]\nline = 5\npress = \"next\"\n[[input.button]]\nline = 6\npress = \"nope\"\n")?.line == 6)
    }

    @Test func skipActionsTakeTheirOwnSeconds() throws {
        let c = try parse("[[input.button]]\nline = 5\npress = \"skip-30\"\n[[input.button]]\nline = 6\npress = \"skip-forward\"\n")
        #expect(c.buttons[0].gestures.press == .skip(seconds: -30))
        #expect(c.buttons[1].gestures.press == .skip(seconds: 10))
    }

    @Test func cardReadersOfEachKind() throws {
        let c = try parse("""
            [[input.reader]]
            name = "usb"
            type = "hid"
            device = "Sycreader USB Reader"
            [[input.reader]]
            type = "rdm6300"
            device = "/dev/serial0"
            [[input.reader]]
            name = "nfc"
            type = "pn532"
            bus = "i2c"
            device = "/dev/i2c-1"
            [[input.reader]]
            name = "nfc2"
            type = "pn532"
            bus = "uart"
            device = "/dev/ttyS1"
            [[input.reader]]
            name = "nfc3"
            type = "pn532"
            bus = "spi"
            device = "/dev/spidev0.0"
            """)
        #expect(c.readers.map(\.kind) == [
            .hid(device: "Sycreader USB Reader"), .rdm6300(port: "/dev/serial0"), .pn532(connection: "pn532_i2c:/dev/i2c-1"),
            .pn532(connection: "pn532_uart:/dev/ttyS1"), .pn532(connection: "pn532_spi:/dev/spidev0.0"),
        ])
        #expect(c.readers.map(\.name) == ["usb", "/dev/serial0", "nfc", "nfc2", "nfc3"])
        #expect(c.readers[1].place == ConfigPlace(path: "j.toml", line: 6))
        #expect(!c.isEmpty)
    }

    @Test func cardReaderMistakesAreLocated() {
        let unknown = error("[[input.reader]]\nname = \"a\"\ntype = \"barcode\"\ndevice = \"x\"\n")
        #expect(unknown?.line == 3)
        #expect(unknown?.reason.contains("type must be \"hid\"") == true)
        #expect(error("[[input.reader]]\ndevice = \"x\"\n")?.reason.contains("needs type") == true)
        let noDevice = error("[[input.reader]]\ntype = \"rdm6300\"\n")
        #expect(noDevice?.line == 1)
        #expect(noDevice?.reason.contains("needs device = the serial port") == true)
        #expect(error("[[input.reader]]\ntype = \"pn532\"\ndevice = \"/dev/i2c-1\"\n")?.reason.contains("needs bus") == true)
        #expect(error("[[input.reader]]\ntype = \"pn532\"\nbus = \"usb\"\ndevice = \"/dev/x\"\n")?.line == 3)
        #expect(error("[[input.reader]]\ntype = \"hid\"\nbus = \"spi\"\ndevice = \"x\"\n")?.line == 3)
        #expect(error("[[input.reader]]\ntype = \"hid\"\ndevice = \"x\"\nport = \"y\"\n")?.line == 4)
    }

    @Test func twoReadersMayNotShareANameOrAPort() {
        let name = error("""
            [[input.reader]]
            name = "box"
            type = "hid"
            device = "Reader"
            [[input.reader]]
            name = "box"
            type = "rdm6300"
            device = "/dev/ttyUSB0"
            """)
        #expect(name?.line == 7)
        #expect(name?.reason.contains("already set (j.toml:3)") == true)
        let port = error("""
            [[input.reader]]
            type = "rdm6300"
            device = "/dev/ttyS0"
            [[input.reader]]
            name = "nfc"
            type = "pn532"
            bus = "uart"
            device = "/dev/ttyS0"
            """)
        #expect(port?.line == 6)
        #expect(port?.reason.contains("which reader \"/dev/ttyS0\" already uses") == true)
        let key = error("""
            [[input.reader]]
            type = "hid"
            device = "Reader"
            [[input.key]]
            device = "Reader"
            code = "KEY_1"
            press = "next"
            """)
        #expect(key?.line == 6)
        #expect(key?.reason.contains("which card reader \"Reader\" takes for itself (j.toml:2)") == true)
        // Two USB readers of one model have one name: each takes its own device.
        #expect(error("[[input.reader]]\nname = \"a\"\ntype = \"hid\"\ndevice = \"R\"\n[[input.reader]]\nname = \"b\"\ntype = \"hid\"\ndevice = \"R\"\n") == nil)
    }
}
