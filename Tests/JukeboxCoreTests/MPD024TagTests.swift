import Foundation
import Testing
@testable import JukeboxCore

/// The tags MPD 0.24 added (TitleSort, Mood, ShowMovement, MUSICBRAINZ_RELEASEGROUPID),
/// where they sit in its table and where its readers find them.
@Suite struct MPD024TagTests {
    let fx = Fixtures.shared

    @Test func theTableIsMPD024sInItsOrder() {
        // As MPD 0.24.2's `tagtypes` lists them (Comment is held back, as there).
        #expect(MPDTag.offered.map(\.rawValue) == [
            "Artist", "ArtistSort", "Album", "AlbumSort", "AlbumArtist", "AlbumArtistSort", "Title", "TitleSort",
            "Track", "Name", "Genre", "Mood", "Date", "OriginalDate", "Composer", "ComposerSort", "Performer",
            "Conductor", "Work", "Movement", "MovementNumber", "ShowMovement", "Ensemble", "Location", "Grouping",
            "Disc", "Label", "MUSICBRAINZ_ARTISTID", "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_ALBUMARTISTID",
            "MUSICBRAINZ_TRACKID", "MUSICBRAINZ_RELEASETRACKID", "MUSICBRAINZ_WORKID", "MUSICBRAINZ_RELEASEGROUPID",
        ])
    }

    @Test func vorbisCommentsByTheirNames() {
        let m = VorbisComments.metadata(from: ["TITLE=Song", "TITLESORT=Song, The", "MOOD=Calm", "SHOWMOVEMENT=1",
                                               "MUSICBRAINZ_RELEASEGROUPID=rg-1"])
        #expect(m.first(.titleSort) == "Song, The")
        #expect(m.first(.mood) == "Calm")
        #expect(m.first(.showMovement) == "1")
        #expect(m.first(.musicBrainzReleaseGroupID) == "rg-1")
    }

    @Test func id3FramesAndUserTexts() throws {
        var tag = ID3Builder(version: 4)
        tag.text("TIT2", "Song", .utf8)
        tag.text("TSOT", "Song, The", .utf8)
        tag.text("TMOO", "Calm", .utf8)
        tag.frames.append(("TXXX", [3] + ID3Builder.encode("MusicBrainz Release Group Id", .utf8, terminated: true)
                                   + ID3Builder.encode("rg-1", .utf8)))
        let path = try fx.write("mpd024-tags.mp3", tag.build() + fx.bytes("cbr.mp3"))
        let m = try MediaProbe.probe(path).metadata
        #expect(m.first(.titleSort) == "Song, The")
        #expect(m.first(.mood) == "Calm")
        #expect(m.first(.musicBrainzReleaseGroupID) == "rg-1")
    }

    @Test func titleSortAndComposerSortFallBack() {
        var tags = SongTags()
        tags.replace(.title, "Song")
        tags.replace(.composer, "Writer")
        #expect(MPDTag.titleSort.matchedValues(in: tags) == ["Song"])
        #expect(MPDTag.composerSort.matchedValues(in: tags) == ["Writer"])
        tags.replace(.titleSort, "Song, The")
        #expect(MPDTag.titleSort.firstMatchedValue(in: tags) == "Song, The")
    }
}
