import Testing
@testable import JukeboxCore

/// The sleep timer's fade in the gain stage the audio thread uses: the level follows
/// `SleepFade` block by block, holds silence past the end, and comes back whole.
@Suite struct SleepFadeGainTests {
    let format = OutputFormat(sampleRate: 1000, channels: 1, sampleFormat: .s16)

    func block(_ stage: GainStage, frames: Int = 100) -> [Int16] {
        let source = [Int16](repeating: 10_000, count: frames)
        return source.withUnsafeBytes { raw in
            let out = stage.process(raw, frames: frames, format: format)
            return Array(out.bindMemory(to: Int16.self))
        }
    }

    @Test func theLevelFollowsTheCurveThenSilenceThenComesBack() {
        let stage = GainStage()
        #expect(block(stage).allSatisfy { $0 == 10_000 })
        stage.fadeOut(over: 1)
        var ends: [Int16] = []
        for k in 1...10 {
            let samples = block(stage)
            // Each block ends at the curve's level for its end: a ramp, never a step.
            let expected = 10_000 * SleepFade.level(at: Double(k) / 10)
            #expect(abs(Double(samples.last!) - expected) <= 200, "block \(k): \(samples.last!) for \(expected)")
            #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 >= $1 })
            ends.append(samples.last!)
        }
        #expect(ends.last! <= 1)
        // Past the end: silence, however long it plays.
        #expect(block(stage).allSatisfy { $0 == 0 })
        stage.restoreLevel()
        let back = block(stage)
        #expect(back.first! < 200 && back.last! >= 9_800)
        #expect(block(stage).allSatisfy { $0 == 10_000 })
    }
}
