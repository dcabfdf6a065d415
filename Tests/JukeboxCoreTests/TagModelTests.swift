import Foundation
import Testing
@testable import JukeboxCore

/// MPD's tag model in the box: every value of every tag MPD knows, read from each kind of
/// file, kept in the library's packed tags and its index, and matched with MPD's fallbacks.
@Suite struct TagModelTests {
    let fx = Fixtures.shared

    @Test func vorbisCommentsKeepEveryValueOfEveryTag() {
        let m = VorbisComments.metadata(from: [
            "ARTIST=First", "artist=Second", "TITLE=Song", "ALBUMARTISTSORT=Band, The", "ORIGINALDATE=1999",
            "LABEL=Own Label", "MUSICBRAINZ_TRACKID=abc", "CONDUCTOR=Someone", "TRACKNUMBER=03/12",
            "DISCNUMBER=2", "YEAR=2001", "DATE=2002", "COMMENT=ripped by", "UNKNOWNTAG=x",
        ])
        #expect(m.values(.artist) == ["First", "Second"])
        #expect(m.artist == "First")
        #expect(m.first(.albumArtistSort) == "Band, The")
        #expect(m.first(.originalDate) == "1999")
        #expect(m.first(.label) == "Own Label")
        #expect(m.first(.musicBrainzTrackID) == "abc")
        #expect(m.first(.conductor) == "Someone")
        #expect(m.first(.track) == "03/12" && m.trackNumber == 3 && m.trackTotal == 12)
        #expect(m.discNumber == 2)
        // YEAR only counts without a DATE.
        #expect(m.values(.date) == ["2002"])
        #expect(VorbisComments.metadata(from: ["YEAR=2001"]).date == "2001")
    }

    @Test func id3v24TextFramesHoldSeveralValues() throws {
        var tag = ID3Builder(version: 4)
        tag.text("TPE1", "One\u{0}Two", .utf8)
        tag.text("TCON", "(17)\u{0}Jazz", .utf8)
        tag.text("TPE3", "Maestro", .utf8)
        tag.text("TPE4", "Remixer", .utf8)
        tag.text("TDOR", "1970", .utf8)
        tag.text("TSOP", "Sorted", .utf8)
        tag.text("TPUB", "Label", .utf8)
        tag.text("TXXX", "MusicBrainz Album Id\u{0}album-id", .utf8)
        tag.frames.append(("UFID", Array("http://musicbrainz.org".utf8) + [0] + Array("track-id".utf8)))
        let path = try fx.write("id3-multi.mp3", tag.build() + fx.bytes("cbr.mp3"))
        let m = try MediaProbe.probe(path).metadata
        #expect(m.values(.artist) == ["One", "Two"])
        #expect(m.values(.genre) == ["Rock", "Jazz"])
        #expect(m.first(.conductor) == "Maestro")
        #expect(m.first(.performer) == "Remixer")
        #expect(m.first(.originalDate) == "1970")
        #expect(m.first(.artistSort) == "Sorted")
        #expect(m.first(.label) == "Label")
        #expect(m.first(.musicBrainzAlbumID) == "album-id")
        #expect(m.first(.musicBrainzTrackID) == "track-id")
    }

    @Test func packedTagsKeepValuesInOrderWithTheFileTime() {
        var m = TrackMetadata()
        m.add(.artist, "A")
        m.add(.title, "T")
        m.add(.artist, "B")
        m.add(.comment, "not kept, as MPD does not keep it")
        m.trackNumber = 4
        let tags = SongTags(m, info: nil, modified: 1_700_000_000)
        #expect(tags.values(.artist) == ["A", "B"])
        #expect(tags.title == "T")
        #expect(tags.first(.track) == "4" && tags.track == 4)
        #expect(tags.values(.comment).isEmpty)
        #expect(tags.modified == 1_700_000_000)
        var order: [String] = []
        tags.forEachValue { tag, value in order.append("\(tag.rawValue)=\(value)") }
        #expect(order == ["Artist=A", "Title=T", "Artist=B", "Track=4"])

        // Through the index's text and back: the same value.
        var back = SongTags()
        back.modified = tags.modified
        back.track = tags.track
        back.readIndexed(Array(tags.indexed.joined(separator: "\t").utf8)[...])
        #expect(back == tags)

        var replaced = tags
        replaced.artist = "C"
        #expect(replaced.values(.artist) == ["C"] && replaced.modified == 1_700_000_000 && replaced != tags)
    }

    /// A tag's code is its place in the table, read from the enum's own number.
    @Test func codesAreThePlaceInTheTable() {
        for (place, tag) in MPDTag.allCases.enumerated() {
            #expect(Int(tag.code) == place && MPDTag.coded(tag.code) == tag)
        }
        #expect(MPDTag.coded(UInt8(MPDTag.allCases.count)) == nil)
    }

    /// Written as bytes into a reply, and as a string, the same ISO 8601 time; control
    /// characters in a value become spaces either way.
    @Test func repliesWriteTimesAndValuesAsMPD() {
        var bytes: [UInt8] = []
        MPDProtocol.appendTimestamp(1_714_564_805, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "2024-05-01T12:00:05Z")
        #expect(MPDProtocol.timestamp(0) == "1970-01-01T00:00:00Z")
        #expect(MPDProtocol.timestamp(253_402_300_799) == "9999-12-31T23:59:59Z")
        bytes = []
        MPDProtocol.appendValue("a\tb\u{7F}ü\n", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "a b ü " && MPDProtocol.value("a\tb\u{7F}ü\n") == "a b ü ")
    }

    @Test func fallbacksAreMPDs() {
        var m = TrackMetadata()
        m.add(.artist, "Artist")
        m.add(.album, "Album")
        let plain = SongTags(m, info: nil)
        #expect(MPDTag.albumArtist.matchedValues(in: plain) == ["Artist"])
        #expect(MPDTag.albumArtistSort.matchedValues(in: plain) == ["Artist"])
        #expect(MPDTag.artistSort.matchedValues(in: plain) == ["Artist"])
        #expect(MPDTag.albumSort.matchedValues(in: plain) == ["Album"])
        #expect(MPDTag.composer.matchedValues(in: plain).isEmpty)
        m.add(.albumArtist, "Band")
        #expect(MPDTag.albumArtistSort.matchedValues(in: SongTags(m, info: nil)) == ["Band"])
    }

    /// A file of many long values keeps at most `TagLimits.maximumTagBytes` of them, in
    /// the metadata, its raw names and the library's packed tags alike.
    @Test func aFileOfHugeTagsKeepsABoundedFew() {
        let long = String(repeating: "x", count: 60 * 1024)
        let entries = (0..<256).map { "ARTIST=\($0)\(long)" } + ["TITLE=kept?"]
        let m = VorbisComments.metadata(from: entries)
        #expect(m.tags.reduce(0) { $0 + $1.value.utf8.count } <= TagLimits.maximumTagBytes)
        #expect(m.rawTags.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count } <= TagLimits.maximumTagBytes)
        #expect(SongTags(m, info: nil).heapBytes < 2 * TagLimits.maximumTagBytes)
        let small = VorbisComments.metadata(from: ["ARTIST=A", "ARTIST=B", "TITLE=T"])
        #expect(small.values(.artist) == ["A", "B"] && small.rawTags.count == 3)
    }
}
