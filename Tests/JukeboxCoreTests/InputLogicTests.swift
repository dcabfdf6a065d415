import Testing
@testable import JukeboxCore

private let ms: UInt64 = 1_000_000

/// Debounce, gestures and the encoder, driven by timestamped synthetic edges as the
/// kernel would report them.
@Suite struct PollTimeoutTests {
    /// The input and reader threads' poll(): rounded up so they never wake early, capped.
    @Test func roundsUpAndCaps() {
        #expect(MonotonicClock.pollTimeout(until: [], now: 0) == -1)
        #expect(MonotonicClock.pollTimeout(until: [1_000_001, 9_000_000], now: 0) == 2)
        #expect(MonotonicClock.pollTimeout(until: [5], now: 10) == 0)
        #expect(MonotonicClock.pollTimeout(until: [200_000_000_000], now: 0) == 60_000)
    }
}

@Suite struct DebounceTests {
    /// Edges at `times` (ms) alternating from active, then time passes to `until`.
    func changes(_ times: [UInt64], window: UInt64 = 20, until: UInt64) -> [Debouncer.Change] {
        var d = Debouncer(windowNanoseconds: window * ms)
        var out: [Debouncer.Change] = []
        for (i, t) in times.enumerated() {
            if let due = d.deadline, due < t * ms, let c = d.settle(now: due) { out.append(c) }
            if let c = d.edge(active: i % 2 == 0, at: t * ms) { out.append(c) }
        }
        if let c = d.settle(now: until * ms) { out.append(c) }
        return out
    }

    @Test func bouncesInsideTheWindowCountOnce() {
        // Press at 0 with five 1 ms bounces, settled pressed.
        let got = changes([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], until: 100)
        #expect(got == [Debouncer.Change(active: true, at: 0)])
    }

    @Test func theChangeIsDatedByTheFirstEdgeAndDecidedAfterTheWindow() {
        var d = Debouncer(windowNanoseconds: 20 * ms)
        #expect(d.edge(active: true, at: 5 * ms) == nil)
        #expect(d.edge(active: false, at: 6 * ms) == nil)
        #expect(d.edge(active: true, at: 7 * ms) == nil)
        #expect(d.settle(now: 26 * ms) == nil)
        #expect(d.settle(now: 27 * ms) == Debouncer.Change(active: true, at: 5 * ms))
    }

    @Test func aGlitchThatReturnsIsNothing() {
        #expect(changes([0, 1], until: 100).isEmpty)
    }

    @Test func deliberatePresses100msApartAllCount() {
        // Ten presses of 50 ms, every 100 ms: 20 changes.
        let times = (0..<10).flatMap { [UInt64($0) * 100, UInt64($0) * 100 + 50] }
        let got = changes(times, until: 2000)
        #expect(got.count == 20)
        #expect(got.filter(\.active).map(\.at) == (0..<10).map { UInt64($0) * 100 * ms })
    }

    @Test func repeatedLevelReportsAreIgnored() {
        var d = Debouncer(windowNanoseconds: 20 * ms, initial: true)
        #expect(d.edge(active: true, at: 1 * ms) == nil)
        #expect(d.deadline == nil)
    }

    @Test func zeroWindowIsImmediate() {
        var d = Debouncer(windowNanoseconds: 0)
        #expect(d.edge(active: true, at: 3) == Debouncer.Change(active: true, at: 3))
        #expect(d.edge(active: false, at: 4) == Debouncer.Change(active: false, at: 4))
    }
}

@Suite struct GestureTests {
    typealias G = ButtonGestures<String>

    func run(_ set: GestureSet<String>, press: UInt64, release: UInt64, ticks: [UInt64] = []) -> [String] {
        var g = G(set)
        var fired = g.pressed(at: press * ms)
        for t in ticks { fired += g.advance(to: t * ms) }
        fired += g.released(at: release * ms)
        return fired.map { "\($0.gesture.rawValue):\($0.action)" }
    }

    @Test func pressAloneActsAtOnce() {
        var g = G(GestureSet(press: "next"))
        #expect(g.pressed(at: 10 * ms).map(\.action) == ["next"])
        #expect(g.released(at: 900 * ms).isEmpty)
    }

    @Test func shortPressWithLongActsOnRelease() {
        #expect(run(GestureSet(press: "toggle", long: "stop"), press: 0, release: 200, ticks: [100]) == ["press:toggle"])
    }

    @Test func longPressGivesTheLongActionNotTheShortOne() {
        let got = run(GestureSet(press: "toggle", long: "stop"), press: 0, release: 1500, ticks: [599, 600, 1000])
        #expect(got == ["long:stop"])
    }

    @Test func longIsFiredAtReleaseIfNoTickCameInBetween() {
        #expect(run(GestureSet(press: "toggle", long: "stop"), press: 0, release: 700) == ["long:stop"])
    }

    @Test func holdBeginsAtTheThresholdAndEndsAtRelease() {
        let got = run(GestureSet(press: "next", hold: "ff"), press: 0, release: 2000, ticks: [600, 1200])
        #expect(got == ["hold:ff", "release:ff"])
        #expect(run(GestureSet(press: "next", hold: "ff"), press: 0, release: 300) == ["press:next"])
    }

    @Test func repeatActsAtOnceThenEveryIntervalAfterTheDelay() {
        var set = GestureSet<String>(repeating: "vol+")
        set.repeatDelay = 400 * ms
        set.repeatInterval = 150 * ms
        // 0, then 400, 550, 700, 850 while held to 900.
        #expect(run(set, press: 0, release: 900, ticks: [300, 500, 900]).count == 5)
        #expect(run(set, press: 0, release: 100).count == 1)
    }

    @Test func deadlineNamesTheNextMoment() {
        var g = G(GestureSet(press: "a", long: "b"))
        _ = g.pressed(at: 1000 * ms)
        #expect(g.deadline == 1600 * ms)
        _ = g.advance(to: 1600 * ms)
        #expect(g.deadline == nil)
    }

    @Test func aConsumedPressFiresNothing() {
        var g = G(GestureSet(press: "toggle", long: "stop"))
        _ = g.pressed(at: 0)
        #expect(g.consume().isEmpty)
        #expect(g.advance(to: 1000 * ms).isEmpty)
        #expect(g.released(at: 1100 * ms).isEmpty)
    }
}

@Suite struct ButtonUnitTests {
    @Test func bouncyPressAndReleaseGiveOneAction() {
        let unit = ButtonUnit(source: "button", debounceMilliseconds: 20, gestures: GestureSet(press: .toggle))
        var actions: [InputAction] = []
        // Press with five 1 ms bounces, release 200 ms later with bounces too.
        for (i, t) in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].enumerated() { actions += unit.edge(active: i % 2 == 0, at: UInt64(t) * ms) }
        actions += unit.advance(to: 100 * ms)
        for (i, t) in [200, 201, 202, 203, 204].enumerated() { actions += unit.edge(active: i % 2 != 0, at: UInt64(t) * ms) }
        actions += unit.advance(to: 400 * ms)
        #expect(actions.map(\.command) == [.toggle])
        #expect(actions.first?.edgeAt == 0)
    }

    @Test func aReleaseStillBouncingBeforeTheThresholdIsAShortPress() {
        let unit = ButtonUnit(source: "b", debounceMilliseconds: 20, gestures: GestureSet(press: .next, long: .stop))
        var actions = unit.edge(active: true, at: 0)
        actions += unit.advance(to: 30 * ms)
        actions += unit.edge(active: false, at: 590 * ms)  // released just before 600 ms
        #expect(unit.deadline == 610 * ms)                  // the long-press deadline waits for the settle
        actions += unit.advance(to: 600 * ms)
        actions += unit.advance(to: 610 * ms)
        #expect(actions.map(\.command) == [.next])
    }

    @Test func heldFastForwardBeginsAndEnds() {
        let unit = ButtonUnit(source: "b", debounceMilliseconds: 20, gestures: GestureSet(press: .next, hold: .fastForward(.begin)))
        var actions = unit.edge(active: true, at: 0)
        actions += unit.advance(to: 700 * ms)
        actions += unit.edge(active: false, at: 2000 * ms)
        actions += unit.advance(to: 2100 * ms)
        #expect(actions.map(\.command) == [.fastForward(.begin), .fastForward(.end)])
        #expect(actions.map(\.gesture) == [.button(.holdBegin), .button(.holdEnd)])
        #expect(unit.lost(at: 3000 * ms).isEmpty)
    }

    @Test func interruptionFollowsTheLevel() {
        let unit = InterruptionUnit(source: "door", debounceMilliseconds: 20)
        var actions = unit.start(active: false, at: 0)
        actions += unit.edge(active: true, at: 100 * ms)
        actions += unit.advance(to: 200 * ms)
        actions += unit.edge(active: false, at: 500 * ms)
        actions += unit.advance(to: 600 * ms)
        #expect(actions.map(\.command) == [.interruptionBegan, .interruptionEnded])
        #expect(actions.map(\.gesture) == [.interruptionBegan, .interruptionEnded])
    }
}

@Suite struct EncoderTests {
    /// AB states for one detent clockwise from rest, for each setting.
    static func detent(_ perDetent: Int, clockwise: Bool, from start: Int = 0) -> [(Bool, Bool)] {
        let cycle: [(Bool, Bool)] = [(false, false), (true, false), (true, true), (false, true)]
        let step = clockwise ? 1 : 3
        return (1...perDetent).map { cycle[(start + $0 * step) % 4] }
    }

    /// Turns `detents` detents, bouncing the changing line inside each (a forward-and-back
    /// flicker before it settles), and returns the net count.
    func turn(_ perDetent: Int, detents: Int, clockwise: Bool, bounce: Bool, decoder: inout QuadratureDecoder, phase: inout Int) -> Int {
        var total = 0
        let cycle: [(Bool, Bool)] = [(false, false), (true, false), (true, true), (false, true)]
        for _ in 0..<detents {
            for _ in 0..<perDetent {
                let previous = cycle[phase]
                phase = (phase + (clockwise ? 1 : 3)) % 4
                let next = cycle[phase]
                if bounce {
                    total += decoder.update(a: next.0, b: next.1)
                    total += decoder.update(a: previous.0, b: previous.1)
                }
                total += decoder.update(a: next.0, b: next.1)
            }
        }
        return total
    }

    @Test(arguments: [1, 2, 4]) func twentyForwardTenBackWithBounce(perDetent: Int) {
        var decoder = QuadratureDecoder(transitionsPerDetent: perDetent)
        var phase = 0
        #expect(turn(perDetent, detents: 20, clockwise: true, bounce: perDetent != 1, decoder: &decoder, phase: &phase) == 20)
        #expect(turn(perDetent, detents: 10, clockwise: false, bounce: perDetent != 1, decoder: &decoder, phase: &phase) == -10)
    }

    @Test func halfADetentAndBackIsNothing() {
        var d = QuadratureDecoder(transitionsPerDetent: 4)
        #expect(d.update(a: true, b: false) == 0)
        #expect(d.update(a: true, b: true) == 0)
        #expect(d.update(a: true, b: false) == 0)
        #expect(d.update(a: false, b: false) == 0)
    }

    @Test func aNoisyLineAloneNeverSteps() {
        var d = QuadratureDecoder(transitionsPerDetent: 4)
        var total = 0
        for i in 0..<100 { total += d.update(a: i % 2 == 0, b: false) }
        #expect(total == 0)
        var two = QuadratureDecoder(transitionsPerDetent: 2)
        for i in 0..<100 { total += two.update(a: false, b: i % 2 == 0) }
        #expect(total == 0)
    }

    @Test func aLostEdgeDisarmsUntilRest() {
        var d = QuadratureDecoder(transitionsPerDetent: 4)
        #expect(d.update(a: true, b: false) == 0)
        #expect(d.update(a: false, b: true) == 0)   // both lines at once: impossible
        #expect(d.update(a: false, b: false) == 0)
        // Armed again: a clean detent counts.
        var total = 0
        for (a, b) in Self.detent(4, clockwise: true) { total += d.update(a: a, b: b) }
        #expect(total == 1)
    }

    @Test func accelerationFollowsTheRules() {
        var acceleration = Acceleration([.init(withinMilliseconds: 60, steps: 2), .init(withinMilliseconds: 25, steps: 5)])
        #expect(acceleration.steps(direction: 1, at: 0) == 1)
        #expect(acceleration.steps(direction: 1, at: 100 * ms) == 1)
        #expect(acceleration.steps(direction: 1, at: 140 * ms) == 2)
        #expect(acceleration.steps(direction: 1, at: 150 * ms) == 5)
        #expect(acceleration.steps(direction: -1, at: 155 * ms) == 1)  // a reversal starts slow
    }

    func encoderConfig(perDetent: Int = 4, debounce: Int = 0, pressed: StepAction? = nil) -> InputConfig.Encoder {
        let place = ConfigPlace(path: "j.toml", line: 1)
        let line = InputConfig.Line(chip: "gpiochip0", offset: 0, bias: .pullUp, activeLow: true, place: place)
        return InputConfig.Encoder(
            name: "knob", a: line, b: line, button: pressed == nil ? nil : line,
            buttonGestures: GestureSet(press: .toggle), transitionsPerDetent: perDetent, debounceMilliseconds: debounce,
            buttonDebounceMilliseconds: 20, action: .volume, pressedAction: pressed, acceleration: Acceleration(), place: place)
    }

    @Test func unitWithDebouncedLinesCountsDetentsWithChatter() {
        // One transition per detent: the debounce is what keeps chatter out.
        let unit = EncoderUnit(encoderConfig(perDetent: 1, debounce: 2))
        var actions: [InputAction] = []
        var t: UInt64 = 0
        var levels = (a: false, b: false)
        // Clockwise, A then B changes; each change chatters twice at 0.2 ms before it settles.
        for i in 0..<8 {
            let line: EncoderUnit.Line = i % 2 == 0 ? .a : .b
            let new = line == .a ? !levels.a : !levels.b
            if line == .a { levels.a = new } else { levels.b = new }
            for flick in [new, !new, new, !new, new] {
                actions += unit.edge(line, active: flick, at: t)
                t += 200_000
            }
            t += 10 * ms
            actions += unit.advance(to: t)
        }
        #expect(actions.map(\.command) == Array(repeating: .volumeStep(1), count: 8))
    }

    /// Lines as a test sets them, read at the time it sets.
    final class SimulatedLines {
        var levels = EncoderUnit.Levels(a: false, b: false, button: false)
        var at: UInt64 = 0

        func set(a: Bool, b: Bool, at: UInt64) {
            levels = .init(a: a, b: b, button: false)
            self.at = at
        }
    }

    func unit(perDetent: Int, reading lines: SimulatedLines) -> EncoderUnit {
        let unit = EncoderUnit(encoderConfig(perDetent: perDetent))
        unit.readLines = { EncoderUnit.Reading(levels: lines.levels, at: lines.at) }
        return unit
    }

    @Test func anEdgeReadBeforeAnOlderOneOfTheOtherLineWaitsForIt() {
        // B rose, then A: a detent back. A's event is read first, while B's is on its way.
        let lines = SimulatedLines()
        let unit = unit(perDetent: 2, reading: lines)
        lines.set(a: true, b: true, at: 11 * ms)
        var actions = unit.edge(.a, active: true, at: 10 * ms)
        actions += unit.advance(to: 12 * ms)
        #expect(actions.isEmpty)
        #expect(unit.deadline == 10 * ms + EncoderUnit.longestWait)
        actions += unit.edge(.b, active: true, at: 5 * ms)
        actions += unit.advance(to: 13 * ms)
        #expect(actions.map(\.command) == [.volumeStep(-1)])
        #expect(actions.map(\.edgeAt) == [10 * ms])
    }

    @Test func edgesThatAgreeWithTheLinesGoAtOnce() {
        let lines = SimulatedLines()
        let unit = unit(perDetent: 2, reading: lines)
        lines.set(a: true, b: false, at: 1 * ms)
        #expect(unit.edge(.a, active: true, at: 1 * ms).isEmpty)
        lines.set(a: true, b: true, at: 2 * ms)
        #expect(unit.edge(.b, active: true, at: 2 * ms).map(\.command) == [.volumeStep(1)])
        #expect(unit.deadline == nil)
    }

    @Test func aMoveWhoseEventNeverComesStandsAsSeen() {
        let lines = SimulatedLines()
        let unit = unit(perDetent: 2, reading: lines)
        // B rose and its event was lost; A's comes and waits for it.
        lines.set(a: true, b: true, at: 2 * ms)
        #expect(unit.edge(.a, active: true, at: 1 * ms).isEmpty)
        #expect(unit.advance(to: 50 * ms).isEmpty)
        // B taken as risen when it was seen, after A: a detent forward.
        let actions = unit.advance(to: 1 * ms + EncoderUnit.longestWait)
        #expect(actions.map(\.command) == [.volumeStep(1)])
        #expect(actions.map(\.edgeAt) == [2 * ms])
    }

    @Test func aBouncesLostReturnIsPutBackWhenTheLineMovesAgain() {
        // Clockwise, 2 per click. A rises, bounces down and up; the kernel drops the edge
        // back up, so A's events end on "down" while A is up.
        let lines = SimulatedLines()
        let unit = unit(perDetent: 2, reading: lines)
        lines.set(a: true, b: false, at: 1_100_000)
        var actions = unit.edge(.a, active: true, at: 1 * ms)
        lines.set(a: true, b: false, at: 2_500_000)
        actions += unit.edge(.a, active: false, at: 2 * ms)  // read: A is up, seen at 2.5 ms
        // B rises at 6 ms; by the time its event is read A has fallen again (at 8 ms).
        lines.set(a: false, b: true, at: 9 * ms)
        actions += unit.edge(.b, active: true, at: 6 * ms)
        #expect(actions.isEmpty)
        // A's fall at 8 ms is later than the sighting: the rise seen at 2.5 ms was real.
        actions += unit.edge(.a, active: false, at: 8 * ms)
        #expect(actions.map(\.command) == [.volumeStep(1)])
        lines.set(a: false, b: false, at: 13 * ms)
        #expect(unit.edge(.b, active: false, at: 12 * ms).map(\.command) == [.volumeStep(1)])
    }

    @Test func aLateBounceOfTheOtherLineIsDropped() {
        // B flickered up and down before A rose; its two events come after A's was applied.
        let lines = SimulatedLines()
        let unit = unit(perDetent: 2, reading: lines)
        lines.set(a: true, b: false, at: 11 * ms)
        var actions = unit.edge(.a, active: true, at: 10 * ms)
        actions += unit.edge(.b, active: true, at: 4 * ms)
        actions += unit.edge(.b, active: false, at: 5 * ms)
        actions += unit.advance(to: 20 * ms)
        #expect(actions.isEmpty)
        // The decoder still stands where A left it: B rising completes the detent.
        lines.set(a: true, b: true, at: 31 * ms)
        #expect(unit.edge(.b, active: true, at: 30 * ms).map(\.command) == [.volumeStep(1)])
    }

    @Test func turningWhilePressedDoesTheSecondActionAndNotThePress() {
        let unit = EncoderUnit(encoderConfig(pressed: .seek(seconds: 5)))
        var actions = unit.edge(.button, active: true, at: 0)
        actions += unit.advance(to: 30 * ms)
        var t = 40 * ms
        for (a, b) in Self.detent(4, clockwise: true) {
            actions += unit.edge(.a, active: a, at: t)
            actions += unit.edge(.b, active: b, at: t + 1)
            t += 5 * ms
        }
        actions += unit.edge(.button, active: false, at: 200 * ms)
        actions += unit.advance(to: 300 * ms)
        #expect(actions.map(\.command) == [.skip(seconds: 5)])
        // Pressed and released without turning: the press.
        var again = unit.edge(.button, active: true, at: 400 * ms)
        again += unit.edge(.button, active: false, at: 500 * ms)
        again += unit.advance(to: 600 * ms)
        #expect(again.map(\.command) == [.toggle])
    }

    @Test func axisUnitsMakeSteps() {
        let place = ConfigPlace(path: "j.toml", line: 1)
        let rel = AxisUnit(InputConfig.Axis(name: "dial", device: "", kind: .relative, code: 7, unitsPerStep: 2, action: .volume, place: place))
        #expect(rel.value(1, at: 0).isEmpty)
        #expect(rel.value(1, at: 1).map(\.command) == [.volumeStep(1)])
        let back = rel.value(-4, at: 2)
        #expect(back.map(\.command) == [.volumeStep(-2)])
        #expect(back.map(\.gesture) == [.turnDown])
        let abs = AxisUnit(InputConfig.Axis(name: "pos", device: "", kind: .absolute, code: 0, unitsPerStep: 1, action: .track, place: place))
        abs.sync(absolute: 10)
        let forward = abs.value(12, at: 0)
        #expect(forward.map(\.command) == [.next, .next])
        #expect(forward.map(\.gesture) == [.turnUp, .turnUp])
    }
}

@Suite struct InputGestureTests {
    static let named: [(String, InputGesture)] = [
        ("press", .button(.press)), ("long", .button(.long)), ("repeat", .button(.repeating)),
        ("hold", .button(.holdBegin)), ("release", .button(.holdEnd)),
        ("begin", .interruptionBegan), ("end", .interruptionEnded), ("turn+", .turnUp), ("turn-", .turnDown),
    ]

    @Test func eachGestureIsLoggedByItsNameAndReadBack() {
        for (text, gesture) in Self.named {
            #expect("\(gesture)" == text)
            #expect(InputGesture(text) == gesture)
        }
        #expect(Set(Self.named.map(\.1)).count == Self.named.count)
        for unknown in ["", "Press", "turn", "holdBegin", "repeating"] { #expect(InputGesture(unknown) == nil) }
    }

    @Test func aTurnIsNamedByItsDirection() {
        #expect(InputGesture.turn(3) == .turnUp)
        #expect(InputGesture.turn(-1) == .turnDown)
    }

    @Test func theLogLineNamesTheGestureAsBefore() {
        let action = InputAction(source: "button \"next\"", gesture: .button(.repeating), command: .next, edgeAt: 0)
        #expect("input: \(action.source) \(action.gesture) → \(action.command)" == "input: button \"next\" repeat → next")
    }
}
