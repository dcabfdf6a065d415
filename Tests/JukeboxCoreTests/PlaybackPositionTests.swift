import Testing
@testable import JukeboxCore

@Suite struct PlaybackPositionTests {
    func at(_ token: Int, _ frame: Int64) -> TrackPosition { TrackPosition(token: token, frame: frame) }

    @Test func heardIsWrittenLessTheDelayMappedToItsTrack() {
        var p = PlaybackPosition()
        p.begin(at: at(1, 1000))
        #expect(p.heard(delay: 0) == at(1, 1000))  // nothing written: where it starts
        p.wrote(500, of: 1, from: 1000)
        p.wrote(500, of: 1, from: 1500)
        p.wrote(300, of: 2, from: 0)  // a gapless change
        #expect(p.heard(delay: 400) == at(1, 1900))
        #expect(p.heard(delay: 300) == at(2, 0))
        #expect(p.heard(delay: 0) == at(2, 300))
        #expect(p.heard(delay: 5000) == at(1, 1000))  // never before the start
    }

    /// A device pulled out cannot say what it played: from the last look, the clock says
    /// how far it went on, across a track change too, but never past what it was given.
    @Test func aVanishedDeviceIsTakenToHavePlayedOnSinceTheLastLook() {
        var p = PlaybackPosition()
        p.begin(at: at(1, 0))
        #expect(p.heardSinceLastLook(at: 5_000_000_000, sampleRate: 1000, less: 0) == at(1, 0))  // never looked
        p.wrote(1000, of: 1, from: 0)
        p.wrote(1000, of: 2, from: 0)
        #expect(p.look(delay: 1500, at: 1_000_000_000) == at(1, 500))
        // 200 ms later at 1000 Hz: 200 frames on.
        #expect(p.heardSinceLastLook(at: 1_200_000_000, sampleRate: 1000, less: 0) == at(1, 700))
        // 700 ms later, less a 50-frame period lost in flight: into the next track.
        #expect(p.heardSinceLastLook(at: 1_700_000_000, sampleRate: 1000, less: 50) == at(2, 150))
        // Long after: it ran dry at the end of what it was given (then lost a period).
        #expect(p.heardSinceLastLook(at: 9_000_000_000, sampleRate: 1000, less: 0) == at(2, 1000))
        #expect(p.heardSinceLastLook(at: 9_000_000_000, sampleRate: 1000, less: 50) == at(2, 950))
        // Lost in flight right after the look: a little before it, never before the start.
        #expect(p.heardSinceLastLook(at: 1_000_000_000, sampleRate: 1000, less: 50) == at(1, 450))
        #expect(p.heardSinceLastLook(at: 1_000_000_000, sampleRate: 1000, less: 5000) == at(1, 0))
        // A restart forgets the look.
        p.restart(at: at(3, 40))
        #expect(p.heardSinceLastLook(at: 2_000_000_000, sampleRate: 1000, less: 0) == at(3, 40))
    }

    @Test func eachTrackIsAnnouncedOnceWhenFirstHeard() {
        var p = PlaybackPosition()
        p.begin(at: at(1, 0))
        p.wrote(100, of: 1, from: 0)
        p.wrote(100, of: 2, from: 0)
        #expect(p.newlyHeard(p.heard(delay: 150)) == 1)
        #expect(p.newlyHeard(p.heard(delay: 120)) == nil)
        #expect(p.newlyHeard(p.heard(delay: 50)) == 2)
        #expect(p.newlyHeard(p.heard(delay: 0)) == nil)
        p.begin(at: at(1, 0))  // played again: announced again
        #expect(p.newlyHeard(p.heard(delay: 0)) == 1)
    }

    /// A pause rewinds what the device has not played, writes a fade of the first frames
    /// taken back, and continues from the end of that fade: across a track change too.
    @Test func rewindAcrossATrackChangeLandsInTheEarlierTrack() {
        var p = PlaybackPosition()
        p.begin(at: at(1, 0))
        p.wrote(1000, of: 1, from: 0)
        p.wrote(1000, of: 2, from: 0)
        p.tookBack(1200)  // back into track 1: track 2 was never heard
        #expect(p.written == 800)
        p.rewrote(220)  // the fade-out
        #expect(p.position(at: p.written) == at(1, 1020))
        #expect(p.newlyHeard(p.heard(delay: 0)) == 1)
        p.wrote(100, of: 1, from: 1020)  // resuming continues track 1
        #expect(p.heard(delay: 0) == at(1, 1120))
    }

    @Test func rewindToATrackStartKeepsThatTrack() {
        var p = PlaybackPosition()
        p.begin(at: at(1, 0))
        p.wrote(1000, of: 1, from: 0)
        p.wrote(1000, of: 2, from: 0)
        p.tookBack(1000)
        p.rewrote(220)
        #expect(p.position(at: p.written) == at(2, 220))
        p.tookBack(5000)  // more than was written: back to the start, not before
        #expect(p.written == 0)
        #expect(p.heard(delay: 0) == at(1, 0))
    }

    @Test func restartKeepsTheRestingPlace() {
        var p = PlaybackPosition()
        p.begin(at: at(3, 500))
        p.wrote(100, of: 3, from: 500)
        p.restart(at: at(3, 550))
        #expect(p.written == 0)
        #expect(p.heard(delay: 0) == at(3, 550))
    }
}

@Suite struct GainStageTests {
    let format = OutputFormat(sampleRate: 1000, channels: 1, sampleFormat: .s16)

    @Test func fullVolumePassesTheSamplesThemselves() {
        let gain = GainStage()
        let samples: [Int16] = [1000, -1000, 32767, -32768]
        samples.withUnsafeBytes { source in
            let out = gain.process(source, frames: 4, format: format)
            #expect(out.baseAddress == source.baseAddress)  // untouched, not even copied
        }
    }

    @Test func fadeInRampsFromSilenceThenPasses() {
        let gain = GainStage()
        gain.fadeIn(over: 4)
        let samples = [Int16](repeating: 1000, count: 8)
        let out: [Int16] = samples.withUnsafeBytes { Array(gain.process($0, frames: 8, format: format).bindMemory(to: Int16.self)) }
        #expect(out == [0, 250, 500, 750, 1000, 1000, 1000, 1000])
        let after: [Int16] = samples.withUnsafeBytes { Array(gain.process($0, frames: 8, format: format).bindMemory(to: Int16.self)) }
        #expect(after == samples)
    }

    @Test func aVolumeChangeRampsAcrossTheBlock() {
        let gain = GainStage()
        let samples = [Int16](repeating: 8000, count: 4)
        let full: [Int16] = samples.withUnsafeBytes { Array(gain.process($0, frames: 4, format: format).bindMemory(to: Int16.self)) }
        #expect(full == samples)
        gain.setVolume(50)  // amplitude 0.125
        let ramp: [Int16] = samples.withUnsafeBytes { Array(gain.process($0, frames: 4, format: format).bindMemory(to: Int16.self)) }
        #expect(ramp.first == 8000 && ramp.last! < 8000 && ramp.last! > 1000)
        let steady: [Int16] = samples.withUnsafeBytes { Array(gain.process($0, frames: 4, format: format).bindMemory(to: Int16.self)) }
        #expect(steady == [Int16](repeating: 1000, count: 4))
    }
}
