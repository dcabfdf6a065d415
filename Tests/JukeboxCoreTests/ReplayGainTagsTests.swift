import Testing
@testable import JukeboxCore

struct ReplayGainTagsTests {
    @Test func vorbisCommentsGiveGainsAndPeaks() {
        let m = VorbisComments.metadata(from: [
            "TITLE=Loud", "replaygain_track_gain=-6.48 dB", "REPLAYGAIN_TRACK_PEAK=0.988",
            "REPLAYGAIN_ALBUM_GAIN=+1.5dB", "REPLAYGAIN_ALBUM_PEAK=1.02",
        ])
        #expect(m.title == "Loud")
        #expect(m.replayGain == ReplayGainTags(trackGain: -6.48, trackPeak: 0.988, albumGain: 1.5, albumPeak: 1.02))
    }

    @Test func opusR128GainsAreMovedToReplayGainsReference() {
        var tags = ReplayGainTags()
        tags.take(tag: "R128_TRACK_GAIN", value: "-2560")  // −10 dB against −23 LUFS
        tags.take(tag: "R128_ALBUM_GAIN", value: "256")
        #expect(tags.trackGain == -5)
        #expect(tags.albumGain == 6)
    }

    @Test func iTunNormIsUsedOnlyWithoutAReplayGain() {
        var tags = ReplayGainTags()
        // 10000 on the louder channel: the track is 10 dB over Sound Check's reference.
        tags.take(tag: "iTunNORM", value: " 000003E8 00002710 00000000 00000000 00000000 00000000 00007FFF 00007FFF 00000000 00000000")
        #expect(tags.trackGain == -10)
        tags.trackGain = nil
        tags.take(tag: "REPLAYGAIN_TRACK_GAIN", value: "-3 dB")
        tags.take(tag: "iTunNORM", value: "00002710 00002710")
        #expect(tags.trackGain == -3)
    }

    @Test func nonsenseIsIgnoredAndOtherTagsAreLeft() {
        var tags = ReplayGainTags()
        let taken = [
            tags.take(tag: "REPLAYGAIN_TRACK_GAIN", value: "loud"),
            tags.take(tag: "REPLAYGAIN_TRACK_PEAK", value: "nan"),
            tags.take(tag: "REPLAYGAIN_ALBUM_GAIN", value: "-900 dB"),
            tags.take(tag: "R128_TRACK_GAIN", value: "99999"),
            tags.take(tag: "TITLE", value: "x"),
        ]
        #expect(taken == [true, true, true, true, false])
        #expect(tags == ReplayGainTags())
    }
}
