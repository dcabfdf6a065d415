import CJukeboxShim
import Testing
@testable import JukeboxCore

@Suite struct CardReaderTests {
    static let ms: UInt64 = 1_000_000

    // MARK: RDM6300 frames

    /// A frame for ten digits, with its checksum (XOR of the five bytes) worked out here.
    static func frame(_ digits: String, checksum: UInt8? = nil) -> [UInt8] {
        let bytes = Array(digits.utf8)
        var sum: UInt8 = 0
        for i in stride(from: 0, to: 10, by: 2) { sum ^= UInt8(String(decoding: bytes[i...i + 1], as: UTF8.self), radix: 16)! }
        let hex = Array(String(checksum ?? sum, radix: 16, uppercase: true).utf8)
        return [0x02] + bytes + (hex.count == 1 ? [UInt8(ascii: "0")] : []) + hex + [0x03]
    }

    @Test func aValidFrameGivesItsTenDigits() {
        var frames = RDM6300Frames()
        #expect(frames.feed(Self.frame("0A00C3F1E2")) == [.card(CardID("0A00C3F1E2")!)])
        // Lower-case hex digits are read as well.
        #expect(frames.feed(Self.frame("0a00c3f1e2")) == [.card(CardID("0A00C3F1E2")!)])
    }

    @Test func aBadChecksumIsRefused() {
        var frames = RDM6300Frames()
        let good = Self.frame("1100A9B4C7")
        var bad = good
        bad[12] = bad[12] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        #expect(frames.feed(bad) == [.bad("a frame whose checksum does not match")])
        #expect(frames.feed(good) == [.card(CardID("1100A9B4C7")!)])
    }

    @Test func garbageAndCutFramesCostOnlyThemselves() {
        var frames = RDM6300Frames()
        let good = Self.frame("1100A9B4C7")
        // Noise before, a frame cut short by the next STX, a frame with a non-hex digit,
        // one without its ETX: the good frame after each is still read.
        let stream: [UInt8] = [0xFF, 0x41, 0x00] + good.prefix(7) + good
            + [0x02] + Array("11ZZA9B4C7".utf8) + [0x30, 0x30, 0x03] + good
            + good.dropLast() + [0x41] + good
        let items = frames.feed(stream)
        let cards = items.filter { if case .card = $0 { true } else { false } }
        #expect(cards.count == 3)
        #expect(items.contains(.bad("a frame cut short after 6 bytes")))
        #expect(items.contains(.bad("a frame with a character that is not a hex digit")))
        #expect(items.contains(.bad("a frame without its end byte")))
    }

    @Test func framesSplitAcrossReadsAndBackToBack() {
        var frames = RDM6300Frames()
        let stream = Self.frame("0A00C3F1E2") + Self.frame("0A00C3F1E2") + Self.frame("4400123456")
        var items: [RDM6300Frames.Item] = []
        // One byte at a time, then in uneven pieces: the same frames come out.
        for byte in stream { items += frames.feed([byte]) }
        var pieces: [RDM6300Frames.Item] = []
        var rest = stream[...]
        for size in [5, 1, 13, 20, 3] where !rest.isEmpty {
            pieces += frames.feed(rest.prefix(size))
            rest = rest.dropFirst(size)
        }
        pieces += frames.feed(rest)
        let expected: [RDM6300Frames.Item] = [.card(CardID("0A00C3F1E2")!), .card(CardID("0A00C3F1E2")!), .card(CardID("4400123456")!)]
        #expect(items == expected)
        #expect(pieces == expected)
    }

    @Test func theFieldEmptiesOnceWhenFramesStop() {
        var field = RDM6300Field()
        #expect(field.deadline == nil)
        field.frame(at: 0)
        field.frame(at: 65 * Self.ms)
        let early = field.advance(to: 400 * Self.ms)
        let due = field.advance(to: 565 * Self.ms)
        let again = field.advance(to: 2_000 * Self.ms)
        #expect(!early && due && !again)
        #expect(field.deadline == nil)
        field.frame(at: 3_000 * Self.ms)
        let lost = field.lost(), lostAgain = field.lost()
        #expect(lost && !lostAgain)
    }

    // MARK: A USB reader's keys

    static func keys(_ text: String) -> [Int] {
        text.map { c -> Int in
            switch c {
            case "\n": Int(KEY_ENTER)
            case "0": Int(KEY_0)
            case "1"..."9": Int(KEY_1) + Int(String(c))! - 1
            case "A": Int(KEY_A)
            case "B": Int(KEY_B)
            case "C": Int(KEY_C)
            case "D": Int(KEY_D)
            case "E": Int(KEY_E)
            case "F": Int(KEY_F)
            default: Int(KEY_X)
            }
        }
    }

    /// Types `text` one key every 5 ms from `start`.
    static func type(_ text: String, into number: inout TypedCardNumber, from start: UInt64 = 0) -> [TypedCardNumber.Outcome] {
        var outcomes: [TypedCardNumber.Outcome] = []
        for (i, key) in keys(text).enumerated() { outcomes += number.press(key, at: start + UInt64(i) * 5 * ms) }
        return outcomes
    }

    @Test func digitsThenEnterReadACard() {
        var number = TypedCardNumber()
        #expect(Self.type("0012345678\n", into: &number) == [.read(CardID("0012345678")!)])
        #expect(number.deadline == nil)
        // Keypad digits, hex letters and shift.
        let keypad = [KEY_KP0, KEY_KP4, KEY_LEFTSHIFT, KEY_A, KEY_KP9, KEY_KPENTER].map(Int.init)
        var outcomes: [TypedCardNumber.Outcome] = []
        for key in keypad { outcomes += number.press(key, at: 1_000 * Self.ms) }
        #expect(outcomes == [.read(CardID("04A9")!)])
        // A stray Enter reads nothing.
        #expect(number.press(Int(KEY_ENTER), at: 2_000 * Self.ms) == [])
    }

    @Test func garbageIsDroppedWithOneMessage() {
        var number = TypedCardNumber()
        let outcomes = Self.type("12X34YY5\n", into: &number)
        #expect(outcomes == [.dropped("typed KEY_X, which is not part of a card number")])
        // The next number is read.
        #expect(Self.type("777\n", into: &number, from: 100 * Self.ms) == [.read(CardID("777")!)])
    }

    @Test func endlessDigitsAreBoundedAndSaidOnce() {
        var number = TypedCardNumber()
        let outcomes = Self.type(String(repeating: "9", count: 5_000), into: &number)
        #expect(outcomes == [.dropped("typed more than 32 characters without Enter")])
        // Its Enter ends the burst without a read; 32 digits are still a card.
        #expect(number.press(Int(KEY_ENTER), at: 30_000 * Self.ms) == [])
        let longest = String(repeating: "1", count: 32)
        #expect(Self.type(longest + "\n", into: &number, from: 40_000 * Self.ms) == [.read(CardID(longest)!)])
    }

    @Test func aNumberWithoutEnterIsDroppedAfterAPause() {
        var number = TypedCardNumber()
        #expect(Self.type("1234", into: &number) == [])
        let deadline = number.deadline!
        #expect(number.advance(to: deadline - 1) == [])
        #expect(number.advance(to: deadline) == [.dropped("typed 4 characters and no Enter")])
        #expect(number.deadline == nil)
        // A pause inside a number: the first part is dropped when the next key comes.
        #expect(Self.type("12", into: &number, from: 10_000 * Self.ms) == [])
        #expect(Self.type("34\n", into: &number, from: 12_000 * Self.ms) == [.dropped("typed 2 characters and no Enter"), .read(CardID("34")!)])
    }
}
